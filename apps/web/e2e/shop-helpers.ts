import { randomUUID } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import {
  type APIRequestContext,
  expect,
  type FrameLocator,
  type Locator,
  type Page,
  type TestInfo,
} from '@playwright/test';

/**
 * Marks a journey the phone project runs too: one whose phone layout differs (menus, drawers, the
 * basket panel, the search overlay, the provider pages at 375 px). layout.spec walks every screen at
 * every width in every language; the other journeys run once, on the desktop.
 */
export const PHONE = { tag: '@phone' };

/** A name and an address no earlier run or project used. */
export function newCustomer(info: TestInfo, prefix: string) {
  const run = `${Date.now().toString(36)}${info.retry}${info.project.name.slice(0, 1)}`;
  return { email: `${prefix}-${run}@example.com`, name: `${prefix}${run}`.slice(0, 16), password: 'Firstpass1' };
}

export type Customer = ReturnType<typeof newCustomer>;

export async function register(page: Page, customer: Customer) {
  await page.goto('/');
  await page.getByTestId('account-button').click();
  const modal = page.getByTestId('auth-modal');
  await modal.getByRole('tab', { name: 'Sign up' }).click();
  await modal.getByLabel('Name').fill(customer.name);
  await modal.getByLabel('Email').fill(customer.email);
  await modal.getByLabel('Password', { exact: true }).fill(customer.password);
  await modal.getByLabel('Repeat password').fill(customer.password);
  await modal.getByRole('checkbox').check();
  await modal.getByRole('button', { name: 'Sign up' }).click();
  const notice = page.getByTestId('notice-modal');
  await expect(notice.getByRole('heading', { name: 'Registration complete' })).toBeVisible();
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toBeHidden();
  await expect(page.getByTestId('account-button')).toHaveAccessibleName('Profile');
}

export const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** Presses Tab (or Shift+Tab) until `target` has the focus, as a keyboard user walks the page; fails if it never does. */
export async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', limit = 80) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < limit; presses += 1) {
    if (await isFocused(target)) return;
    await page.keyboard.press(key);
  }
  expect(await isFocused(target), `Tab never reached ${target}`).toBe(true);
}

/** In-stock products of the home page, in the order shown. */
export const buyableCards = (page: Page) =>
  page.getByTestId('product-card').filter({ has: page.locator('button:enabled') });

/** The home page's in-stock product of this test's `slot` (and the project's parity), with its name. */
export async function pickProduct(page: Page, info: TestInfo, slot: number) {
  const index = slot * 2 + (info.project.name === 'desktop' ? 1 : 0);
  const cards = buyableCards(page);
  await expect(cards.first()).toBeVisible();
  const card = cards.nth(index % (await cards.count()));
  const name = ((await card.getByRole('heading').textContent()) ?? '').trim();
  return { card, name };
}

/**
 * Puts one product in the basket and opens /checkout. Each test takes its own product (`slot`, and
 * the project's parity), so runs side by side do not empty one product's codes.
 */
export async function basketOne(page: Page, info: TestInfo, slot: number): Promise<string> {
  await page.goto('/');
  const { card, name } = await pickProduct(page, info, slot);
  await card.getByRole('button', { name: `Buy ${name}` }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
  return name;
}

/** Chooses a method on /checkout (or in the methods modal) and presses its Pay or Continue button. */
export async function payWith(scope: Page | Locator, method: string) {
  await scope.getByTestId(`payment-${method}`).getByRole('radio').check();
  await giveConsents(scope);
  await scope.getByRole('button', { name: /^(Pay BRL|Continue$)/ }).click();
}

/** Both consents, given with the payment method (English texts). */
export async function giveConsents(scope: Page | Locator) {
  await scope.getByRole('checkbox', { name: /privacy policy/ }).check();
  await scope.getByRole('checkbox', { name: /cannot be refunded/ }).check();
}

/** The store's own card form: number, expiry, CVV and both consents. */
export async function fillOwnCard(modal: Locator, number: string) {
  await modal.getByLabel('Card number').fill(number);
  await modal.getByLabel('Expiry date').fill('12/34');
  await modal.getByLabel('CVV', { exact: true }).fill('123');
  await modal.getByRole('checkbox', { name: /privacy policy/ }).check();
  await modal.getByRole('checkbox', { name: /cannot be refunded/ }).check();
}

/** The provider's card form (widget frame or hosted page). */
export async function fillProviderCard(form: FrameLocator | Page, number: string) {
  await form.getByLabel('Card number').fill(number);
  await form.getByLabel('Expiry (MM/YY)').fill('12/34');
  await form.getByLabel('CVC').fill('123');
  await form.getByRole('button', { name: /^Pay/ }).click();
}

/** The success modal; a payment the provider confirmed ends on Index (`onIndex`). */
export async function expectSuccess(page: Page, { onIndex = true } = {}) {
  const success = page.getByTestId('payment-success-modal');
  await expect(success.getByRole('heading', { name: 'Payment successful' })).toBeVisible({ timeout: 30_000 });
  if (onIndex) await expect(page).toHaveURL(/\/$/);
  return success;
}

/** The product's codes in the profile: hidden, shown on asking, and copied to the clipboard. */
export async function expectCodesInProfile(page: Page, name: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/profile');
  const product = page.getByTestId('purchased-product').filter({ hasText: name }).first();
  await expect(product).toBeVisible({ timeout: 20_000 });
  const code = product.getByTestId('purchased-code').first();
  await expect(code.getByTestId('code-value')).toContainText('Hidden code');
  await code.getByRole('button', { name: 'Show code' }).click();
  const value = ((await code.getByTestId('code-value').textContent()) ?? '').trim();
  expect(value.length).toBeGreaterThan(4);
  await code.getByRole('button', { name: 'Copy' }).click();
  await expect(code.getByTestId('copy-status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
}

/** axe-core's default rules on the whole page, or on `include`: no serious or critical violation. */
export async function expectAccessible(page: Page, include?: string) {
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  const bad = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(bad).toEqual([]);
}

export async function expectNoHorizontalOverflow(page: Page, modal: Locator) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
  const box = await modal.boundingBox();
  const viewport = page.viewportSize();
  expect(box).not.toBeNull();
  expect(viewport).not.toBeNull();
  if (!box || !viewport) return;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  // Nothing inside the modal is wider than the modal itself (a clipped field or logo row).
  const widest = await modal.evaluate((element) =>
    Math.max(...[...element.querySelectorAll('*')].map((child) => child.getBoundingClientRect().right)),
  );
  expect(widest).toBeLessThanOrEqual(box.x + box.width + 0.5);
}

/**
 * An order of the signed-in customer, placed through the API and left unpaid: one code of an
 * in-stock product, a different one for each walk (`slot`), so that walks side by side do not take
 * the same product's last codes.
 */
export async function placeOrder(request: APIRequestContext, token: string, slot: number): Promise<string> {
  const [category] = (await (await request.get('/api/categories')).json()) as { id: string }[];
  const listing = (await (await request.get(`/api/categories/${category?.id}?limit=60`)).json()) as {
    result: { products: { id: number; in_stock: boolean }[] };
  };
  const inStock = listing.result.products.filter((product) => product.in_stock);
  const product = inStock[(slot + 1) % inStock.length];
  expect(product, 'an in-stock product').toBeDefined();
  const headers = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
  // The order is the whole basket: what the walk put there before (whose last codes another walk may
  // have taken since) goes, and the basket holds this one code alone.
  const held = (await (await request.get('/api/basket', { headers })).json()) as {
    products: { id: number; pivot: { quantity: number } }[];
  };
  const changes = held.products
    .filter((line) => line.id !== product?.id)
    .map((line) => ({ id: line.id, type: 'decrease', count: line.pivot.quantity }));
  const already = held.products.find((line) => line.id === product?.id)?.pivot.quantity ?? 0;
  if (already > 1) changes.push({ id: product?.id ?? 0, type: 'decrease', count: already - 1 });
  if (already === 0) changes.push({ id: product?.id ?? 0, type: 'increase', count: 1 });
  if (changes.length > 0) {
    const basket = await request.patch('/api/basket', { headers, data: { flush_id: randomUUID(), products: changes } });
    expect(basket.ok(), await basket.text()).toBe(true);
  }
  const created = await request.post('/api/orders/create', { headers, data: { type: 'purchase' } });
  expect(created.ok(), await created.text()).toBe(true);
  return ((await created.json()) as { order_id: string }).order_id;
}
