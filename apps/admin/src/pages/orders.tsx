import { ADMIN_PAGE_SIZE, AdminOrderPageSchema, ORDER_PAYMENT_METHODS, ORDER_STATUSES, roleMay } from '@store/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useSession } from '../app/use-session.ts';
import { Empty, ErrorState, Loading, Pager } from '../components/states.tsx';
import { adminDownload, adminGet } from '../lib/api.ts';
import { errorText } from '../lib/errors.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { formFilters, useFilters } from '../lib/use-filters.ts';

const FILTERS = ['q', 'email', 'status', 'method', 'from', 'to'] as const;

/** Orders: search by number, email, status, method and dates; open one; export what matches. */
export default function OrdersPage() {
  const { t, language } = useI18n();
  const { session } = useSession();
  const { filters, page, setFilters, setPage } = useFilters(FILTERS);
  const params = { ...filters, page, page_size: ADMIN_PAGE_SIZE };
  const query = useQuery({
    queryKey: ['orders', params],
    queryFn: ({ signal }) => adminGet('/orders', AdminOrderPageSchema, { params, signal }),
    placeholderData: keepPreviousData,
  });
  const exportCsv = useMutation({
    mutationFn: () => adminDownload('/orders/export.csv', filters, 'orders.csv'),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setFilters(formFilters(event.currentTarget, FILTERS));
  };
  const mayExport = session ? roleMay(session.staff.role, 'orders.export') : false;

  return (
    <section>
      <div className="page-head">
        <h1>{t('orders.title')}</h1>
        {mayExport && (
          <button
            type="button"
            className="button secondary"
            onClick={() => exportCsv.mutate()}
            disabled={exportCsv.isPending}
          >
            {t('orders.export')}
          </button>
        )}
      </div>
      {exportCsv.error && (
        <p className="error" role="alert">
          {errorText(t, exportCsv.error)}
        </p>
      )}
      <form className="filters" onSubmit={submit} key={JSON.stringify(filters)} aria-label={t('common.filters')}>
        <label className="field">
          <span>{t('orders.number')}</span>
          <input name="q" defaultValue={filters.q} />
        </label>
        <label className="field">
          <span>{t('orders.email')}</span>
          <input name="email" type="search" defaultValue={filters.email} />
        </label>
        <label className="field">
          <span>{t('orders.status')}</span>
          <select name="status" defaultValue={filters.status}>
            <option value="">{t('common.all')}</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(`orderStatus.${status}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('orders.method')}</span>
          <select name="method" defaultValue={filters.method}>
            <option value="">{t('common.all')}</option>
            {ORDER_PAYMENT_METHODS.map((method) => (
              <option key={method} value={method}>
                {t(`paymentMethod.${method}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('common.from')}</span>
          <input name="from" type="date" defaultValue={filters.from} />
        </label>
        <label className="field">
          <span>{t('common.to')}</span>
          <input name="to" type="date" defaultValue={filters.to} />
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
        <Empty>{t('orders.empty')}</Empty>
      ) : (
        <>
          <table className="table">
            <thead>
              <tr>
                <th>{t('orders.number')}</th>
                <th>{t('orders.email')}</th>
                <th>{t('orders.status')}</th>
                <th>{t('orders.method')}</th>
                <th className="number">{t('orders.total')}</th>
                <th>{t('orders.created')}</th>
              </tr>
            </thead>
            <tbody>
              {query.data.items.map((order) => (
                <tr key={order.id}>
                  <td>
                    <Link to={`/orders/${order.id}`}>{order.number}</Link>
                  </td>
                  <td className="ellipsis" title={order.email}>
                    {order.email}
                  </td>
                  <td>
                    <span className={`status status-${order.status}`}>{t(`orderStatus.${order.status}`)}</span>
                  </td>
                  <td>{order.method ? t(`paymentMethod.${order.method}`) : '—'}</td>
                  <td className="number">{formatMoney(order.total_minor, order.currency, language)}</td>
                  <td>{formatDateTime(order.created_at, language)}</td>
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
