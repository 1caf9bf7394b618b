import { Link } from 'react-router-dom';
import { GiftIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { categoriesQueryOptions, useCategories } from '../../features/catalogue/api/get-categories.ts';
import { productListQueryOptions } from '../../features/catalogue/api/get-product-list.ts';
import { ProductListSection } from '../../features/catalogue/components/product-list-section.tsx';
import { currentLanguage, ensureTexts } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import styles from './holiday.module.css';

/** The guide's texts live with the information pages' part of the catalogue: few visitors read them. */
export async function loader() {
  await Promise.all([
    ensureTexts('info'),
    queryClient.ensureQueryData(categoriesQueryOptions()),
    queryClient.ensureInfiniteQueryData(productListQueryOptions('discounts', currentLanguage())),
  ]);
  return null;
}

const STEPS = ['pick', 'pay', 'give'] as const;

/** Holiday: a gift guide, a card per platform, and the current holiday prices. */
export function Component() {
  const { t } = useTranslation();
  const categories = useCategories();
  useDocumentTitle(t('nav.holiday'));
  return (
    <>
      <section className={styles.banner} aria-labelledby="holiday-title">
        <span className={styles.ribbon} aria-hidden="true" />
        <h1 id="holiday-title" className={styles.title}>
          {t('holiday.title')}
        </h1>
        <p className={styles.lead}>{t('holiday.lead')}</p>
        <ol className={styles.steps}>
          {STEPS.map((step, index) => (
            <li key={step} className={styles.step}>
              <span className={styles.stepNumber}>{index + 1}</span>
              <div>
                <h2 className={styles.stepTitle}>{t(`holiday.steps.${step}.title`)}</h2>
                <p className={styles.stepText}>{t(`holiday.steps.${step}.text`)}</p>
              </div>
            </li>
          ))}
        </ol>
      </section>
      <h2 className={styles.sectionTitle}>{t('holiday.byPlatform')}</h2>
      <ul className={styles.platforms}>
        {categories.data?.map((category) => (
          <li key={category.id}>
            <Link to={`/category/${category.id}`} className={styles.platform}>
              {category.svg_path && <img src={category.svg_path} alt="" width={32} height={32} />}
              <span className={styles.platformName}>{category.formatted_name}</span>
            </Link>
          </li>
        ))}
      </ul>
      <PageHeader
        level={2}
        title={t('holiday.dealsTitle')}
        subtitle={t('holiday.dealsSubtitle')}
        icon={<GiftIcon size={26} />}
      />
      <ProductListSection list="discounts" headingLevel={3} />
    </>
  );
}
