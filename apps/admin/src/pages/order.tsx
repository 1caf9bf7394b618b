import { AdminOrderDetailSchema, AdminResendReceiptResponseSchema, roleMay } from '@store/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useSession } from '../app/use-session.ts';
import { ErrorState, Loading } from '../components/states.tsx';
import { adminGet, adminSend, segment } from '../lib/api.ts';
import { errorText } from '../lib/errors.ts';
import { formatDateTime, formatMoney } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { RefundDialog } from './refund-dialog.tsx';
import { RevealCodeDialog } from './reveal-code-dialog.tsx';

/** One order: its lines, payments, refunds, the provider's events and its timeline; refund, resend. */
export default function OrderPage() {
  const { id = '' } = useParams();
  const { t, language } = useI18n();
  const { session } = useSession();
  const [refunding, setRefunding] = useState(false);
  const [revealing, setRevealing] = useState<{ codeId: string; position: number } | null>(null);
  const query = useQuery({
    queryKey: ['order', id],
    queryFn: ({ signal }) => adminGet(`/orders/${segment(id)}`, AdminOrderDetailSchema, { signal }),
  });
  const resend = useMutation({
    mutationFn: () => adminSend('POST', `/orders/${segment(id)}/resend-receipt`, {}, AdminResendReceiptResponseSchema),
  });

  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const { order, lines, payments, provider_events, refunds, timeline } = query.data;
  const money = (minor: number) => formatMoney(minor, order.currency, language);
  const role = session?.staff.role ?? 'support';
  const refundable = order.refundable.card_minor + order.refundable.balance_minor > 0;

  return (
    <section className="stack">
      <p>
        <Link to="/orders">{t('orders.back')}</Link>
      </p>
      <div className="page-head">
        <h1>{t('order.title', { number: order.number })}</h1>
        <div className="actions">
          {roleMay(role, 'orders.resend_receipt') && (
            <button
              type="button"
              className="button secondary"
              onClick={() => resend.mutate()}
              disabled={resend.isPending}
            >
              {t('order.resend')}
            </button>
          )}
          {roleMay(role, 'orders.refund') && (
            <button type="button" className="button danger" onClick={() => setRefunding(true)} disabled={!refundable}>
              {t('order.refund')}
            </button>
          )}
        </div>
      </div>
      {resend.isSuccess && (
        <p className="notice" role="status">
          {t('order.resent')}
        </p>
      )}
      {resend.error && (
        <p className="error" role="alert">
          {errorText(t, resend.error)}
        </p>
      )}
      <dl className="facts">
        <div>
          <dt>{t('orders.status')}</dt>
          <dd>
            <span className={`status status-${order.status}`}>{t(`orderStatus.${order.status}`)}</span>
          </dd>
        </div>
        <div>
          <dt>{t('orders.email')}</dt>
          <dd className="ellipsis">
            {roleMay(role, 'customers.read') ? (
              <Link to={`/customers/${order.user_id}`}>{order.email}</Link>
            ) : (
              order.email
            )}
          </dd>
        </div>
        <div>
          <dt>{t('orders.total')}</dt>
          <dd>{money(order.total_minor)}</dd>
        </div>
        <div>
          <dt>{t('order.refunded')}</dt>
          <dd>{money(order.refunded_minor)}</dd>
        </div>
        <div>
          <dt>{t('orders.method')}</dt>
          <dd>{order.method ? t(`paymentMethod.${order.method}`) : '—'}</dd>
        </div>
        <div>
          <dt>{t('orders.created')}</dt>
          <dd>{formatDateTime(order.created_at, language)}</dd>
        </div>
        {order.promo_code && (
          <div>
            <dt>{t('order.promo')}</dt>
            <dd>{order.promo_code}</dd>
          </div>
        )}
      </dl>

      <h2>{t('order.lines')}</h2>
      <table className="table">
        <thead>
          <tr>
            <th>{t('order.product')}</th>
            <th className="number">{t('order.quantity')}</th>
            <th className="number">{t('order.unitPrice')}</th>
            <th className="number">{t('order.discount')}</th>
            <th>{t('order.codes')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => (
            <tr key={line.id}>
              <td>{line.name}</td>
              <td className="number">{line.quantity}</td>
              <td className="number">{money(line.unit_price_minor)}</td>
              <td className="number">{money(line.discount_minor)}</td>
              <td>
                {line.code_ids.length === 0 ? (
                  '—'
                ) : roleMay(role, 'codes.reveal') ? (
                  <span className="actions">
                    {line.code_ids.map((codeId, index) => (
                      <button
                        key={codeId}
                        type="button"
                        className="button secondary small"
                        onClick={() => setRevealing({ codeId, position: index + 1 })}
                      >
                        {t('order.reveal', { position: index + 1 })}
                      </button>
                    ))}
                  </span>
                ) : (
                  t('order.delivered', { count: line.code_ids.length })
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h2>{t('order.payments')}</h2>
      {payments.length === 0 ? (
        <p className="empty">{t('order.noPayments')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t('orders.method')}</th>
              <th>{t('order.provider')}</th>
              <th>{t('orders.status')}</th>
              <th className="number">{t('order.amount')}</th>
              <th>{t('order.card')}</th>
              <th>{t('orders.created')}</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.id}>
                <td>{t(`paymentMethod.${payment.method}`)}</td>
                <td>{payment.provider}</td>
                <td>{payment.status}</td>
                <td className="number">{formatMoney(payment.amount_minor, payment.currency, language)}</td>
                <td>{payment.card_last4 ? `${payment.card_brand ?? ''} •••• ${payment.card_last4}` : '—'}</td>
                <td>{formatDateTime(payment.created_at, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {refunds.length > 0 && (
        <>
          <h2>{t('order.refunds')}</h2>
          <table className="table">
            <thead>
              <tr>
                <th className="number">{t('order.amount')}</th>
                <th>{t('orders.status')}</th>
                <th>{t('common.reason')}</th>
                <th>{t('orders.created')}</th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((refund) => (
                <tr key={refund.id}>
                  <td className="number">{money(refund.amount_minor)}</td>
                  <td>{refund.status}</td>
                  <td className="ellipsis">{refund.reason}</td>
                  <td>{formatDateTime(refund.created_at, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      <h2>{t('order.events')}</h2>
      {provider_events.length === 0 ? (
        <p className="empty">{t('order.noEvents')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t('order.provider')}</th>
              <th>{t('order.eventType')}</th>
              <th>{t('order.received')}</th>
              <th>{t('order.processed')}</th>
            </tr>
          </thead>
          <tbody>
            {provider_events.map((event) => (
              <tr key={event.id}>
                <td>{event.provider}</td>
                <td>{event.type}</td>
                <td>{formatDateTime(event.received_at, language)}</td>
                <td>
                  {event.set_aside
                    ? t('order.setAside', { reason: event.set_aside })
                    : event.processed_at
                      ? formatDateTime(event.processed_at, language)
                      : t('order.notProcessed')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h2>{t('order.timeline')}</h2>
      <ol className="timeline" data-testid="order-timeline">
        {timeline.map((entry) => (
          <li key={entry.id}>
            <time dateTime={entry.at}>{formatDateTime(entry.at, language)}</time>
            <span className="kind">{entry.kind}</span>
            {entry.from_status && entry.to_status && (
              <span>
                {t(`orderStatus.${entry.from_status}`)} → {t(`orderStatus.${entry.to_status}`)}
              </span>
            )}
            {entry.amount_minor !== null && <span>{money(entry.amount_minor)}</span>}
            <span className="muted">{entry.actor}</span>
          </li>
        ))}
      </ol>
      <RefundDialog order={order} open={refunding} onOpenChange={setRefunding} />
      <RevealCodeDialog
        codeId={revealing?.codeId ?? null}
        position={revealing?.position ?? 0}
        onClose={() => setRevealing(null)}
      />
    </section>
  );
}
