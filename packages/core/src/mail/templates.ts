import {
  type BalanceNoticeData,
  type BalanceTemplate,
  type EmailData,
  type EmailTemplate,
  isBalanceTemplate,
  isNoticeTemplate,
  LOCALES,
  type Locale,
  orderNumber,
  type ReceiptData,
} from '@store/contract';
import { EMAIL_TEXTS, STORE_NAME } from './email-texts.ts';

/** A message ready for a transport: the same content as HTML and as plain text. */
export interface RenderedEmail {
  locale: Locale;
  subject: string;
  html: string;
  text: string;
}

/** The language an email is written in: the customer's when we have it, by language alone next, else English. */
export function resolveLocale(locale: string | null | undefined): Locale {
  if (!locale) return 'en';
  const exact = LOCALES.find((known) => known.toLowerCase() === locale.toLowerCase());
  if (exact) return exact;
  const language = locale.toLowerCase().split(/[-_]/)[0];
  return LOCALES.find((known) => known.toLowerCase().split('-')[0] === language) ?? 'en';
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** Fills `{placeholder}`s; a placeholder without a value is a bug in the texts, so it throws. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (_match, key: string) => {
    const value = values[key];
    if (value === undefined) throw new Error(`email text placeholder {${key}} has no value`);
    return value;
  });
}

/** 4320 minutes read as "3 days", 60 as "1 hour", 90 as "90 minutes", in the message's language. */
export function formatDuration(minutes: number, locale: Locale): string {
  const units = EMAIL_TEXTS[locale].common.units;
  const [count, unit] =
    minutes % 1_440 === 0
      ? [minutes / 1_440, units.day]
      : minutes % 60 === 0
        ? [minutes / 60, units.hour]
        : [minutes, units.minute];
  const category = new Intl.PluralRules(locale).select(count);
  return `${count} ${unit[category] ?? unit.other}`;
}

/** Only web links go into a button: a `javascript:` or `data:` URL in stored data must never be clickable. */
function assertWebLink(link: string): void {
  const protocol = new URL(link).protocol;
  if (protocol !== 'https:' && protocol !== 'http:') throw new Error(`email link has protocol ${protocol}`);
}

/**
 * An amount of minor units as the customer's language writes money, with thousands separated by a
 * (no-break) space in every language as the web app does (docs/currency.md): "R$ 1 234,90", "R$1 234.90".
 */
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** Building a number format is far dearer than using one: one per language and currency, kept. */
function moneyFormat(currency: string, locale: Locale): Intl.NumberFormat {
  const key = `${locale}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency, useGrouping: 'always' });
    moneyFormats.set(key, format);
  }
  return format;
}

export function formatMoney(minor: number, currency: string, locale: Locale): string {
  const format = moneyFormat(currency, locale);
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  // Display only: the division never feeds arithmetic.
  return format
    .formatToParts(minor / 10 ** digits)
    .map((part) => (part.type === 'group' ? '\u00a0' : part.value))
    .join('');
}

/** The short order number a customer reads, the same everywhere: the contract's. */
export { orderNumber };

const PARAGRAPH = 'margin:0 0 16px;font-size:16px;line-height:24px;color:#1f2937;';
const SMALL = 'margin:0 0 12px;font-size:13px;line-height:20px;color:#6b7280;';

/** The one-column frame every message shares; `body` is HTML already escaped. */
function htmlFrame(lang: Locale, subject: string, body: string, footer: string): string {
  const e = escapeHtml;
  return `<!doctype html>
<html lang="${e(lang)}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f3f4f6;padding:24px 12px;">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;padding:32px;">
<tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:#4f46e5;">${e(STORE_NAME)}</p>
${body}
<p style="${SMALL}">${e(footer)}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

function buttonHtml(link: string, label: string): string {
  const e = escapeHtml;
  return `<p style="margin:24px 0;text-align:center;"><a href="${e(link)}" style="display:inline-block;padding:12px 24px;background:#4f46e5;color:#ffffff;text-decoration:none;border-radius:6px;font-size:16px;font-weight:bold;">${e(label)}</a></p>`;
}

type CommonTexts = (typeof EMAIL_TEXTS)[Locale]['common'];

/**
 * The greeting, by name when there is one, its name passed through `encode` (plain or HTML). The
 * name is filled in last and separately, so braces in a customer's name are never read as placeholders.
 */
function greeting(common: CommonTexts, name: string, encode: (value: string) => string = (value) => value): string {
  const trimmed = name.trim();
  return trimmed ? fill(common.greeting, { name: encode(trimmed) }) : common.greetingNoName;
}

/** Under the button: the link written out, for a client that shows no buttons. */
function linkHintHtml(common: CommonTexts, link: string): string {
  const e = escapeHtml;
  return `<p style="${SMALL}">${e(common.linkHint)}<br><a href="${e(link)}" style="color:#4f46e5;word-break:break-all;">${e(link)}</a></p>`;
}

/** The plain-text message's last lines: the signature separator, the sign-off and the footer. */
function signatureText(common: CommonTexts, signoff: string): string[] {
  return ['-- ', signoff, common.footer, ''];
}

/**
 * The receipt of a completed order: what each line delivered, the total, what a shortfall returned
 * to the balance, and a button to the order's page in the profile, which has its codes and its PDF
 * receipt. Codes are never part of it.
 */
function renderReceipt(lang: Locale, data: EmailData, receipt: ReceiptData): RenderedEmail {
  const { common, receipt: texts } = EMAIL_TEXTS[lang];
  const e = escapeHtml;
  const values = {
    store: STORE_NAME,
    order: orderNumber(receipt.orderId),
    total: formatMoney(receipt.totalMinor, receipt.currency, lang),
    refund: formatMoney(receipt.refundedMinor, receipt.currency, lang),
  };
  const subject = fill(texts.subject, values);
  const delivered = receipt.lines.reduce((sum, line) => sum + line.delivered, 0);
  const opening = [
    ...(delivered > 0 ? [fill(texts.intro, values)] : []),
    ...(receipt.refundedMinor > 0 ? [fill(delivered > 0 ? texts.partialRefund : texts.fullRefund, values)] : []),
  ];
  // Product names are filled in last, so braces in a name are never read as placeholders.
  const lineText = (line: ReceiptData['lines'][number]) => {
    const numbers = { quantity: String(line.quantity), delivered: String(line.delivered) };
    const template = line.delivered < line.quantity ? texts.lineShort : texts.line;
    return fill(template.replace('{name}', '\u0000'), numbers).replace('\u0000', line.name);
  };
  const lines = receipt.lines.map(lineText);
  const total = fill(texts.total, values);
  const signoff = fill(common.signoff, values);

  const text = [
    greeting(common, data.name),
    '',
    ...opening.flatMap((paragraph) => [paragraph, '']),
    texts.linesTitle,
    ...lines.map((line) => `- ${line}`),
    total,
    '',
    `${texts.button}:`,
    data.link,
    '',
    texts.receiptHint,
    '',
    texts.codesHint,
    '',
    ...signatureText(common, signoff),
  ].join('\n');

  const body = [
    `<p style="${PARAGRAPH}">${greeting(common, data.name, e)}</p>`,
    ...opening.map((paragraph) => `<p style="${PARAGRAPH}">${e(paragraph)}</p>`),
    `<p style="${PARAGRAPH}margin-bottom:4px;font-weight:bold;">${e(texts.linesTitle)}</p>`,
    `<ul style="${PARAGRAPH}padding-left:20px;">${lines.map((line) => `<li>${e(line)}</li>`).join('')}</ul>`,
    `<p style="${PARAGRAPH}font-weight:bold;">${e(total)}</p>`,
    buttonHtml(data.link, texts.button),
    linkHintHtml(common, data.link),
    `<p style="${PARAGRAPH}">${e(texts.receiptHint)}</p>`,
    `<p style="${PARAGRAPH}">${e(texts.codesHint)}</p>`,
    `<p style="${PARAGRAPH}">${e(signoff)}</p>`,
  ].join('\n');
  return { locale: lang, subject, html: htmlFrame(lang, subject, body, common.footer), text };
}

/**
 * A balance notice: what came onto the balance, from which order and why, the balance after it, and
 * a button to the profile; or, for a second payment of an order, that it is going back to its card.
 * Like the receipt it never holds a code.
 */
function renderBalanceNotice(
  template: BalanceTemplate,
  lang: Locale,
  data: EmailData,
  notice: BalanceNoticeData,
): RenderedEmail {
  if ((template === 'balance-topup') !== (notice.cause === 'topup')) {
    throw new Error(`a ${template} cannot tell of ${notice.cause}`);
  }
  const { common, balance: texts } = EMAIL_TEXTS[lang];
  const e = escapeHtml;
  const values = {
    store: STORE_NAME,
    order: orderNumber(notice.orderId),
    amount: formatMoney(notice.amountMinor, notice.currency, lang),
    balance: formatMoney(notice.balanceMinor, notice.currency, lang),
  };
  // A payment going back to its card brought nothing onto the balance, so the balance is not spoken of.
  const toCard = notice.cause === 'paid_twice' || notice.cause === 'late_returned';
  const byCause: Record<BalanceNoticeData['cause'], [subject: string, intro: string]> = {
    topup: [texts.topupSubject, texts.topupIntro],
    order_refunded: [texts.refundSubject, texts.orderRefundedIntro],
    paid_twice: [texts.paidTwiceSubject, texts.paidTwiceIntro],
    late_returned: [texts.lateReturnedSubject, texts.lateReturnedIntro],
  };
  const [subjectText, introText] = byCause[notice.cause];
  const subject = fill(subjectText, values);
  const intro = fill(introText, values);
  const balanceNow = toCard ? [] : [fill(texts.balanceNow, values)];
  const signoff = fill(common.signoff, values);

  const text = [
    greeting(common, data.name),
    '',
    intro,
    '',
    ...balanceNow.flatMap((line) => [line, '']),
    `${texts.button}:`,
    data.link,
    '',
    ...signatureText(common, signoff),
  ].join('\n');
  const body = [
    `<p style="${PARAGRAPH}">${greeting(common, data.name, e)}</p>`,
    `<p style="${PARAGRAPH}">${e(intro)}</p>`,
    ...balanceNow.map((line) => `<p style="${PARAGRAPH}font-weight:bold;">${e(line)}</p>`),
    buttonHtml(data.link, texts.button),
    linkHintHtml(common, data.link),
    `<p style="${PARAGRAPH}">${e(signoff)}</p>`,
  ].join('\n');
  return { locale: lang, subject, html: htmlFrame(lang, subject, body, common.footer), text };
}

/**
 * Renders one of EMAIL_TEMPLATES in the customer's language. The HTML is a single column with inline
 * styles (mail clients drop <style> blocks and external CSS); every value from outside is escaped.
 * A link with a token says how long it works and that ignoring it changes nothing; a notice (see
 * NOTICE_TEMPLATES) says instead what to do if the customer did not do what it tells of, and the
 * email-changed notice for how long its link undoes the change.
 */
export function renderEmail(template: EmailTemplate, locale: string, data: EmailData): RenderedEmail {
  assertWebLink(data.link);
  const lang = resolveLocale(locale);
  if (template === 'order-receipt') {
    if (!data.receipt) throw new Error('an order receipt needs its order');
    return renderReceipt(lang, data, data.receipt);
  }
  if (isBalanceTemplate(template)) {
    if (!data.balance) throw new Error(`a ${template} needs its balance movement`);
    return renderBalanceNotice(template, lang, data, data.balance);
  }
  const { common, templates } = EMAIL_TEXTS[lang];
  const texts = templates[template];
  if (!texts) throw new Error(`unknown email template ${template}`);

  const values = { store: STORE_NAME, duration: formatDuration(data.expiresInMinutes, lang) };
  const subject = fill(texts.subject, values);
  const intro = fill(texts.intro, values);
  const signoff = fill(common.signoff, values);
  const closing = isNoticeTemplate(template)
    ? [fill(templates[template].closing, values)]
    : [fill(common.expiry, values), fill(common.ignore, values)];

  const text = [
    greeting(common, data.name),
    '',
    intro,
    '',
    `${texts.button}:`,
    data.link,
    '',
    ...closing,
    '',
    ...signatureText(common, signoff),
  ].join('\n');

  const e = escapeHtml;
  const body = [
    `<p style="${PARAGRAPH}">${greeting(common, data.name, e)}</p>`,
    `<p style="${PARAGRAPH}">${e(intro)}</p>`,
    buttonHtml(data.link, texts.button),
    linkHintHtml(common, data.link),
    ...closing.map((line) => `<p style="${PARAGRAPH}">${e(line)}</p>`),
    `<p style="${PARAGRAPH}">${e(signoff)}</p>`,
  ].join('\n');
  const html = htmlFrame(lang, subject, body, common.footer);
  return { locale: lang, subject, html, text };
}

/** The http(s) links of a plain-text message, in order, each once. */
export function extractLinks(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"']+/g) ?? [])];
}
