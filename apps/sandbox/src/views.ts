import { html, type SafeHtml, scriptJson } from './html.ts';
import { fill, type Locale, type MessageKey } from './i18n.ts';
import type { SandboxPayment } from './payments.ts';

// Every page the sandbox shows a browser, in the page's language (i18n.ts). All text is
// interpolated through `html`, which escapes it.

export interface CardFormValues {
  card_number?: string;
  expiry?: string;
  cvc?: string;
}

const FIELD_TEXT: Record<string, MessageKey> = {
  card_number: 'errorCardNumber',
  expiry: 'errorExpiry',
  cvc: 'errorCvc',
};

function fieldError(locale: Locale, errors: Record<string, string[]>, field: string, id: string) {
  return errors[field] ? html`<p class="error" id="${id}">${locale.t[FIELD_TEXT[field] ?? 'errorField']}</p>` : '';
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
export function cardForm(locale: Locale, options: CardFormOptions): SafeHtml {
  const { t } = locale;
  const amount = locale.amount(options.amountMinor, options.currency);
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
<p class="amount">${amount}</p>
<form method="post" action="${options.action}" novalidate>
<label for="card_number">${t.cardNumber}</label>
<input id="card_number" name="card_number" inputmode="numeric" autocomplete="cc-number" maxlength="23"
  placeholder="4242 4242 4242 4242" value="${values.card_number ?? ''}" required${invalid('card_number')}>
${fieldError(locale, errors, 'card_number', 'card_number-error')}
<div class="row">
<div>
<label for="expiry">${t.expiry}</label>
<input id="expiry" name="expiry" inputmode="numeric" autocomplete="cc-exp" maxlength="5" placeholder="12/34"
  value="${values.expiry ?? ''}" required${invalid('expiry')}>
${fieldError(locale, errors, 'expiry', 'expiry-error')}
</div>
<div>
<label for="cvc">${t.cvc}</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" placeholder="123" type="password"
  required${invalid('cvc')}>
${fieldError(locale, errors, 'cvc', 'cvc-error')}
</div>
</div>
<div class="actions"><button type="submit">${fill(t.pay, { amount })}</button></div>
</form>
<p class="muted">${t.testCards}</p>`;
}

/** The issuer's 3-D Secure challenge, where the tester passes or fails it. */
export function challengePage(
  locale: Locale,
  payment: SandboxPayment,
  hidden: Record<string, string>,
  action: string,
): SafeHtml {
  const { t } = locale;
  const fields = Object.entries(hidden).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return html`<h1>${t.threeDsHeading}</h1>
<p>${t.threeDsText}</p>
<p class="amount">${locale.amount(payment.amountMinor, payment.currency)}</p>
<p class="muted">${fill(t.threeDsCard, { last4: payment.card?.last4 ?? '' })}</p>
<form method="post" action="${action}">
${fields}
<div class="actions">
<button type="submit" name="outcome" value="pass">${t.threeDsPass}</button>
<button type="submit" name="outcome" value="fail" class="danger">${t.threeDsFail}</button>
</div>
</form>`;
}

/** After the challenge, the ACS posts PaRes and MD to the merchant's TermUrl; the script submits it. */
export function autoPostPage(
  locale: Locale,
  action: string,
  fields: Record<string, string>,
): { body: SafeHtml; script: SafeHtml } {
  const inputs = Object.entries(fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  );
  return {
    body: html`<h1>${locale.t.returningHeading}</h1>
<form method="post" action="${action}" id="auto-post">
${inputs}
<div class="actions"><button type="submit">${locale.t.continue}</button></div>
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

const REASON_TEXT: Record<string, MessageKey> = {
  card_declined: 'reasonCardDeclined',
  insufficient_funds: 'reasonInsufficientFunds',
  expired_card: 'reasonExpiredCard',
  '3ds_failed': 'reason3dsFailed',
  refused_by_payer: 'reasonRefusedByPayer',
  cancelled_by_payer: 'reasonCancelledByPayer',
  expired: 'reasonExpired',
};

export function reasonText(locale: Locale, reason: string | null): string {
  return locale.t[(reason && REASON_TEXT[reason]) || 'reasonOther'];
}

export function widgetResult(locale: Locale, payment: SandboxPayment, retryUrl: string): SafeHtml {
  const { t } = locale;
  if (payment.status === 'succeeded') {
    return html`<h1>${t.paymentSuccessful}</h1>
<p class="amount">${locale.amount(payment.amountMinor, payment.currency)}</p>
<p>${t.closeWindow}</p>`;
  }
  return html`<h1>${t.paymentFailed}</h1>
<p role="alert">${reasonText(locale, payment.failureReason)}</p>
<div class="actions"><a class="button" href="${retryUrl}">${t.tryAgain}</a></div>`;
}

export function qrPage(locale: Locale, payment: SandboxPayment, action: string): SafeHtml {
  const { t } = locale;
  const qr = payment.qr;
  if (!qr) return html``;
  const open = payment.status === 'init';
  return html`<h1>${qr.scheme === 'pix' ? t.payWithPix : t.payByTransfer}</h1>
<p>${payment.description}</p>
<p class="amount">${locale.amount(payment.amountMinor, payment.currency)}</p>
<img class="qr" alt="${t.qrAlt}" src="data:image/png;base64,${qr.image}">
${qr.scheme === 'pix' ? html`<p class="muted">${t.pixCopyPaste}</p><p><code>${qr.payload}</code></p>` : ''}
${
  open
    ? html`<p class="muted">${t.bankStandIn}</p>
<form method="post" action="${action}">
<div class="actions">
<button type="submit" name="decision" value="confirm">${t.confirmPayment}</button>
<button type="submit" name="decision" value="refuse" class="danger">${t.refuse}</button>
</div>
</form>`
    : statusLine(locale, payment)
}`;
}

export function statusLine(locale: Locale, payment: SandboxPayment): SafeHtml {
  if (payment.status === 'succeeded' || payment.status === 'refunded')
    return html`<p role="status">${locale.t.statusPaid}</p>`;
  if (payment.status === 'failed') return html`<p role="alert">${reasonText(locale, payment.failureReason)}</p>`;
  return html`<p role="status">${locale.t.statusWaiting}</p>`;
}

export function qrDone(locale: Locale, payment: SandboxPayment, returnUrl: string | null): SafeHtml {
  const { t } = locale;
  return html`<h1>${payment.status === 'succeeded' ? t.paymentConfirmed : t.paymentRefused}</h1>
<p class="amount">${locale.amount(payment.amountMinor, payment.currency)}</p>
${statusLine(locale, payment)}
${returnUrl ? html`<div class="actions"><a class="button" href="${returnUrl}">${t.backToStore}</a></div>` : ''}`;
}

export function upiPage(locale: Locale, payment: SandboxPayment, action: string): SafeHtml {
  const { t } = locale;
  const upi = payment.upi;
  if (!upi) return html``;
  return html`<h1>${t.payWithUpi}</h1>
<p>${payment.description}</p>
<p class="amount">${locale.amount(payment.amountMinor, payment.currency)}</p>
<p><a class="button" href="${upi.intent}">${t.openUpiApp}</a></p>
<img class="qr" alt="${t.upiQrAlt}" src="data:image/png;base64,${upi.image}">
<p class="muted">${t.upiStandIn}</p>
<form method="post" action="${action}">
<div class="actions">
<button type="submit" name="decision" value="pay">${t.upiPay}</button>
<button type="submit" name="decision" value="decline" class="danger">${t.upiDecline}</button>
<button type="submit" name="decision" value="cancel" class="secondary">${t.upiCancel}</button>
</div>
</form>`;
}

export function errorPage(title: string, message: string, details?: Record<string, string[]>): SafeHtml {
  const list = details ? Object.entries(details) : [];
  return html`<h1>${title}</h1>
<p role="alert">${message}</p>
${list.length ? html`<ul>${list.map(([field, codes]) => html`<li><code>${field}</code>: ${codes.join(', ')}</li>`)}</ul>` : ''}`;
}
