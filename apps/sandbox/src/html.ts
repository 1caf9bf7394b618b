import { randomBytes } from 'node:crypto';
import type { Locale } from './i18n.ts';

/** Markup that is already safe: produced by `html` or `raw`, never by string concatenation. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

type Interpolation = SafeHtml | string | number | null | undefined | false | Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (value instanceof SafeHtml) return value.value;
  return escapeHtml(String(value));
}

/** A template whose every interpolation is escaped, unless it is SafeHtml itself. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(out);
}

/**
 * A value for an inline script: JSON with `<`, `>`, `&` and the two line separators escaped, so no
 * string in it can close the script element or break the line.
 */
export function scriptJson(value: unknown): SafeHtml {
  return new SafeHtml(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
}

export function newNonce(): string {
  return randomBytes(16).toString('base64');
}

const STYLE = `
  :root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  body { margin: 0; background: #f4f5f7; color: #1d2330; }
  main { max-width: 420px; margin: 0 auto; padding: 24px 16px; }
  .card { background: #fff; border-radius: 12px; padding: 20px; box-shadow: 0 1px 4px rgba(0,0,0,.12); }
  .badge { display: inline-block; font-size: 12px; font-weight: 600; letter-spacing: .04em; color: #7a4b00;
    background: #ffe8b3; border-radius: 4px; padding: 2px 6px; margin-bottom: 12px; }
  h1 { font-size: 20px; margin: 0 0 8px; }
  p { line-height: 1.45; margin: 8px 0; }
  .amount { font-size: 28px; font-weight: 700; margin: 8px 0 16px; }
  label { display: block; font-size: 14px; font-weight: 600; margin: 12px 0 4px; }
  input { box-sizing: border-box; width: 100%; font: inherit; font-size: 16px; padding: 10px 12px;
    border: 1px solid #b8bfcc; border-radius: 8px; }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid #2f6fde; outline-offset: 2px; }
  .row { display: flex; gap: 12px; }
  .row > div { flex: 1; }
  .error { color: #b00020; font-size: 14px; margin: 4px 0 0; }
  .actions { display: flex; flex-wrap: wrap; gap: 12px; margin-top: 20px; }
  button, .button { font: inherit; font-weight: 600; font-size: 16px; padding: 12px 18px; border-radius: 8px;
    border: 0; cursor: pointer; background: #2f6fde; color: #fff; text-decoration: none; display: inline-block; }
  .secondary { background: #e4e7ec; color: #1d2330; }
  .danger { background: #b00020; color: #fff; }
  .qr { display: block; width: 220px; height: 220px; margin: 12px auto; image-rendering: pixelated; }
  code { word-break: break-all; font-size: 12px; background: #f0f1f4; padding: 2px 4px; border-radius: 4px; }
  .muted { color: #5b6472; font-size: 14px; }
`;

export interface PageOptions {
  title: string;
  nonce: string;
  body: SafeHtml;
  /** Inline script source; runs under the page's nonce. */
  script?: SafeHtml;
  /** The page's language: its `lang`, and the texts of the frame round the body. */
  locale: Locale;
}

export function page({ title, nonce, body, script, locale }: PageOptions): string {
  return html`<!doctype html>
<html lang="${locale.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title} · ${locale.t.titleSuffix}</title>
<style nonce="${nonce}">${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
<div class="card">
<span class="badge">${locale.t.badge}</span>
${body}
</div>
</main>
${script ? html`<script nonce="${nonce}">${script}</script>` : ''}
</body>
</html>`.value;
}

/**
 * Headers of a sandbox page: its own policy, not the store's. Inline styles and scripts run under a
 * per-response nonce; forms may post to the sandbox and the store's origins (a 303 after a form is
 * checked against form-action too); only pages of the widget's flow may be framed, and then only by
 * the store.
 */
export function pageHeaders(nonce: string, storeOrigins: readonly string[], framable: boolean) {
  const origins = storeOrigins.join(' ');
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': [
      "default-src 'none'",
      "img-src 'self' data:",
      `style-src 'nonce-${nonce}'`,
      `script-src 'nonce-${nonce}'`,
      `form-action 'self' ${origins}`,
      `frame-ancestors ${framable ? `'self' ${origins}` : "'none'"}`,
      "base-uri 'none'",
    ].join('; '),
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    ...(framable ? {} : { 'x-frame-options': 'DENY' }),
  };
}

/** Headers of a JSON answer: nothing in it may be framed, sniffed or run. */
export const JSON_HEADERS = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;
