import { ADMIN_PAGE_SIZE, AdminProductOptionsSchema, AdminProductPageSchema, STORE_CURRENCY } from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Empty, ErrorState, Loading, Pager } from '../components/states.tsx';
import { adminGet } from '../lib/api.ts';
import { formatMoney } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { formFilters, useFilters } from '../lib/use-filters.ts';

const FILTERS = ['q', 'category', 'active'] as const;

export const productOptionsQuery = {
  queryKey: ['product-options'],
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    adminGet('/products/options', AdminProductOptionsSchema, { signal }),
  staleTime: 5 * 60_000,
} as const;

/** The catalogue: search by name or id, a category, on sale or not; each product opens its form. */
export default function ProductsPage() {
  const { t, language } = useI18n();
  const { filters, page, setFilters, setPage } = useFilters(FILTERS);
  const params = { ...filters, page, page_size: ADMIN_PAGE_SIZE };
  const options = useQuery(productOptionsQuery);
  const query = useQuery({
    queryKey: ['products', params],
    queryFn: ({ signal }) => adminGet('/products', AdminProductPageSchema, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(formFilters(event.currentTarget, FILTERS));
  };
  return (
    <section>
      <div className="page-head">
        <h1>{t('products.title')}</h1>
        <Link className="button primary" to="/products/new">
          {t('products.new')}
        </Link>
      </div>
      <form className="filters" onSubmit={submit} key={JSON.stringify(filters)} aria-label={t('common.filters')}>
        <label className="field grow">
          <span>{t('products.search')}</span>
          <input name="q" type="search" defaultValue={filters.q} />
        </label>
        <label className="field">
          <span>{t('products.category')}</span>
          <select name="category" defaultValue={filters.category}>
            <option value="">{t('common.all')}</option>
            {options.data?.categories.map((category) => (
              <option key={category.slug} value={category.slug}>
                {category.name}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('products.state')}</span>
          <select name="active" defaultValue={filters.active}>
            <option value="">{t('common.all')}</option>
            <option value="true">{t('products.active')}</option>
            <option value="false">{t('products.inactive')}</option>
          </select>
        </label>
        <div className="filter-actions">
          <button type="submit" className="button primary">
            {t('common.search')}
          </button>
        </div>
      </form>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.items.length === 0 ? (
        <Empty>{t('products.empty')}</Empty>
      ) : (
        <>
          <table className="table">
            <thead>
              <tr>
                <th className="number">{t('products.id')}</th>
                <th>{t('products.name')}</th>
                <th>{t('products.category')}</th>
                <th>{t('products.country')}</th>
                <th className="number">{t('products.price')}</th>
                <th className="number">{t('products.stock')}</th>
                <th>{t('products.state')}</th>
              </tr>
            </thead>
            <tbody>
              {query.data.items.map((product) => (
                <tr key={product.id}>
                  <td className="number">{product.id}</td>
                  <td className="ellipsis">
                    <Link to={`/products/${product.id}`}>{product.name}</Link>
                  </td>
                  <td className="ellipsis">{product.category_name}</td>
                  <td>{product.country}</td>
                  <td className="number">
                    {formatMoney(product.price_minor, STORE_CURRENCY, language)}
                    {product.old_price_minor !== null && (
                      <s className="muted"> {formatMoney(product.old_price_minor, STORE_CURRENCY, language)}</s>
                    )}
                  </td>
                  <td className="number">
                    {product.stock <= product.low_stock_threshold ? <strong>{product.stock}</strong> : product.stock}
                  </td>
                  <td>{product.is_active ? t('products.active') : t('products.inactive')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pageSize={query.data.page_size} total={query.data.total} onPage={setPage} />
        </>
      )}
    </section>
  );
}
