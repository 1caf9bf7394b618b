import { useSyncExternalStore } from 'react';
import { PAYMENT_DIALOG_EVENT } from './payment-host-signal.ts';

/** Whose money a payment moves: the basket's price (SPEC.md's purchase) or a top-up of the balance. */
export type PaymentMode = 'purchase' | 'balance';

/** The payment dialogs of SPEC.md section 2, one at a time. */
export type PaymentDialog =
  | { kind: 'methods'; mode: PaymentMode }
  | { kind: 'insufficient'; shortMinor: number }
  | { kind: 'card'; mode: PaymentMode }
  /** With an order id, its status is polled (the return from a payment page); a top-up's ends in its own success. */
  | { kind: 'processing'; orderId?: string; topUp?: boolean }
  | { kind: 'success'; orderId?: string }
  | { kind: 'topupSuccess' }
  | { kind: 'error' };

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
