import { PAYMENT_FAILURE_REASONS } from '@store/contract';

/**
 * The text that says why a payment failed and that nothing was charged, by the reason the provider
 * gave (the card form's answer, the widget's failure, the status of a failed order). A reason the
 * store has no sentence for, or none, is still a failure that charged nothing.
 */
export function failureText(reason: string | null | undefined): string {
  const known = (PAYMENT_FAILURE_REASONS as readonly (string | null | undefined)[]).includes(reason);
  return `payment.reason.${known ? reason : 'other'}`;
}
