import { DashboardResponseSchema, ORDER_STATUSES } from '@store/contract';
import { useQuery } from '@tanstack/react-query';
import { ErrorState, Loading } from '../components/states.tsx';
import { adminGet } from '../lib/api.ts';
import { salesBars } from '../lib/chart.ts';
import { formatDay, formatMoney } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';

const CHART_WIDTH = 600;
const CHART_HEIGHT = 160;

/** Sales today, 7 and 30 days, orders by status, low stock, set-aside events, failing emails, receivables. */
export default function DashboardPage() {
  const { t, language } = useI18n();
  const query = useQuery({
    queryKey: ['dashboard'],
    queryFn: ({ signal }) => adminGet('/dashboard', DashboardResponseSchema, { signal }),
    refetchInterval: 60_000,
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const data = query.data;
  const money = (minor: number) => formatMoney(minor, data.currency, language);
  const bars = salesBars(
    data.sales.series.map((point) => point.amount_minor),
    CHART_WIDTH,
    CHART_HEIGHT,
  );
  const first = data.sales.series[0];
  const last = data.sales.series.at(-1);

  return (
    <section className="stack">
      <div className="page-head">
        <h1>{t('dashboard.title')}</h1>
      </div>
      <div className="cards">
        {(['today', 'days_7', 'days_30'] as const).map((period) => (
          <div className="card" key={period}>
            <p className="muted">{t(`dashboard.${period}`)}</p>
            <p className="figure">{money(data.sales[period].amount_minor)}</p>
            <p className="muted">{t('dashboard.orders', { count: data.sales[period].orders })}</p>
          </div>
        ))}
      </div>
      <figure className="panel chart">
        <figcaption>{t('dashboard.chart')}</figcaption>
        <svg
          viewBox={`0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={t('dashboard.chart')}
        >
          {bars.map((bar, index) => {
            const point = data.sales.series[index];
            return (
              <rect key={point?.day ?? index} x={bar.x} y={bar.y} width={bar.width} height={bar.height} rx={2}>
                <title>
                  {point
                    ? `${formatDay(point.day, language)}: ${money(bar.value)} · ${t('dashboard.orders', { count: point.orders })}`
                    : ''}
                </title>
              </rect>
            );
          })}
        </svg>
        {first && last && (
          <p className="chart-axis muted">
            <span>{formatDay(first.day, language)}</span>
            <span>{formatDay(last.day, language)}</span>
          </p>
        )}
      </figure>
      <div className="cards">
        <div className="card">
          <h2>{t('dashboard.byStatus')}</h2>
          <ul className="plain">
            {ORDER_STATUSES.filter((status) => (data.orders_by_status[status] ?? 0) > 0).map((status) => (
              <li key={status}>
                {t(`orderStatus.${status}`)}: <strong>{data.orders_by_status[status]}</strong>
              </li>
            ))}
          </ul>
        </div>
        <div className="card">
          <h2>{t('dashboard.lowStock')}</h2>
          {data.low_stock.length === 0 ? (
            <p className="muted">{t('dashboard.noLowStock')}</p>
          ) : (
            <ul className="plain">
              {data.low_stock.map((product) => (
                <li key={product.product_id}>
                  {product.name}: <strong>{product.available}</strong> / {product.threshold}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div className="card">
          <h2>{t('dashboard.attention')}</h2>
          <ul className="plain">
            <li>{t('dashboard.setAside', { count: data.payment_events.set_aside })}</li>
            <li>{t('dashboard.deadLettered', { count: data.payment_events.dead_lettered })}</li>
            <li>{t('dashboard.emailsFailing', { count: data.emails_failing })}</li>
            <li>
              {t('dashboard.receivables', {
                count: data.receivables.customers,
                amount: money(data.receivables.owed_minor),
              })}
            </li>
          </ul>
        </div>
      </div>
    </section>
  );
}
