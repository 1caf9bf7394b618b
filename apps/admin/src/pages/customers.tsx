import { ADMIN_PAGE_SIZE, AdminCustomerPageSchema, STORE_CURRENCY } from '@store/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { Empty, ErrorState, Loading, Pager } from '../components/states.tsx';
import { adminGet } from '../lib/api.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { formFilters, useFilters } from '../lib/use-filters.ts';

const FILTERS = ['q', 'blocked'] as const;

/** Customers: search by address, name or id; blocked or not. */
export default function CustomersPage() {
  const { t, language } = useI18n();
  const { filters, page, setFilters, setPage } = useFilters(FILTERS);
  const params = { ...filters, page, page_size: ADMIN_PAGE_SIZE };
  const query = useQuery({
    queryKey: ['customers', params],
    queryFn: ({ signal }) => adminGet('/customers', AdminCustomerPageSchema, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(formFilters(event.currentTarget, FILTERS));
  };
  return (
    <section>
      <div className="page-head">
        <h1>{t('customers.title')}</h1>
      </div>
      <form className="filters" onSubmit={submit} key={JSON.stringify(filters)} aria-label={t('common.filters')}>
        <label className="field grow">
          <span>{t('customers.search')}</span>
          <input name="q" type="search" defaultValue={filters.q} />
        </label>
        <label className="field">
          <span>{t('customers.state')}</span>
          <select name="blocked" defaultValue={filters.blocked}>
            <option value="">{t('common.all')}</option>
            <option value="false">{t('customers.active')}</option>
            <option value="true">{t('customers.blocked')}</option>
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
        <Empty>{t('customers.empty')}</Empty>
      ) : (
        <>
          <table className="table">
            <thead>
              <tr>
                <th>{t('orders.email')}</th>
                <th>{t('customers.name')}</th>
                <th className="number">{t('customers.balance')}</th>
                <th>{t('customers.state')}</th>
                <th>{t('customers.since')}</th>
              </tr>
            </thead>
            <tbody>
              {query.data.items.map((customer) => (
                <tr key={customer.id}>
                  <td className="ellipsis">
                    <Link to={`/customers/${customer.id}`}>{customer.email}</Link>
                  </td>
                  <td className="ellipsis">{customer.name}</td>
                  <td className="number">{formatMoney(customer.balance_minor, STORE_CURRENCY, language)}</td>
                  <td>{customer.blocked_at ? t('customers.blocked') : t('customers.active')}</td>
                  <td>{formatDateTime(customer.created_at, language)}</td>
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
