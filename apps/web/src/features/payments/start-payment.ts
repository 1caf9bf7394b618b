import { type CreateOrderResponse, PAYMENT_UNDER_WAY, type PaymentResponse } from '@store/contract';
import { ApiError } from '../../lib/api-client.ts';
import { flushBasket } from '../basket/basket-sync.ts';
import { getPromo } from '../basket/promo-store.ts';
import { createOrder } from './api/create-order.ts';
import { initializeHostedPage } from './api/pay.ts';
import { openPaymentDialog, type PaymentMode } from './payment-ui-store.ts';

/** What a payment pays: the basket, or a top-up of `amount` whole units. */
export interface PayTarget {
  mode: PaymentMode;
  /** The top-up's amount in whole units (balance mode only). */
  amount?: number | undefined;
}

/**
 * The order a payment pays (POST /orders/create): a purchase of the server basket with the applied
 * promo code (what this device still has queued is sent first), or a top-up of `amount`.
 */
export async function openOrder(target: PayTarget): Promise<CreateOrderResponse> {
  if (target.mode === 'balance') {
    return createOrder({ type: 'balance', replenishmentValue: target.amount });
  }
  if (!(await flushBasket())) throw new Error('The basket could not be saved');
  return createOrder({ type: 'purchase', code: getPromo()?.code });
}

/**
 * The 409 every payment call answers while a payment of the order has succeeded or is being decided,
 * or once the order is paid (a double click, a second tab, a retry after the card was charged): a new
 * attempt would charge twice. Another 409 is an ordinary failure.
 */
export const isPaymentUnderWay = (error: unknown) =>
  error instanceof ApiError &&
  error.status === 409 &&
  typeof error.body === 'object' &&
  error.body !== null &&
  'code' in error.body &&
  error.body.code === PAYMENT_UNDER_WAY;

/**
 * Answers that 409 with "paid, processing" rather than an error: the dialog follows the order's
 * status, as after a payment page. Returns whether `error` was one.
 */
export function showIfUnderWay(error: unknown, orderId: string | undefined, mode: PaymentMode): boolean {
  if (!isPaymentUnderWay(error)) return false;
  openPaymentDialog({ kind: 'underWay', orderId, topUp: mode === 'balance' });
  return true;
}

/** The key of one payment attempt: the same key never charges twice. */
export const attemptToken = () => crypto.randomUUID();

/**
 * Sends the browser to `action` with `fields`, as a real form submission (a 3-D Secure issuer or a
 * hosted payment page takes a POST, which a script cannot make as a navigation otherwise).
 */
export function submitForm(action: string, fields: Record<string, string>, method: 'GET' | 'POST' = 'POST') {
  const form = document.createElement('form');
  form.method = method;
  form.action = action;
  form.hidden = true;
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}

/**
 * A GET navigation to `url` with `params` added to its query, as a form too: a GET form replaces the
 * action's query with its fields, so the address's own parameters go along as fields.
 */
export function goWithParams(url: string, params: Record<string, string>) {
  const target = new URL(url, window.location.href);
  const fields = { ...Object.fromEntries(target.searchParams), ...params };
  target.search = '';
  submitForm(target.toString(), fields, 'GET');
}

/**
 * The own card form's 3-D Secure steps (docs/payments.md, "How the browser goes on"): 3DS posts PaReq,
 * MD and TermUrl to the redirect URL; 3DS_REDIRECT goes to redirectUrl with redirectParams by
 * redirectMethod. Either way the browser comes back to Index with paymentConfirmOrder. Returns whether
 * the browser is being sent away.
 */
export function followCardChallenge(answer: PaymentResponse): boolean {
  if (answer.status === '3DS') {
    submitForm(answer.redirectUrl, { PaReq: answer.PaReq, MD: answer.MD, TermUrl: answer.TermUrl });
    return true;
  }
  if (answer.status === '3DS_REDIRECT') {
    if (answer.redirectMethod === 'POST') submitForm(answer.redirectUrl, answer.redirectParams);
    else goWithParams(answer.redirectUrl, answer.redirectParams);
    return true;
  }
  return false;
}

/**
 * The hosted page, its signed `Request` posted in the hidden field (docs/payments.md, "How the browser
 * goes on").
 */
export async function goToHostedPage(orderId: string) {
  const page = await initializeHostedPage({ orderId, token: attemptToken() });
  submitForm(page.action, page.fields, page.method);
}

/** The provider's widget script, loaded once per page from the address the server names. */
const scripts = new Map<string, Promise<void>>();

export function loadScript(src: string): Promise<void> {
  let loading = scripts.get(src);
  if (!loading) {
    loading = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.async = true;
      script.onload = () => resolve();
      script.onerror = () => {
        scripts.delete(src);
        script.remove();
        reject(new Error(`The payment widget could not be loaded from ${src}`));
      };
      document.head.append(script);
    });
    scripts.set(src, loading);
  }
  return loading;
}
