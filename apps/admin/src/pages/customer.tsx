import {
  ADMIN_REASON_MIN,
  AdminCustomerDetailSchema,
  BalanceAdjustResponseSchema,
  CustomerActionResponseSchema,
  roleMay,
  STORE_CURRENCY,
} from '@store/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useSession } from '../app/use-session.ts';
import { Modal } from '../components/dialog.tsx';
import { ErrorState, Loading } from '../components/states.tsx';
import { adminGet, adminSend, segment } from '../lib/api.ts';
import { errorText, fieldError } from '../lib/errors.ts';
import { formatDateTime, formatMoney, parseMoney } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';

type Action = 'block' | 'unblock' | 'revoke-sessions' | 'balance';

/** A customer: profile, latest orders, ledger; block, unblock, end sessions, adjust the balance. */
export default function CustomerPage() {
  const { id = '' } = useParams();
  const { t, language } = useI18n();
  const { session } = useSession();
  const [action, setAction] = useState<Action | null>(null);
  const query = useQuery({
    queryKey: ['customer', id],
    queryFn: ({ signal }) => adminGet(`/customers/${segment(id)}`, AdminCustomerDetailSchema, { signal }),
  });
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  const { customer, active_sessions, orders, ledger } = query.data;
  const role = session?.staff.role ?? 'support';
  const money = (minor: number, currency: string = STORE_CURRENCY) => formatMoney(minor, currency, language);

  return (
    <section className="stack">
      <p>
        <Link to="/customers">{t('customers.back')}</Link>
      </p>
      <div className="page-head">
        <h1 className="ellipsis">{customer.email}</h1>
        <div className="actions">
          {roleMay(role, 'customers.sessions_revoke') && (
            <button type="button" className="button secondary" onClick={() => setAction('revoke-sessions')}>
              {t('customer.revoke')}
            </button>
          )}
          {roleMay(role, 'customers.block') && (
            <button
              type="button"
              className="button secondary"
              onClick={() => setAction(customer.blocked_at ? 'unblock' : 'block')}
            >
              {customer.blocked_at ? t('customer.unblock') : t('customer.block')}
            </button>
          )}
          {roleMay(role, 'customers.balance_adjust') && (
            <button type="button" className="button primary" onClick={() => setAction('balance')}>
              {t('customer.adjust')}
            </button>
          )}
        </div>
      </div>
      <dl className="facts">
        <div>
          <dt>{t('customers.name')}</dt>
          <dd className="ellipsis">{customer.name}</dd>
        </div>
        <div>
          <dt>{t('customers.balance')}</dt>
          <dd>{money(customer.balance_minor)}</dd>
        </div>
        <div>
          <dt>{t('customer.owed')}</dt>
          <dd>{money(customer.owed_minor)}</dd>
        </div>
        <div>
          <dt>{t('customers.state')}</dt>
          <dd>{customer.blocked_at ? t('customers.blocked') : t('customers.active')}</dd>
        </div>
        <div>
          <dt>{t('customer.sessions')}</dt>
          <dd>{active_sessions}</dd>
        </div>
        <div>
          <dt>{t('customers.since')}</dt>
          <dd>{formatDateTime(customer.created_at, language)}</dd>
        </div>
      </dl>
      <h2>{t('orders.title')}</h2>
      {orders.length === 0 ? (
        <p className="empty">{t('orders.empty')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t('orders.number')}</th>
              <th>{t('orders.status')}</th>
              <th className="number">{t('orders.total')}</th>
              <th>{t('orders.created')}</th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.id}>
                <td>
                  <Link to={`/orders/${order.id}`}>{order.number}</Link>
                </td>
                <td>{t(`orderStatus.${order.status}`)}</td>
                <td className="number">{money(order.total_minor, order.currency)}</td>
                <td>{formatDateTime(order.created_at, language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t('customer.ledger')}</h2>
      {ledger.length === 0 ? (
        <p className="empty">{t('customer.noLedger')}</p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th>{t('audit.when')}</th>
              <th>{t('customer.kind')}</th>
              <th>{t('customer.account')}</th>
              <th className="number">{t('order.amount')}</th>
            </tr>
          </thead>
          <tbody>
            {ledger.map((entry) => (
              <tr key={entry.id}>
                <td>{formatDateTime(entry.at, language)}</td>
                <td>{entry.kind}</td>
                <td>{entry.account}</td>
                <td className="number">{money(entry.amount_minor)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Modal
        open={action !== null}
        onOpenChange={(open) => !open && setAction(null)}
        title={action ? t(`customer.dialog.${action}`) : ''}
      >
        {action && <ActionForm customerId={customer.id} action={action} onDone={() => setAction(null)} />}
      </Modal>
    </section>
  );
}

/** The reason every action asks for; the balance adds an amount and a fresh TOTP code. */
function ActionForm({ customerId, action, onDone }: { customerId: string; action: Action; onDone: () => void }) {
  const { t } = useI18n();
  const queryClient = useQueryClient();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState('');
  const [sign, setSign] = useState<1 | -1>(1);
  const [totp, setTotp] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: async () => {
      const path = `/customers/${segment(customerId)}`;
      if (action !== 'balance') {
        await adminSend('POST', `${path}/${action}`, { reason }, CustomerActionResponseSchema);
        return;
      }
      const minor = parseMoney(amount, STORE_CURRENCY);
      if (minor === null || minor === 0) throw new Error('amount');
      await adminSend(
        'POST',
        `${path}/balance`,
        { amount_minor: sign * minor, reason, totp, idempotency_key: idempotencyKey },
        BalanceAdjustResponseSchema,
      );
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['customer', customerId] });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (action === 'balance') {
      const minor = parseMoney(amount, STORE_CURRENCY);
      if (minor === null || minor === 0) {
        setAmountError(t('errors.validation.notANumber'));
        return;
      }
    }
    setAmountError(null);
    mutation.mutate();
  };
  const error = mutation.error;
  return (
    <form className="stack" onSubmit={submit} noValidate>
      {action === 'balance' && (
        <>
          <fieldset className="segmented">
            <legend>{t('customer.direction')}</legend>
            <label>
              <input type="radio" name="sign" checked={sign === 1} onChange={() => setSign(1)} />
              {t('customer.credit')}
            </label>
            <label>
              <input type="radio" name="sign" checked={sign === -1} onChange={() => setSign(-1)} />
              {t('customer.debit')}
            </label>
          </fieldset>
          <label className="field">
            <span>{t('refund.amount', { currency: STORE_CURRENCY })}</span>
            <input inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
            {(amountError ?? fieldError(t, error, 'amount_minor')) && (
              <small className="field-error">{amountError ?? fieldError(t, error, 'amount_minor')}</small>
            )}
          </label>
        </>
      )}
      <label className="field">
        <span>{t('common.reason')}</span>
        <textarea rows={3} value={reason} onChange={(event) => setReason(event.target.value)} />
        {fieldError(t, error, 'reason') && <small className="field-error">{fieldError(t, error, 'reason')}</small>}
      </label>
      {action === 'balance' && (
        <label className="field">
          <span>{t('customer.freshTotp')}</span>
          <input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            value={totp}
            onChange={(event) => setTotp(event.target.value.trim())}
          />
          {fieldError(t, error, 'totp') && <small className="field-error">{fieldError(t, error, 'totp')}</small>}
        </label>
      )}
      {error && Object.keys((error as { fieldErrors?: object }).fieldErrors ?? {}).length === 0 && (
        <p className="error" role="alert">
          {errorText(t, error)}
        </p>
      )}
      <div className="actions">
        <button
          type="submit"
          className="button danger"
          disabled={reason.trim().length < ADMIN_REASON_MIN || mutation.isPending}
        >
          {t('common.confirm')}
        </button>
      </div>
    </form>
  );
}
