import { SEARCH_DEBOUNCE_MS, SEARCH_MAX } from '@store/contract';
import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { usePurchased } from '../api/get-purchased.ts';
import { PurchasedProductCard } from './purchased-product.tsx';
import styles from './purchases.module.css';

const pageOf = (value: string | null) => {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
};

/** The customer's purchased products with their codes, searched and paged (docs/orders.md, "Delivery"). */
export function Purchases() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const page = pageOf(params.get('page'));
  const [search, setSearch] = useState('');
  const debounced = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const purchased = usePurchased(page, debounced);
  const data = purchased.data;

  return (
    <section className={styles.section} aria-labelledby="purchases-title" data-testid="purchases">
      <h2 id="purchases-title" className={styles.title}>
        {t('purchases.title')}
      </h2>
      <label className={styles.search}>
        <span className="visually-hidden">{t('purchases.search')}</span>
        <input
          type="search"
          value={search}
          maxLength={SEARCH_MAX}
          placeholder={t('purchases.searchPlaceholder')}
          onChange={(event) => {
            setSearch(event.target.value);
            // A new search starts at its first page.
            if (params.has('page')) {
              params.delete('page');
              setParams(params, { replace: true });
            }
          }}
        />
      </label>
      {purchased.isError && !data ? (
        <p className={styles.note} role="alert">
          {t('purchases.failed')}
        </p>
      ) : !data ? (
        <p className={styles.muted}>{t('purchases.loading')}</p>
      ) : data.products.length === 0 ? (
        <p className={styles.muted} data-testid="purchases-empty">
          {debounced.trim() ? t('purchases.noResults') : t('purchases.empty')}
        </p>
      ) : (
        <>
          <div className={styles.list}>
            {data.products.map((product) => (
              <PurchasedProductCard key={product.line_id} product={product} />
            ))}
          </div>
          <Pagination page={data.page} pages={data.pages} />
        </>
      )}
    </section>
  );
}
