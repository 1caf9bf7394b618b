import { changeLanguage, isLanguage, LANGUAGES, type Language } from '../../lib/i18n.ts';
import { getToken } from '../../lib/session-store.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import { GlobeIcon } from '../ui/icons.tsx';
import styles from './language-switcher.module.css';

/** A signed-in customer's emails follow the interface language; the call loads only when needed. */
function rememberForEmails(language: Language) {
  if (!getToken()) return;
  void import('../../features/profile/api/update-locale.ts')
    .then(({ updateLocale }) => updateLocale({ locale: language }))
    .catch(() => {
      // The interface has switched; the emails keep the old language until the next switch.
    });
}

/**
 * A native select: it is tiny, works with every screen reader and opens the phone's own picker, which
 * suits a control in the always-loaded top bar. Each language names itself.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = i18n.language;
  return (
    <label className={styles.switcher}>
      <GlobeIcon size={18} className={styles.icon} />
      <span className="visually-hidden">{t('header.language')}</span>
      <select
        className={styles.select}
        value={current}
        data-testid="language-switcher"
        onChange={(event) => {
          const next = event.target.value;
          if (!isLanguage(next)) return;
          void changeLanguage(next);
          rememberForEmails(next);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language}>
            {t(`languages.${language}`)}
          </option>
        ))}
      </select>
      <span className={styles.code} aria-hidden="true">
        {current.slice(0, 2).toUpperCase()}
      </span>
    </label>
  );
}
