import { Link } from 'react-router-dom';
import { BoltIcon, FlameIcon, GiftIcon, ShieldIcon } from '../../components/ui/icons.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { productListQueryOptions } from '../../features/catalogue/api/get-product-list.ts';
import { ProductListSection } from '../../features/catalogue/components/product-list-section.tsx';
import { currentLanguage } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import styles from './home.module.css';

export async function loader() {
  await queryClient.ensureInfiniteQueryData(productListQueryOptions('popular-products', currentLanguage()));
  return null;
}

/** Index: a short promise of the store, then the popular products. */
export function Component() {
  const { t } = useTranslation();
  useDocumentTitle(undefined);
  return (
    <>
      <section className={styles.hero} aria-labelledby="hero-title">
        <div className={styles.heroText}>
          <h2 id="hero-title" className={styles.heroTitle}>
            {t('home.heroTitle')}
          </h2>
          <p className={styles.heroLead}>{t('home.heroLead')}</p>
          <div className={styles.heroActions}>
            <Link to="/discounts" className={styles.primary}>
              {t('home.ctaDiscounts')}
            </Link>
            <Link to="/holiday" className={styles.secondary}>
              <GiftIcon size={18} />
              {t('nav.holiday')}
            </Link>
          </div>
        </div>
        <ul className={styles.perks}>
          <li>
            <BoltIcon size={18} />
            {t('home.perkInstant')}
          </li>
          <li>
            <ShieldIcon size={18} />
            {t('home.perkOfficial')}
          </li>
          <li>
            <GiftIcon size={18} />
            {t('home.perkRegions')}
          </li>
        </ul>
      </section>
      <PageHeader title={t('home.popularTitle')} subtitle={t('home.popularSubtitle')} icon={<FlameIcon size={26} />} />
      <ProductListSection list="popular-products" />
    </>
  );
}
