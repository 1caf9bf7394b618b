import type { WidgetRequest } from '@store/contract';
import { startPayment } from './api/pay.ts';
import { closePaymentDialog, openPaymentDialog } from './payment-ui-store.ts';
import {
  attemptToken,
  goToHostedPage,
  loadScript,
  openOrder,
  type PayTarget,
  showIfUnderWay,
} from './start-payment.ts';

/** The provider widget's callbacks (its script documents them). */
interface WidgetEvent {
  code: string;
  reason?: string;
}
interface WidgetApi {
  pay(
    request: WidgetRequest,
    callbacks: {
      onSuccess: (event: WidgetEvent) => void;
      onError: (event: WidgetEvent) => void;
      onClose: (event: WidgetEvent) => void;
    },
  ): unknown;
}

declare global {
  interface Window {
    SandboxPay?: WidgetApi;
  }
}

/**
 * The wait for the provider's word on an order, then its success (docs/payments.md, "How the browser
 * goes on").
 */
const awaitOrder = (orderId: string, target: PayTarget) =>
  openPaymentDialog({ kind: 'processing', orderId, topUp: target.mode === 'balance' });

const failed = (target: PayTarget, reason?: string) =>
  openPaymentDialog({ kind: 'error', mode: target.mode, ...(reason ? { reason } : {}) });

/** A refusal because the order is paid or being paid already follows it; anything else is the error path. */
const refused = (error: unknown, orderId: string | undefined, target: PayTarget) => {
  if (!showIfUnderWay(error, orderId, target.mode)) failed(target);
};

/**
 * A card payment through the provider's widget, the default card path (docs/payments.md, "How the
 * browser goes on"): the order is created, the widget opened with the request POST /payment answers. On
 * success the order's status is awaited (the user refreshed, the basket reloaded, the success modal); a
 * close after a failure (PAY_WIDGET:CLOSE_AFTER_FAIL) is the error path, saying why the last attempt was
 * declined; a close before paying says that nothing was charged. A declined attempt alone changes
 * nothing: the customer may try another card in the widget. An order
 * paid or being paid already (409 payment.underWay) is followed rather than paid again.
 */
export async function payWithWidget(target: PayTarget): Promise<void> {
  openPaymentDialog({ kind: 'processing' });
  let orderId: string | undefined;
  try {
    const order = await openOrder(target);
    orderId = order.order_id;
    if (order.status === 'fulfilled') return awaitOrder(order.order_id, target);
    const answer = await startPayment({ type: target.mode, orderId: order.order_id, token: attemptToken() });
    if (answer.status !== 'widget') throw new Error(`Unexpected answer ${answer.status}`);
    await loadScript(answer.widget.script_url);
    const widget = window.SandboxPay;
    if (!widget) throw new Error('The payment widget did not start');
    // The widget is its own dialog over the page: ours would hold the focus away from it.
    closePaymentDialog();
    // Why the last attempt in the widget was declined: said once the widget is closed.
    let declined = 'other';
    widget.pay(answer.widget.request, {
      onSuccess: () => awaitOrder(order.order_id, target),
      onError: (event) => {
        if (event.code !== 'PAY_WIDGET:TRANSACTION_FAIL') failed(target);
        else if (event.reason) declined = event.reason;
      },
      onClose: (event) => {
        if (event.code === 'PAY_WIDGET:CLOSE_AFTER_FAIL') failed(target, declined);
        else openPaymentDialog({ kind: 'cancelled', mode: target.mode });
      },
    });
  } catch (error) {
    refused(error, orderId, target);
  }
}

/**
 * Paying through the provider's hosted page (docs/payments.md, "How the browser goes on"): the order is
 * created and the browser posts the store's signed `Request` to the page, which sends it back to Index
 * with paymentConfirmOrder.
 */
export async function payOnHostedPage(target: PayTarget): Promise<void> {
  openPaymentDialog({ kind: 'processing' });
  let orderId: string | undefined;
  try {
    const order = await openOrder(target);
    orderId = order.order_id;
    if (order.status === 'fulfilled') return awaitOrder(order.order_id, target);
    await goToHostedPage(order.order_id);
  } catch (error) {
    refused(error, orderId, target);
  }
}
