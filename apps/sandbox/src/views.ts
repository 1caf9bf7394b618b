import { html, type SafeHtml, scriptJson } from './html.ts';
import { minorToDecimalString } from './money.ts';
import type { SandboxPayment } from './payments.ts';

// Every page the sandbox shows a browser. All text is interpolated through `html`, which escapes it.

export function formatAmount(amountMinor: number, currency: string): string {
  return `${minorToDecimalString(amountMinor)} ${currency}`;
}

export interface CardFormValues {
  card_number?: string;
  expiry?: string;
  cvc?: string;
}

const FIELD_TEXT: Record<string, string> = {
  card_number: 'Enter a valid card number.',
  expiry: 'Enter the expiry as MM/YY.',
  cvc: 'Enter the 3 or 4 digit security code.',
};

function fieldError(errors: Record<string, string[]>, field: string, id: string) {
  return errors[field] ? html`<p class="error" id="${id}">${FIELD_TEXT[field] ?? 'Check this field.'}</p>` : '';
}

export interface CardFormOptions {
  action: string;
  title: string;
  amountMinor: number;
  currency: string;
  description: string;
  values?: CardFormValues;
  errors?: Record<string, string[]>;
}

/** For the card form shown again after a refused submit: what was typed (never the CVC) and what is wrong. */
export function refusedCardForm(
  body: unknown,
  errors: Record<string, string[]>,
): Pick<CardFormOptions, 'values' | 'errors'> {
  const typed = (body ?? {}) as Record<string, string>;
  return { values: { card_number: typed.card_number, expiry: typed.expiry }, errors };
}

/** The provider's own card form, on the hosted page and in the widget's frame. */
export function cardForm(options: CardFormOptions): SafeHtml {
  const errors = options.errors ?? {};
  const values = options.values ?? {};
  // The first refused field takes the focus as the page loads again, so the keyboard starts there.
  const firstRefused = ['card_number', 'expiry', 'cvc'].find((field) => errors[field]);
  const invalid = (field: string) =>
    errors[field]
      ? html` aria-invalid="true" aria-describedby="${field}-error"${field === firstRefused ? html` autofocus` : ''}`
      : '';
  return html`<h1>${options.title}</h1>
<p>${options.description}</p>
<p class="amount">${formatAmount(options.amountMinor, options.currency)}</p>
<form method="post" action="${options.action}" novalidate>
<label for="card_number">Card number</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23"
  placeholder="4242 4242 4242 4242" value="${values.card_number ?? ''}" required${invalid('card_number')}>
${fieldError(errors, 'card_number', 'card_number-error')}
<div class="row">
<div>
<label for="expiry">Expiry (MM/YY)</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" maxlength="5" placeholder="12/34"
  value="${values.expiry ?? ''}" required${invalid('expiry')}>
${fieldError(errors, 'expiry', 'expiry-error')}
</div>
<div>
<label for="cvc">CVC</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" placeholder="123" type="password"
  required${invalid('cvc')}>
${fieldError(errors, 'cvc', 'cvc-error')}
</div>
</div>
<div class="actions"><button type="submit">Pay ${formatAmount(options.amountMinor, options.currency)}</button></div>
</form>
<p class="muted">Test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined,
4000 0000 0000 3220 asks for 3-D Secure. Any future expiry, any CVC.</p>`;
}

/** The issuer's 3-D Secure challenge, where the tester passes or fails it. */
export function challengePage(payment: SandboxPayment, hidden: Record<string, string>, action: string): SafeHtml {
  const fields = Object.entries(hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return html`<h1>3-D Secure check</h1>
<p>Your bank asks you to confirm this payment.</p>
<p class="amount">${formatAmount(payment.amountMinor, payment.currency)}</p>
<p class="muted">Card ending ${payment.card?.last4 ?? ''}. In the sandbox you choose the answer.</p>
<form method="post" action="${action}">
${fields}
<div class="actions">
<button type="submit" name="outcome" value="pass">Pass the challenge</button>
<button type="submit" name="outcome" value="fail" class="danger">Fail the challenge</button>
</div>
</form>`;
}

/** After the challenge, the ACS posts PaRes and MD to the merchant's TermUrl; the script submits it. */
export function autoPostPage(action: string, fields: Record<string, string>): { body: SafeHtml; script: SafeHtml } {
  const inputs = Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return {
    body: html`<h1>Returning to the merchant</h1>
<form method="post" action="${action}" id="auto-post">
${inputs}
<div class="actions"><button type="submit">Continue</button></div>
</form>`,
    script: html`document.getElementById('auto-post').submit();`,
  };
}

export interface WidgetMessage {
  source: 'sandbox-widget';
  session: string;
  type: 'success' | 'fail' | 'close';
  paymentId?: string;
  orderId?: string;
  reason?: string;
}

/** Tells the page that opened the widget, and only that page's origin, what happened. */
export function postToOpener(message: WidgetMessage, origin: string): SafeHtml {
  return html`window.parent.postMessage(${scriptJson(message)}, ${scriptJson(origin)});`;
}

/**
 * The keyboard in a page of the widget's frame: Escape closes the widget as the close button does,
 * and the widget's dialog asks the page for the focus as the frame loads (the first field, or the
 * first one refused) and as Shift+Tab wraps round the dialog into the frame from its start (the last
 * control). The widget's script says which, from the page that opened it.
 */
export function widgetFrameKeys(session: string, origin: string): SafeHtml {
  return html`document.addEventListener('keydown', function (event) {
  if (event.key === 'Escape') ${postToOpener({ source: 'sandbox-widget', session, type: 'close' }, origin)}
});
window.addEventListener('message', function (event) {
  var data = event.data;
  if (event.source !== window.parent || event.origin !== ${scriptJson(origin)}) return;
  if (!data || data.source !== 'sandbox-widget-host' || data.type !== 'focus') return;
  var controls = Array.prototype.filter.call(
    document.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"])'),
    function (element) { return element.getClientRects().length > 0; }
  );
  var target = data.where === 'last'
    ? controls[controls.length - 1]
    : document.querySelector('[aria-invalid="true"]') || controls[0] || document.querySelector('[role="alert"], h1');
  if (!target) return;
  if (!target.matches('a[href], button, input')) target.setAttribute('tabindex', '-1');
  target.focus();
});`;
}

const REASON_TEXT: Record<string, string> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card was declined: insufficient funds.',
  expired_card: 'The card has expired.',
  '3ds_failed': 'The 3-D Secure check failed.',
  refused_by_payer: 'The payment was refused.',
  cancelled_by_payer: 'The payment was cancelled.',
  expired: 'The payment expired.',
};

export function reasonText(reason: string | null): string {
  return (reason && REASON_TEXT[reason]) ?? 'The payment failed.';
}

export function widgetResult(payment: SandboxPayment, retryUrl: string): SafeHtml {
  if (payment.status === 'succeeded') {
    return html`<h1>Payment successful</h1>
<p class="amount">${formatAmount(payment.amountMinor, payment.currency)}</p>
<p>You can close this window.</p>`;
  }
  return html`<h1>Payment failed</h1>
<p role="alert">${reasonText(payment.failureReason)}</p>
<div class="actions"><a class="button" href="${retryUrl}">Try again</a></div>`;
}

export function qrPage(payment: SandboxPayment, action: string): SafeHtml {
  const qr = payment.qr;
  if (!qr) return html``;
  const open = payment.status === 'init';
  return html`<h1>${qr.scheme === 'pix' ? 'Pay with PIX' : 'Pay by instant bank transfer'}</h1>
<p>${payment.description}</p>
<p class="amount">${formatAmount(payment.amountMinor, payment.currency)}</p>
<img class="qr" alt="QR code of the payment" src="data:image/png;base64,${qr.image}">
${qr.scheme === 'pix' ? html`<p class="muted">PIX copy and paste code:</p><p><code>${qr.payload}</code></p>` : ''}
${
  open
    ? html`<p class="muted">This page stands in for your bank's app.</p>
<form method="post" action="${action}">
<div class="actions">
<button type="submit" name="decision" value="confirm">Confirm the payment</button>
<button type="submit" name="decision" value="refuse" class="danger">Refuse</button>
</div>
</form>`
    : statusLine(payment)
}`;
}

export function statusLine(payment: SandboxPayment): SafeHtml {
  if (payment.status === 'succeeded' || payment.status === 'refunded')
    return html`<p role="status">Paid. Thank you.</p>`;
  if (payment.status === 'failed') return html`<p role="alert">${reasonText(payment.failureReason)}</p>`;
  return html`<p role="status">Waiting for the payment.</p>`;
}

export function qrDone(payment: SandboxPayment, returnUrl: string | null): SafeHtml {
  return html`<h1>${payment.status === 'succeeded' ? 'Payment confirmed' : 'Payment refused'}</h1>
<p class="amount">${formatAmount(payment.amountMinor, payment.currency)}</p>
${statusLine(payment)}
${returnUrl ? html`<div class="actions"><a class="button" href="${returnUrl}">Back to the store</a></div>` : ''}`;
}

export function upiPage(payment: SandboxPayment, action: string): SafeHtml {
  const upi = payment.upi;
  if (!upi) return html``;
  return html`<h1>Pay with UPI</h1>
<p>${payment.description}</p>
<p class="amount">${formatAmount(payment.amountMinor, payment.currency)}</p>
<p><a class="button" href="${upi.intent}">Open a UPI app</a></p>
<img class="qr" alt="QR code of the UPI payment" src="data:image/png;base64,${upi.image}">
<p class="muted">Or scan the code with a UPI app. This page stands in for the app's answer:</p>
<form method="post" action="${action}">
<div class="actions">
<button type="submit" name="decision" value="pay">Pay</button>
<button type="submit" name="decision" value="decline" class="danger">Decline</button>
<button type="submit" name="decision" value="cancel" class="secondary">Cancel</button>
</div>
</form>`;
}

export function errorPage(title: string, message: string, details?: Record<string, string[]>): SafeHtml {
  const list = details ? Object.entries(details) : [];
  return html`<h1>${title}</h1>
<p role="alert">${message}</p>
${list.length ? html`<ul>${list.map(([field, codes]) => html`<li><code>${field}</code>: ${codes.join(', ')}</li>`)}</ul>` : ''}`;
}
