import type { RefundDestinationName } from '@store/contract';
import { parseMoney } from './format.ts';

export interface RefundDraft {
  to: RefundDestinationName;
  whole: boolean;
  /** The typed amount of a partial refund, in the currency's units ("12,50"). */
  amount: string;
  reason: string;
}

export type RefundPlan =
  | { ok: true; to: RefundDestinationName; amountMinor: number; whole: boolean; reason: string }
  | { ok: false; field: 'amount' | 'reason' | 'to'; key: string };

/**
 * What a refund form asks for, checked before it is sent: the most the destination can take now
 * (the order's `refundable`), a partial amount above zero and not above it, a reason of the
 * audit log's length. The API checks all of it again; this keeps the confirm step honest.
 */
export function planRefund(
  draft: RefundDraft,
  refundable: { card_minor: number; balance_minor: number },
  currency: string,
  reasonMin: number,
): RefundPlan {
  const most = draft.to === 'card' ? refundable.card_minor : refundable.balance_minor;
  if (most <= 0) return { ok: false, field: 'to', key: 'admin.notRefundable' };
  const reason = draft.reason.trim();
  let amountMinor = most;
  if (!draft.whole) {
    const parsed = parseMoney(draft.amount, currency);
    if (parsed === null) return { ok: false, field: 'amount', key: 'validation.notANumber' };
    if (parsed <= 0) return { ok: false, field: 'amount', key: 'validation.tooSmall' };
    if (parsed > most) return { ok: false, field: 'amount', key: 'admin.amountTooLarge' };
    amountMinor = parsed;
  }
  if (reason.length === 0) return { ok: false, field: 'reason', key: 'validation.requiredField' };
  if (reason.length < reasonMin) return { ok: false, field: 'reason', key: 'validation.tooShort' };
  return { ok: true, to: draft.to, amountMinor, whole: draft.whole || amountMinor === most, reason };
}
