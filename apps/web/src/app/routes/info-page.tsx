import { SUPPORT_EMAIL } from '../../components/layout/footer.tsx';
import { ensureTexts } from '../../lib/i18n.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import styles from './info-page.module.css';

export type InfoPageName = 'privacy' | 'contractOffer' | 'requisites' | 'guarantees' | 'faq';

interface Section {
  title: string;
  body: string;
}
interface Row {
  label: string;
  value: string;
}
interface Question {
  q: string;
  a: string;
}

function useList<T>(key: string): T[] {
  const { t } = useTranslation();
  const value: unknown = t(key, { returnObjects: true, email: SUPPORT_EMAIL });
  return Array.isArray(value) ? (value as T[]) : [];
}

function InfoPage({ page }: { page: InfoPageName }) {
  const { t } = useTranslation();
  const base = `info.${page}`;
  const title = t(`${base}.title`);
  useDocumentTitle(title);
  const sections = useList<Section>(`${base}.sections`);
  const rows = useList<Row>(`${base}.rows`);
  const questions = useList<Question>(`${base}.items`);

  return (
    <article className={styles.page} data-testid={`info-${page}`}>
      <header className={styles.header}>
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.intro}>{t(`${base}.intro`, { email: SUPPORT_EMAIL })}</p>
        {page === 'privacy' || page === 'contractOffer' ? <p className={styles.updated}>{t('info.updated')}</p> : null}
      </header>

      {sections.length > 0 && (
        <ol className={styles.sections}>
          {sections.map((section) => (
            <li key={section.title} className={styles.section}>
              <h2 className={styles.sectionTitle}>{section.title}</h2>
              <p className={styles.body}>{section.body}</p>
            </li>
          ))}
        </ol>
      )}

      {rows.length > 0 && (
        <dl className={styles.rows}>
          {rows.map((row) => (
            <div key={row.label} className={styles.row}>
              <dt>{row.label}</dt>
              <dd>{row.value}</dd>
            </div>
          ))}
        </dl>
      )}

      {questions.length > 0 && (
        <div className={styles.faq}>
          {questions.map((item) => (
            <details key={item.q} className={styles.question}>
              <summary>{item.q}</summary>
              <p className={styles.body}>{item.a}</p>
            </details>
          ))}
        </div>
      )}

      <aside className={styles.contact}>
        <p>{t('info.contact')}</p>
        <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </aside>
    </article>
  );
}

/** The route's handle names the page: one lazy module serves the five information pages. */
/** The pages' bodies live in their own part of the catalogue; the route waits for it. */
export async function loader() {
  await ensureTexts('info');
  return null;
}

export function Component({ page }: { page: InfoPageName }) {
  return <InfoPage page={page} />;
}
