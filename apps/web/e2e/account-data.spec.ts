import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import {
  expectNoHorizontalOverflow,
  expectSuccess,
  fillProviderCard,
  newCustomer,
  payWith,
  pickProduct,
  register,
} from './shop-helpers.ts';

// A customer's own data: a buyer's review carries the verified badge and its author edits and deletes
// it; the profile downloads everything the store holds, and deletes the account, after which its login
// fails. English at 1280 px, buying through the checkout; Portuguese at 320 px, buying through the
// store's API (the checkout's own journeys are the payment specs').

test.describe.configure({ timeout: 180_000 });

const locales = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/locales');

type Language = 'en' | 'pt-BR';

/** A language's texts, every part merged, read by their dotted keys, with `{{name}}` filled in. */
function translator(language: Language) {
  const texts = new Map<string, string>();
  const add = (tree: unknown, prefix: string) => {
    if (typeof tree === 'string') texts.set(prefix, tree);
    else if (tree && typeof tree === 'object')
      for (const [key, value] of Object.entries(tree)) add(value, prefix ? `${prefix}.${key}` : key);
  };
  const parts = readdirSync(locales, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  for (const file of [
    path.join(locales, `${language}.json`),
    ...parts.map((part) => path.join(locales, part.name, `${language}.json`)),
  ]) {
    add(JSON.parse(readFileSync(file, 'utf8')), '');
  }
  return (key: string) => {
    const text = texts.get(key);
    if (text === undefined) throw new Error(`no text ${key} in ${language}`);
    return text;
  };
}

/** Buys one code of the home page's product of this test through the checkout and the card widget. */
async function buyInTheBrowser(page: Page, info: TestInfo) {
  await page.goto('/');
  const { card, name } = await pickProduct(page, info, 23);
  const href = await card.getByRole('link', { name }).getAttribute('href');
  await card.getByRole('button', { name: `Buy ${name}` }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.goto('/checkout');
  await payWith(page, 'card');
  await fillProviderCard(page.frameLocator('iframe[title="Card payment"]'), '4242 4242 4242 4242');
  await expectSuccess(page);
  return { name, productId: Number(href?.split('/').pop()) };
}

/** Buys one code of an in-stock product with the store's own card form, as the checkout calls it. */
async function buyThroughTheApi(request: APIRequestContext, token: string, info: TestInfo) {
  const headers = { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' };
  const listed = await request.get('/api/popular-products');
  const { result } = (await listed.json()) as { result: { products: Array<{ id: number; in_stock: boolean }> } };
  const inStock = result.products.filter((product) => product.in_stock);
  const product = inStock[(7 + info.retry) % inStock.length];
  expect(product).toBeDefined();
  const flush = await request.patch('/api/basket', {
    headers,
    data: { products: [{ id: product?.id, type: 'increase', count: 1 }] },
  });
  expect(flush.ok()).toBe(true);
  const created = await request.post('/api/orders/create', { headers, data: { type: 'purchase' } });
  expect(created.ok()).toBe(true);
  const { order_id: orderId } = (await created.json()) as { order_id: string };
  const paid = await request.post('/api/payment', {
    headers,
    data: {
      type: 'purchase',
      orderId,
      card_number: '4242 4242 4242 4242',
      month: '12',
      year: '35',
      cvc: '123',
      screenHeight: 800,
      screenWidth: 320,
      timeZoneOffset: 180,
    },
  });
  expect(paid.ok(), await paid.text()).toBe(true);
  await expect
    .poll(
      async () => {
        const status = await request.post('/api/payment/status', { headers, data: { orderId } });
        return ((await status.json()) as { order_status?: string }).order_status;
      },
      { timeout: 30_000 },
    )
    .toBe('fulfilled');
  return orderId;
}

/** On the product page: writes a review, sees it badged as a verified buyer's, edits it, deletes it. */
async function reviewAsBuyer(page: Page, productId: number) {
  await page.goto(`/product/${productId}`);
  const form = page.getByRole('form', { name: 'Leave a review' });
  await form.getByRole('radio', { name: '4 stars' }).check({ force: true });
  const text = `Bought it on ${Date.now().toString(36)}, the code worked.`;
  await form.getByLabel('Your review').fill(text);
  await form.getByRole('button', { name: 'Publish review' }).click();

  const own = page.getByTestId('own-review');
  await expect(own.getByText('Thank you! Your review is published.')).toBeVisible();
  await expect(own.getByText(text)).toBeVisible();
  const listed = page.getByRole('listitem').filter({ hasText: text });
  await expect(listed.getByTestId('verified-buyer')).toHaveText('Verified buyer');

  await own.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit your review' });
  await edit.getByRole('radio', { name: '5 stars' }).check({ force: true });
  const changed = `${text} Still fine a day later.`;
  await edit.getByLabel('Your review').fill(changed);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByTestId('review-saved')).toHaveText('Your review is updated.');
  const relisted = page.getByRole('listitem').filter({ hasText: changed });
  await expect(relisted).toContainText('edited');
  await expect(relisted.getByTestId('verified-buyer')).toBeVisible();

  await page.getByTestId('own-review').getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('group', { name: 'Delete your review? This cannot be undone.' })
    .getByRole('button', { name: 'Yes, delete' })
    .click();
  await expect(page.getByTestId('review-deleted')).toHaveText('Your review is deleted.');
  await expect(page.getByRole('listitem').filter({ hasText: changed })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Leave a review' })).toBeVisible();
}

/** Downloads the export from the profile and reads it. */
async function downloadExport(page: Page, t: (key: string) => string) {
  await page.goto('/profile');
  const section = page.getByTestId('account-data');
  await expect(section.getByRole('heading', { name: t('profile.data.title') })).toBeVisible();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: t('profile.data.export') }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^account-data-\d{4}-\d{2}-\d{2}\.json$/);
  await expect(section.getByText(t('profile.data.exported'))).toBeVisible();
  const file = await download.path();
  return JSON.parse(readFileSync(file, 'utf8')) as {
    profile: { email: string };
    orders: Array<{ status: string; lines: unknown[] }>;
    sessions: unknown[];
  };
}

/** Deletes the account from the profile (a wrong password first), then fails to log in with it. */
async function deleteAndFailToLogIn(page: Page, t: (key: string) => string, email: string, password: string) {
  await page.getByTestId('delete-account').click();
  const modal = page.getByTestId('delete-account-modal');
  await expect(modal.getByRole('heading', { name: t('profile.data.dialogTitle') })).toBeVisible();
  await expect(modal.getByText(t('profile.data.kept'))).toBeVisible();
  await expectNoHorizontalOverflow(page, modal);
  const field = modal.getByLabel(t('profile.data.password'));
  await field.fill('Wrongpass1');
  await modal.getByRole('button', { name: t('profile.data.confirm') }).click();
  await expect(modal.getByText(t('validation.wrongPassword'))).toBeVisible();
  await field.fill(password);
  await modal.getByRole('button', { name: t('profile.data.confirm') }).click();

  await expect(page).toHaveURL(/\/$/);
  const notice = page.getByTestId('notice-modal');
  await expect(notice.getByRole('heading', { name: t('auth.notice.accountDeleted.title') })).toBeVisible();
  await notice.getByRole('button', { name: t('common.ok') }).click();
  await expect(page.getByTestId('account-button')).toHaveAccessibleName(t('auth.login'));

  await page.getByTestId('account-button').click();
  const auth = page.getByTestId('auth-modal');
  await auth.getByLabel(t('auth.email')).fill(email);
  await auth.getByLabel(t('auth.password'), { exact: true }).fill(password);
  await auth.getByRole('button', { name: t('auth.loginSubmit'), exact: true }).click();
  await expect(auth.getByText(t('invalidCredentials'))).toBeVisible();
}

test('English at 1280 px: a buyer’s review is verified and theirs to change; the data downloads and the account goes', async ({
  page,
}, info) => {
  const t = translator('en');
  const customer = newCustomer(info, 'data');
  await register(page, customer);
  const { productId } = await buyInTheBrowser(page, info);
  await reviewAsBuyer(page, productId);

  const data = await downloadExport(page, t);
  expect(data.profile.email).toBe(customer.email);
  expect(data.orders.map((order) => order.status)).toContain('fulfilled');
  expect(data.sessions.length).toBeGreaterThan(0);

  await deleteAndFailToLogIn(page, t, customer.email, customer.password);
});

test('Portuguese at 320 px: the data downloads and the account goes, its login failing after', async ({
  page,
  request,
}, info) => {
  const t = translator('pt-BR');
  const run = `${Date.now().toString(36)}${info.retry}`;
  const customer = { name: `Dados${run}`.slice(0, 16), email: `dados-${run}@example.com`, password: 'Firstpass1' };
  const registered = await request.post('/api/register', {
    data: { ...customer, password_confirmation: customer.password, locale: 'pt-BR' },
  });
  expect(registered.ok()).toBe(true);
  const { token, user } = (await registered.json()) as { token: string; user: unknown };
  const orderId = await buyThroughTheApi(request, token, info);

  await page.setViewportSize({ width: 320, height: 740 });
  await page.addInitScript(
    ({ token, user }) => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      localStorage.setItem('lang', 'pt-BR');
      localStorage.setItem('auth-token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { token, user },
  );
  const data = await downloadExport(page, t);
  expect(data.profile.email).toBe(customer.email);
  expect(data.orders).toEqual([expect.objectContaining({ id: orderId, status: 'fulfilled' })]);

  await deleteAndFailToLogIn(page, t, customer.email, customer.password);
  // The address is free for a new account.
  const again = await request.post('/api/register', {
    data: { ...customer, password_confirmation: customer.password, locale: 'pt-BR' },
  });
  expect(again.status()).toBe(201);
});
