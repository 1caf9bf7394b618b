import { useSyncExternalStore } from 'react';
import { PAYMENT_DIALOG_EVENT } from './payment-host-signal.ts';

/** Whose money a payment moves: the basket's price (a purchase) or a top-up of the balance. */
export type PaymentMode = 'purchase' | 'balance';

/** The payment dialogs, one at a time. */
export type PaymentDialog =
  /**
   * `amount`: a top-up's amount to start from (the shortfall the insufficient-funds dialog named).
   * `returnTo`: where the top-up's success takes the shopper (the checkout, the profile); without it,
   * where the last top-up started noted.
   */
  | { kind: 'methods'; mode: PaymentMode; amount?: number | undefined; returnTo?: string | undefined }
  /**
   * `shortMinor`: what the balance lacks for the basket. `owedMinor`, when set: the account owes the
   * store (a top-up given back after it was spent), which the server refuses any spend for until a
   * top-up has paid it; 0 when the amount could not be read.
   */
  | { kind: 'insufficient'; shortMinor: number; owedMinor?: number | undefined }
  /**
   * The store's own card form; a top-up's amount comes from the method choice, and `consented` says
   * both consents were given there, so the form starts with them ticked.
   */
  | { kind: 'card'; mode: PaymentMode; amount?: number | undefined; consented?: boolean | undefined }
  /**
   * Instant bank transfer: the QR code, its pay link and the wait for the bank; Pix (with the payer's
   * CPF, in BRL) unless `scheme` says SBP (in roubles).
   */
  | { kind: 'qr'; mode: PaymentMode; amount?: number | undefined; scheme?: 'pix' | 'sbp' | undefined }
  /** UPI: the payer's details, then the provider's page. */
  | { kind: 'upi'; mode: PaymentMode; amount?: number | undefined }
  /** With an order id, its status is polled (the return from a payment page); a top-up's ends in its own success. */
  | { kind: 'processing'; orderId?: string; topUp?: boolean }
  /**
   * A payment call answered 409 payment.underWay: the order is paid or its payment is being decided.
   * Its status is followed as in `processing`; without an order id (a card top-up names only its value)
   * there is nothing to follow.
   */
  | { kind: 'underWay'; orderId?: string | undefined; topUp?: boolean }
  | { kind: 'success'; orderId?: string }
  /** `resume`: the shopper is back at the checkout, to pay for the order from the balance. */
  | { kind: 'topupSuccess'; resume?: boolean | undefined }
  /**
   * Try again reopens the choice of method for the same kind of payment. `reason`: a payment failed,
   * and why (the provider's reason, or one the store has no sentence for); without it, something else
   * went wrong.
   */
  | { kind: 'error'; mode?: PaymentMode; reason?: string | undefined }
  /**
   * The shopper gave up before paying (the widget closed, UPI cancelled): nothing was charged, which
   * is no error. `reason` is the provider's, when it named one.
   */
  | { kind: 'cancelled'; mode: PaymentMode; reason?: string | undefined };

let dialog: PaymentDialog | null = null;
const listeners = new Set<() => void>();

export const getPaymentDialog = () => dialog;

export function openPaymentDialog(next: PaymentDialog) {
  dialog = next;
  for (const listener of listeners) listener();
  // The host in the layout loads the dialogs' chunk on it, the first time.
  window.dispatchEvent(new Event(PAYMENT_DIALOG_EVENT));
}

export function closePaymentDialog() {
  dialog = null;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export const usePaymentDialog = () => useSyncExternalStore(subscribe, getPaymentDialog, getPaymentDialog);
