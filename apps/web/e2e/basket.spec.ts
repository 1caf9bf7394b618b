import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { PHONE } from './shop-helpers.ts';

interface Bought {
  id: number;
  name: string;
}

/** "BRL 1 234.50" -> 123450 minor units. */
const minorOf = (text: string) => Math.round(Number(text.replace(/[^\d.,]/g, '').replace(',', '.')) * 100);

/** A name and an address no earlier run or project used. */
function newCustomer(info: TestInfo, prefix: string) {
  const run = `${Date.now().toString(36)}${info.retry}${info.project.name.slice(0, 1)}`;
  return { email: `${prefix}-${run}@example.com`, name: `${prefix}${run}`.slice(0, 16), password: 'Firstpass1' };
}

/** In-stock products of the home page, in the order shown. */
function buyableCards(page: Page) {
  return page.getByTestId('product-card').filter({ has: page.locator('button:enabled') });
}

/**
 * Buys the cards at `indexes` from the home page, once each. The notification of each is closed,
 * except the last one's when `keepLast`, which the caller uses to open the basket.
 */
async function buy(page: Page, indexes: number[], { keepLast = false } = {}): Promise<Bought[]> {
  const bought: Bought[] = [];
  for (const [position, index] of indexes.entries()) {
    const card = buyableCards(page).nth(index);
    const link = card.getByRole('heading', { level: 2 }).getByRole('link');
    const name = ((await link.textContent()) ?? '').trim();
    const id = Number((await link.getAttribute('href'))?.split('/').pop());
    await card.getByRole('button', { name: `Buy ${name}` }).click();
    const notification = page.getByTestId('added-notification');
    await expect(notification).toContainText(name);
    if (!(keepLast && position === indexes.length - 1)) {
      await notification.getByRole('button', { name: 'Close' }).click();
      await expect(notification).toBeHidden();
    }
    bought.push({ id, name });
  }
  return bought;
}

function lineOf(container: Locator, name: string) {
  return container
    .getByTestId(/^(basket|checkout)-line$/)
    .filter({ has: container.page().getByText(name, { exact: true }) });
}

async function expectQuantities(panel: Locator, expected: [Bought, number][]) {
  await expect(panel.getByTestId('basket-line')).toHaveCount(expected.length);
  for (const [product, quantity] of expected) {
    await expect(lineOf(panel, product.name).getByTestId('line-quantity')).toHaveText(String(quantity));
  }
}

async function step(panel: Locator, product: Bought, direction: 'One more' | 'One less') {
  await lineOf(panel, product.name)
    .getByRole('button', { name: `${direction} ${product.name}` })
    .click();
}

async function closeNotice(page: Page, title: string) {
  const notice = page.getByTestId('notice-modal');
  await expect(notice.getByRole('heading', { name: title })).toBeVisible();
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toBeHidden();
}

/** The checkout page's lines as name -> quantity, read from "2 pcs. × BRL 10.00". */
async function checkoutQuantities(page: Page): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const line of await page.getByTestId('checkout-line').all()) {
    const name = (await line.locator('span').first().textContent()) ?? '';
    const quantity = (await line.getByTestId('checkout-line-quantity').textContent()) ?? '';
    result[name] = Number(/^(\d+) /.exec(quantity)?.[1]);
  }
  return result;
}

/** Another device of the customer: the API, logged in with its own token, then logged out. */
async function addOnAnotherDevice(request: APIRequestContext, email: string, password: string, product: Bought) {
  const login = await request.post('/api/login', { data: { email, password } });
  expect(login.ok()).toBe(true);
  const { token } = (await login.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' };
  const patch = await request.patch('/api/basket', {
    headers,
    data: { flush_id: randomUUID(), products: [{ id: product.id, type: 'increase', count: 1 }] },
  });
  expect(patch.ok()).toBe(true);
  expect((await request.post('/api/logout', { headers })).ok()).toBe(true);
}

test(
  'basket: kept as a guest, merged on registration and login, WELCOME10, checkout, a second tab',
  PHONE,
  async ({ page, context, request }, info) => {
    const customer = newCustomer(info, 'Basket');

    // As a guest: three products, then the basket from the last notification. A fourth product is
    // for another device of the customer.
    await page.goto('/');
    const fourth = buyableCards(page).nth(3).getByRole('heading', { level: 2 }).getByRole('link');
    const d: Bought = {
      id: Number((await fourth.getAttribute('href'))?.split('/').pop()),
      name: ((await fourth.textContent()) ?? '').trim(),
    };
    const [a, b, c] = await buy(page, [0, 1, 2], { keepLast: true });
    if (!a || !b || !c) throw new Error('the home page has fewer than four products in stock');
    await page.getByTestId('added-notification').getByRole('button', { name: 'Open basket' }).click();
    const panel = page.getByTestId('basket-panel');
    await expect(panel).toBeVisible();
    // The notification is gone and cannot cover the checkout button.
    await expect(page.getByTestId('added-notification')).toBeHidden();
    const checkout = panel.getByTestId('checkout-button');
    const box = await checkout.boundingBox();
    if (!box) throw new Error('checkout button not laid out');
    const topmost = await page.evaluate(
      ({ x, y }) => document.elementFromPoint(x, y)?.closest('[data-testid="checkout-button"]') !== null,
      { x: box.x + box.width / 2, y: box.y + box.height / 2 },
    );
    expect(topmost).toBe(true);
    await expect(panel.getByTestId('promo-login')).toHaveText(/Log in to use a promo code\./);

    // Change quantities: count and total follow at once.
    await step(panel, a, 'One more');
    await step(panel, b, 'One more');
    await step(panel, b, 'One more');
    await step(panel, b, 'One less');
    await expectQuantities(panel, [
      [a, 2],
      [b, 2],
      [c, 1],
    ]);
    await expect(panel.getByTestId('basket-count')).toHaveText('5');

    // A reload keeps the guest basket.
    await page.reload();
    await expect(page.getByTestId('cart-count')).toHaveText('5');
    await page.getByTestId('cart-button').click();
    await expectQuantities(panel, [
      [a, 2],
      [b, 2],
      [c, 1],
    ]);

    // Checkout as a guest: the auth modal; registering merges the basket and lands on /checkout.
    await panel.getByTestId('checkout-button').click();
    const modal = page.getByTestId('auth-modal');
    await expect(modal).toBeVisible();
    await modal.getByRole('tab', { name: 'Sign up' }).click();
    await modal.getByLabel('Name').fill(customer.name);
    await modal.getByLabel('Email').fill(customer.email);
    await modal.getByLabel('Password', { exact: true }).fill(customer.password);
    await modal.getByLabel('Repeat password').fill(customer.password);
    await modal.getByRole('checkbox').check();
    await modal.getByRole('button', { name: 'Sign up' }).click();
    await closeNotice(page, 'Registration complete');
    await expect(page).toHaveURL(/\/checkout$/);
    await expect.poll(() => checkoutQuantities(page)).toEqual({ [a.name]: 2, [b.name]: 2, [c.name]: 1 });
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('basket') ?? 'null')?.owner)).toBeTruthy();
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual(
      expect.objectContaining({ event: 'begin_checkout', ecommerce: expect.objectContaining({ currency: 'BRL' }) }),
    );

    // Another device adds a fourth product to the server basket; here the customer logs out.
    await addOnAnotherDevice(request, customer.email, customer.password, d);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('cart-count')).toBeHidden();

    // As a guest again: one more of the first product, then checkout and log in: the two are merged.
    await buy(page, [0], { keepLast: true });
    await page.getByTestId('added-notification').getByRole('button', { name: 'Open basket' }).click();
    await panel.getByTestId('checkout-button').click();
    await expect(modal).toBeVisible();
    await modal.getByLabel('Email').fill(customer.email);
    await modal.getByLabel('Password', { exact: true }).fill(customer.password);
    await modal.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect.poll(() => checkoutQuantities(page)).toEqual({ [a.name]: 3, [b.name]: 2, [c.name]: 1, [d.name]: 1 });

    // WELCOME10 on the checkout: 10 % off each line, rounded half up, the original struck through; then undone.
    const lineTotals = await page.getByTestId('checkout-line').locator('strong').allTextContents();
    const subtotal = lineTotals.reduce((sum, text) => sum + minorOf(text), 0);
    const discount = lineTotals.reduce((sum, text) => sum + Math.floor((minorOf(text) * 10 + 50) / 100), 0);
    const promo = page.getByRole('form', { name: 'Promo code' });
    await expect(promo.getByRole('button', { name: 'Apply' })).toBeDisabled();
    await promo.getByLabel('Promo code').fill('welcome10');
    await promo.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('promo-applied')).toHaveText(/WELCOME10: 10% off/);
    await expect(page.getByTestId('basket-total-original')).toBeVisible();
    expect(minorOf((await page.getByTestId('basket-total-original').textContent()) ?? '')).toBe(subtotal);
    expect(minorOf((await page.getByTestId('basket-total').textContent()) ?? '')).toBe(subtotal - discount);
    await page.getByRole('button', { name: 'Undo' }).click();
    await expect(page.getByTestId('promo-applied')).toBeHidden();
    await expect(page.getByTestId('basket-total-original')).toBeHidden();
    expect(minorOf((await page.getByTestId('basket-total').textContent()) ?? '')).toBe(subtotal);

    // Choosing a method and giving both consents says what comes next and enables Pay.
    // (Paying itself is checkout-payments.spec.ts's.)
    await expect(page.getByRole('button', { name: /^Pay / })).toBeDisabled();
    await page.getByRole('radio', { name: /^Pix/ }).check();
    await expect(page.getByTestId('payment-note')).toContainText('Tick both boxes below to pay');
    await expect(page.getByRole('button', { name: /^Pay / })).toBeDisabled();
    await page.getByRole('checkbox', { name: /privacy policy/ }).check();
    await page.getByRole('checkbox', { name: /cannot be refunded/ }).check();
    await expect(page.getByTestId('payment-note')).toContainText('Scan the QR code');
    await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();

    // A second tab sees a change made in this one at once, and the server gets it.
    const second = await context.newPage();
    await second.goto('/');
    await expect(second.getByTestId('cart-count')).toHaveText('7');
    await page.getByRole('button', { name: 'Edit basket' }).click();
    await step(panel, c, 'One more');
    await expect(panel.getByTestId('basket-count')).toHaveText('8');
    await expect(second.getByTestId('cart-count')).toHaveText('8');
    await second.getByTestId('cart-button').click();
    await expect(lineOf(second.getByTestId('basket-panel'), c.name).getByTestId('line-quantity')).toHaveText('2');
    // The queued change reaches the server: sent with keepalive as the first tab closes, or by the
    // second tab after 10 s without a change.
    await page.close();
    const login = await request.post('/api/login', { data: { email: customer.email, password: customer.password } });
    const { token } = (await login.json()) as { token: string };
    const headers = { Authorization: `Bearer ${token}`, 'X-Requested-With': 'XMLHttpRequest' };
    await expect
      .poll(
        async () => {
          const basket = await request.get('/api/basket', { headers });
          const { products } = (await basket.json()) as { products: { id: number; pivot: { quantity: number } }[] };
          return products.find((product) => product.id === c.id)?.pivot.quantity;
        },
        { timeout: 15_000, intervals: [500] },
      )
      .toBe(2);
  },
);

/**
 * Elements wider than their box: horizontal overflow, apart from text cut with an ellipsis on purpose
 * and the one-pixel boxes of text only screen readers read.
 */
async function overflowing(root: Locator) {
  return root.evaluate((element) =>
    [element, ...element.querySelectorAll('*')]
      .filter((node): node is HTMLElement => node instanceof HTMLElement && node.clientWidth > 0)
      .filter((node) => !node.closest('.visually-hidden') && getComputedStyle(node).textOverflow !== 'ellipsis')
      .filter((node) => node.scrollWidth > node.clientWidth + 1)
      .map((node) => `${node.tagName.toLowerCase()}.${node.className} ${node.scrollWidth}>${node.clientWidth}`),
  );
}

test('basket panel and checkout fit 320 px in Portuguese', PHONE, async ({ page, request }, info) => {
  const customer = newCustomer(info, 'Narrow');
  const registered = await request.post('/api/register', {
    data: {
      name: customer.name,
      email: customer.email,
      password: customer.password,
      password_confirmation: customer.password,
      locale: 'pt-BR',
    },
  });
  expect(registered.ok()).toBe(true);
  const { token, user } = (await registered.json()) as { token: string; user: unknown };
  await page.addInitScript(
    ({ token, user }) => {
      localStorage.setItem('lang', 'pt-BR');
      localStorage.setItem('auth-token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token, user },
  );
  // Bought at the project's width: the check is the panel's and the checkout's, not the home page's.
  await page.goto('/');
  const cards = buyableCards(page);
  for (const index of [0, 1, 2]) {
    await cards
      .nth(index)
      .getByRole('button', { name: /^Comprar/ })
      .click();
    const notification = page.getByTestId('added-notification');
    await expect(notification).toBeVisible();
    await notification.getByRole('button', { name: 'Fechar' }).click();
    await expect(notification).toBeHidden();
  }
  await page.setViewportSize({ width: 320, height: 640 });
  await page.getByTestId('cart-button').click();
  const panel = page.getByTestId('basket-panel');
  await expect(panel.getByTestId('basket-line')).toHaveCount(3);
  const promo = panel.getByRole('form', { name: 'Código promocional' });
  await promo.getByLabel('Código promocional').fill('WELCOME10');
  await promo.getByRole('button', { name: 'Aplicar' }).click();
  await expect(panel.getByTestId('promo-applied')).toBeVisible();

  expect(await overflowing(panel)).toEqual([]);
  const widths = await panel.evaluate((element) => [element.scrollWidth, element.clientWidth]);
  expect(widths[0]).toBeLessThanOrEqual(widths[1] ?? 0);
  await page.screenshot({ path: info.outputPath('basket-panel-pt-BR-320.png') });

  await panel.getByTestId('checkout-button').click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByTestId('checkout-line')).toHaveCount(3);
  await page.getByRole('radio', { name: /^Pix/ }).check();
  await page.getByRole('checkbox', { name: /política de privacidade/ }).check();
  await page.getByRole('checkbox', { name: /não são reembolsáveis/ }).check();
  await expect(page.getByTestId('payment-note')).toContainText('Escaneie o QR code');
  await expect(page.getByTestId('promo-applied')).toBeVisible();
  expect(await overflowing(page.getByTestId('checkout-page'))).toEqual([]);
  const page320 = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(page320[0]).toBeLessThanOrEqual(page320[1] ?? 0);
  await page.screenshot({ path: info.outputPath('checkout-pt-BR-320.png'), fullPage: true });
});
