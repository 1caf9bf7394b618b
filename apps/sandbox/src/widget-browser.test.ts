import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildWidgetRequest } from '@store/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sandboxPlugin } from './plugin.ts';
import { API_KEY, newSecret, type Receiver, startReceiver } from './test-support.ts';

// widget.js in a real browser: a store page on one origin opens the sandbox's widget from another,
// as in the full stack, under a Content-Security-Policy that allows exactly the sandbox's origin.

let store: Server;
let sandbox: FastifyInstance;
let receiver: Receiver;
let browser: Browser;
let page: Page;
let storeOrigin: string;
let sandboxOrigin: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The store's widget request; `total` overrides the amount to make one that does not add up. */
const request = (orderId: string, total = '150.00') => ({
  ...buildWidgetRequest({
    method: 'widget',
    orderId,
    amountMinor: 15_000,
    currency: 'RUB',
    description: 'Digital goods',
    customerEmail: 'ana@example.com',
    items: [{ name: 'Steam 150', unitPriceMinor: 15_000, quantity: 1 }],
  }),
  amount: total,
});

/** The store's page, in the shopper's language as the store sets it; `?lang=` picks another. */
function storePage(nonce: string, lang: string) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Store</title>
<script src="${sandboxOrigin}/sandbox/widget.js"></script></head>
<body><button id="focus-me">Pay</button>
<script nonce="${nonce}">
  window.events = [];
  window.startPay = function (widgetRequest) {
    SandboxPay.pay(widgetRequest, {
      onSuccess: function (result) {
        // What the store finds as onSuccess comes: where its own dialog would open, and what has the focus.
        window.atSuccess = {
          widgetOpen: document.querySelector('[data-sandbox-widget]') !== null,
          inert: document.querySelectorAll('[inert]').length,
          focus: document.activeElement && document.activeElement.id,
        };
        window.events.push(['success', result]);
      },
      onError: function (result) { window.events.push(['error', result]); },
      onClose: function (result) { window.events.push(['close', result]); },
    });
  };
</script></body></html>`;
}

beforeAll(async () => {
  receiver = await startReceiver();
  const sandboxPort = await freePort();
  sandboxOrigin = `http://127.0.0.1:${sandboxPort}`;
  store = createServer((request, response) => {
    const nonce = 'store-page-nonce';
    const lang = new URL(request.url ?? '/', 'http://store').searchParams.get('lang') ?? 'en';
    response.setHeader('content-type', 'text/html; charset=utf-8');
    // What the store's own policy needs for a widget served from another origin.
    response.setHeader(
      'content-security-policy',
      `default-src 'self'; script-src 'self' 'nonce-${nonce}' ${sandboxOrigin}; connect-src ${sandboxOrigin}; frame-src ${sandboxOrigin}; frame-ancestors 'none'`,
    );
    response.end(storePage(nonce, lang.replace(/[^A-Za-z-]/g, '')));
  });
  await new Promise<void>((resolve) => store.listen(0, 'localhost', resolve));
  storeOrigin = `http://localhost:${(store.address() as AddressInfo).port}`;

  sandbox = Fastify();
  await sandbox.register(sandboxPlugin, {
    prefix: '/sandbox',
    publicUrl: `${sandboxOrigin}/sandbox`,
    apiKey: API_KEY,
    webhookSecrets: [newSecret()],
    storeOrigins: [storeOrigin],
    widgetCallbackUrl: receiver.url,
  });
  await sandbox.listen({ host: '127.0.0.1', port: sandboxPort });

  const executablePath =
    process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined);
  browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [
      '--no-sandbox',
      // The store and the sandbox are on different sites here, so with site isolation the widget's
      // frame runs in a process of its own, and the browser process learns asynchronously which frame
      // has the focus: keys typed the moment the frame's field takes it could still go to the page
      // (a test typing faster than any person does). In one process, keys follow the focus at once;
      // the origins, and so every postMessage check, stay as they are.
      '--disable-site-isolation-trials',
      '--disable-features=IsolateOrigins,site-per-process',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await sandbox?.close();
  await new Promise<void>((resolve) => store?.close(() => resolve()));
  await receiver?.close();
});

beforeEach(async () => {
  await page?.close();
  page = await browser.newPage();
  await page.goto(storeOrigin);
});

const events = () =>
  page.evaluate(() => (window as unknown as { events: Array<[string, Record<string, unknown>]> }).events);
const waitForEvents = (count: number) =>
  page.waitForFunction((n) => (window as unknown as { events: unknown[] }).events.length >= n, count, {
    timeout: 10_000,
  });

async function open(orderId: string, total?: string, extra: Record<string, unknown> = {}) {
  await page.evaluate((body) => (window as unknown as { startPay(r: unknown): void }).startPay(body), {
    ...request(orderId, total),
    ...extra,
  });
  await page.locator('[data-sandbox-widget] iframe').waitFor({ timeout: 10_000 });
  return page.frameLocator('[data-sandbox-widget] iframe');
}

async function payWith(frame: ReturnType<Page['frameLocator']>, number: string) {
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiry (MM/YY)').fill('12/39');
  await frame.getByLabel('CVC').fill('123');
  await frame.getByRole('button', { name: /^Pay / }).click();
}

describe('widget.js in Chromium', () => {
  const atSuccess = () =>
    page.evaluate(
      () =>
        (window as unknown as { atSuccess?: { widgetOpen: boolean; inert: number; focus: string | null } }).atSuccess,
    );

  it('shows its success message, closes, gives the focus back, and only then reports success', async () => {
    await page.locator('#focus-me').focus();
    const frame = await open('order-b1');
    await payWith(frame, '4242 4242 4242 4242');
    // The success message, in the widget still open: the store has heard nothing yet.
    await frame.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 10_000 });
    expect(await page.locator('[data-sandbox-widget]').count()).toBe(1);
    expect(await events()).toEqual([]);
    await waitForEvents(1);
    const [[kind, result] = []] = await events();
    expect(kind).toBe('success');
    expect(result).toMatchObject({ code: 'PAY_WIDGET:TRANSACTION_SUCCESS', orderId: 'order-b1' });
    // By onSuccess, the widget was gone, the page live again and the focus back where it was.
    expect(await atSuccess()).toEqual({ widgetOpen: false, inert: 0, focus: 'focus-me' });
    expect(await page.locator('[data-sandbox-widget]').count()).toBe(0);
    await page.waitForTimeout(300);
    expect(await events()).toHaveLength(1);
  });

  it('still reports success, once, when closed during its success message', async () => {
    const frame = await open('order-b9');
    await payWith(frame, '4242 4242 4242 4242');
    await frame.getByRole('heading', { name: 'Payment successful' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Close' }).click();
    await waitForEvents(1);
    expect(await events()).toMatchObject([
      ['success', { code: 'PAY_WIDGET:TRANSACTION_SUCCESS', orderId: 'order-b9' }],
    ]);
    expect((await atSuccess())?.widgetOpen).toBe(false);
    await page.waitForTimeout(1_500);
    expect(await events()).toHaveLength(1);
  });

  it('opens in the language of the page that opened it', async () => {
    await page.goto(`${storeOrigin}/?lang=ru`);
    const frame = await open('order-b10');
    const dialog = page.getByRole('dialog', { name: 'Оплата картой' });
    await dialog.waitFor({ timeout: 10_000 });
    expect(await dialog.getAttribute('lang')).toBe('ru');
    expect(await page.locator('[data-sandbox-widget] iframe').getAttribute('title')).toBe('Оплата картой');
    await page.getByRole('button', { name: 'Закрыть' }).waitFor();
    await frame.getByLabel('Номер карты').waitFor({ timeout: 10_000 });
    expect(await frame.locator('html').getAttribute('lang')).toBe('ru');
    await frame.getByLabel('Номер карты').fill('4242 4242 4242 4242');
    await frame.getByLabel('Срок действия (ММ/ГГ)').fill('12/39');
    await frame.getByLabel('CVC').fill('123');
    await frame.getByRole('button', { name: /^Оплатить 150,00\s₽$/ }).click();
    await frame.getByRole('heading', { name: 'Оплата прошла успешно' }).waitFor({ timeout: 10_000 });
    await waitForEvents(1);
    expect(await events()).toMatchObject([
      ['success', { code: 'PAY_WIDGET:TRANSACTION_SUCCESS', orderId: 'order-b10' }],
    ]);
  });

  it('prefers the request’s own language to the page’s', async () => {
    await page.goto(`${storeOrigin}/?lang=ru`);
    const frame = await open('order-b11', undefined, { language: 'hi' });
    await page.getByRole('dialog', { name: 'कार्ड से भुगतान' }).waitFor({ timeout: 10_000 });
    await frame.getByLabel('कार्ड नंबर').waitFor({ timeout: 10_000 });
    expect(await frame.locator('html').getAttribute('lang')).toBe('hi');
    await page.getByRole('button', { name: 'बंद करें' }).click();
    await waitForEvents(1);
    expect(await events()).toEqual([['close', { code: 'PAY_WIDGET:CLOSE_BEFORE_PAY' }]]);
  });

  it('reports a failure, then PAY_WIDGET:CLOSE_AFTER_FAIL when closed', async () => {
    const frame = await open('order-b2');
    await payWith(frame, '4000 0000 0000 0002');
    await waitForEvents(1);
    await page.getByRole('button', { name: 'Close' }).click();
    await waitForEvents(2);
    expect(await events()).toMatchObject([
      ['error', { code: 'PAY_WIDGET:TRANSACTION_FAIL', reason: 'card_declined' }],
      ['close', { code: 'PAY_WIDGET:CLOSE_AFTER_FAIL' }],
    ]);
    expect(await page.locator('[data-sandbox-widget]').count()).toBe(0);
  });

  it('says PAY_WIDGET:CLOSE_BEFORE_PAY when closed with Escape before paying, and gives the focus back', async () => {
    await page.locator('#focus-me').focus();
    await open('order-b3');
    await page.keyboard.press('Escape');
    await waitForEvents(1);
    expect(await events()).toEqual([['close', { code: 'PAY_WIDGET:CLOSE_BEFORE_PAY' }]]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('focus-me');
  });

  it('runs a 3-D Secure challenge in its frame', async () => {
    const frame = await open('order-b4');
    await payWith(frame, '4000 0000 0000 3220');
    await frame.getByRole('button', { name: 'Pass the challenge' }).click();
    await waitForEvents(1);
    expect(await events()).toMatchObject([
      ['success', { code: 'PAY_WIDGET:TRANSACTION_SUCCESS', orderId: 'order-b4' }],
    ]);
  });

  /** Whether the focus is in the widget's dialog (its close button or its frame), not on the page under it. */
  const focusInWidget = () => page.evaluate(() => Boolean(document.activeElement?.closest('[data-sandbox-widget]')));
  const focused = (frame: ReturnType<Page['frameLocator']>, name: string | RegExp, role?: 'button' | 'link') =>
    (role ? frame.getByRole(role, { name }) : frame.getByLabel(name))
      .evaluate((element) => element === document.activeElement && document.hasFocus(), undefined, { timeout: 1000 })
      // A form sent from the frame reloads it: the check then asks again once the new page is in.
      .catch((error: Error) => {
        if (/context was destroyed|navigation|Timeout/i.test(error.message)) return false;
        throw error;
      });
  const until = async (check: () => Promise<boolean>) => {
    for (let tries = 0; tries < 100 && !(await check()); tries += 1) await page.waitForTimeout(50);
    expect(await check()).toBe(true);
  };

  it('takes the focus to its card number, keeps it inside while open, and pays from the keyboard', async () => {
    await page.locator('#focus-me').focus();
    const frame = await open('order-b6');
    await until(() => focused(frame, 'Card number'));
    // Round the dialog both ways: never onto the page under it.
    for (const key of ['Tab', 'Shift+Tab']) {
      for (let presses = 0; presses < 7; presses += 1) {
        await page.keyboard.press(key);
        expect(await focusInWidget(), `${key} ${presses + 1}`).toBe(true);
      }
    }
    expect(await page.evaluate(() => document.querySelector('#focus-me')?.closest('[inert]') !== null)).toBe(true);
    // Shift+Tab from the close button wraps to the frame's last control.
    await page.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Shift+Tab');
    await until(() => focused(frame, /^Pay /, 'button'));
    // Tab past it comes back to the close button.
    await page.keyboard.press('Tab');
    await until(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label') === 'Close'));
    await page.keyboard.press('Tab');
    await until(() => focused(frame, 'Card number'));
    await page.keyboard.type('4000000000000002');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12/39');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await waitForEvents(1);
    // Declined: the focus is on Try again, which brings the form back with the focus in it.
    await until(() => focused(frame, 'Try again', 'link'));
    await page.keyboard.press('Enter');
    await until(() => focused(frame, 'Card number'));
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12/39');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await waitForEvents(2);
    expect((await events()).map(([kind]) => kind)).toEqual(['error', 'success']);
    expect(await page.locator('[data-sandbox-widget]').count()).toBe(0);
    expect(await atSuccess()).toEqual({ widgetOpen: false, inert: 0, focus: 'focus-me' });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('focus-me');
    expect(await page.evaluate(() => document.querySelectorAll('[inert]').length)).toBe(0);
  });

  it('puts the focus on the first refused field of a form sent again', async () => {
    const frame = await open('order-b7');
    await until(() => focused(frame, 'Card number'));
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await page.keyboard.type('13/99');
    await page.keyboard.press('Enter');
    await until(() => focused(frame, 'Expiry (MM/YY)'));
    expect(await frame.getByLabel('Expiry (MM/YY)').getAttribute('aria-invalid')).toBe('true');
  });

  it('focuses the 3-D Secure check in its frame, and Escape there closes the widget', async () => {
    await page.locator('#focus-me').focus();
    const frame = await open('order-b8');
    await until(() => focused(frame, 'Card number'));
    await page.keyboard.type('4000000000003220');
    await page.keyboard.press('Tab');
    await page.keyboard.type('12/39');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    await until(() => focused(frame, 'Pass the challenge', 'button'));
    await page.keyboard.press('Escape');
    await waitForEvents(1);
    expect(await events()).toEqual([['close', { code: 'PAY_WIDGET:CLOSE_BEFORE_PAY' }]]);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('focus-me');
  });

  it('reports a request that does not add up, without opening', async () => {
    await page.evaluate(
      (body) => (window as unknown as { startPay(r: unknown): void }).startPay(body),
      request('order-b5', '99.00'),
    );
    await waitForEvents(1);
    expect(await events()).toMatchObject([
      ['error', { code: 'PAY_WIDGET:INVALID_REQUEST', errors: { 'receipt.items': ['total_mismatch'] } }],
    ]);
    expect(await page.locator('[data-sandbox-widget]').count()).toBe(0);
  });
});
