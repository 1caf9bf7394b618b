import {
  ADMIN_REASON_MIN,
  type AdminOrderDetail,
  AdminRefundResponseSchema,
  REFUND_DESTINATIONS,
  type RefundDestinationName,
} from '@store/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Modal } from '../components/dialog.tsx';
import { adminSend, segment } from '../lib/api.ts';
import { errorText, fieldError, keyText } from '../lib/errors.ts';
import { formatMoney } from '../lib/format.ts';
import { useI18n } from '../lib/i18n.tsx';
import { planRefund, type RefundPlan } from '../lib/refund.ts';

type Order = AdminOrderDetail['order'];

/**
 * Refund to the card or the balance, the whole of what is left or a part, with a reason; a second
 * step shows what will happen before it is sent. One idempotency key per opening of the dialog: a
 * double click or a retry after a lost answer is the same refund, never a second one.
 */
export function RefundDialog({
  order,
  open,
  onOpenChange,
}: {
  order: Order;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useI18n();
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={t('refund.title', { number: order.number })}>
      {open && <RefundForm order={order} onDone={() => onOpenChange(false)} />}
    </Modal>
  );
}

function RefundForm({ order, onDone }: { order: Order; onDone: () => void }) {
  const { t, language } = useI18n();
  const queryClient = useQueryClient();
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [to, setTo] = useState<RefundDestinationName>(order.refundable.card_minor > 0 ? 'card' : 'balance');
  const [whole, setWhole] = useState(true);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [plan, setPlan] = useState<RefundPlan | null>(null);
  const money = (minor: number) => formatMoney(minor, order.currency, language);

  const mutation = useMutation({
    mutationFn: (confirmed: Extract<RefundPlan, { ok: true }>) =>
      adminSend(
        'POST',
        `/orders/${segment(order.id)}/refund`,
        {
          to: confirmed.to,
          ...(confirmed.whole ? {} : { amount_minor: confirmed.amountMinor }),
          reason: confirmed.reason,
          idempotency_key: idempotencyKey,
        },
        AdminRefundResponseSchema,
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['order', order.id] });
      await queryClient.invalidateQueries({ queryKey: ['orders'] });
      onDone();
    },
  });

  const review = (event: FormEvent) => {
    event.preventDefault();
    setPlan(planRefund({ to, whole, amount, reason }, order.refundable, order.currency, ADMIN_REASON_MIN));
  };

  if (plan?.ok) {
    return (
      <div className="stack">
        <p data-testid="refund-summary">
          {t(`refund.confirmText.${plan.to}`, { amount: money(plan.amountMinor), number: order.number })}
        </p>
        <p className="muted">{t('refund.reasonShown', { reason: plan.reason })}</p>
        {mutation.error && (
          <p className="error" role="alert">
            {errorText(t, mutation.error)}
          </p>
        )}
        <div className="actions">
          <button
            type="button"
            className="button secondary"
            onClick={() => setPlan(null)}
            disabled={mutation.isPending}
          >
            {t('common.back')}
          </button>
          <button
            type="button"
            className="button danger"
            onClick={() => mutation.mutate(plan)}
            disabled={mutation.isPending}
          >
            {t('refund.confirm')}
          </button>
        </div>
      </div>
    );
  }

  const problem = plan && !plan.ok ? plan : null;
  const amountError =
    problem?.field === 'amount' ? keyText(t, problem.key) : fieldError(t, mutation.error, 'amount_minor');
  const reasonError = problem?.field === 'reason' ? keyText(t, problem.key) : undefined;
  return (
    <form className="stack" onSubmit={review} noValidate>
      <fieldset className="segmented">
        <legend>{t('refund.to')}</legend>
        {REFUND_DESTINATIONS.map((destination) => {
          const most = destination === 'card' ? order.refundable.card_minor : order.refundable.balance_minor;
          return (
            <label key={destination}>
              <input
                type="radio"
                name="to"
                value={destination}
                checked={to === destination}
                disabled={most <= 0}
                onChange={() => setTo(destination)}
              />
              {t(`refund.destination.${destination}`, { amount: money(most) })}
            </label>
          );
        })}
      </fieldset>
      {problem?.field === 'to' && <p className="field-error">{keyText(t, problem.key)}</p>}
      <fieldset className="segmented">
        <legend>{t('refund.howMuch')}</legend>
        <label>
          <input type="radio" name="whole" checked={whole} onChange={() => setWhole(true)} />
          {t('refund.whole')}
        </label>
        <label>
          <input type="radio" name="whole" checked={!whole} onChange={() => setWhole(false)} />
          {t('refund.partial')}
        </label>
      </fieldset>
      {!whole && (
        <label className="field">
          <span>{t('refund.amount', { currency: order.currency })}</span>
          <input inputMode="decimal" value={amount} onChange={(event) => setAmount(event.target.value)} />
          {amountError && <small className="field-error">{amountError}</small>}
        </label>
      )}
      <label className="field">
        <span>{t('common.reason')}</span>
        <textarea value={reason} onChange={(event) => setReason(event.target.value)} rows={3} />
        {reasonError && <small className="field-error">{reasonError}</small>}
      </label>
      <div className="actions">
        <button type="submit" className="button primary">
          {t('refund.review')}
        </button>
      </div>
    </form>
  );
}
