import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { placeOrder } from './shop-helpers.ts';

/**
 * axe-core on every route and on the open dialogs: no serious or critical violation (contrast,
 * names, labels, ...), and none at all of the two rules Lighthouse also weighs, heading order and a
 * visible label missing from the accessible name. Every route at a desktop width; at a phone width
 * the screens whose phone layout differs (header toggles, chip row, filters). Each violation is
 * reported with the elements it was found on, so a failure says what to fix.
 */

const ROUTES = [
  '/',
  '/category/steam',
  '/product/2',
  '/product/1',
  '/search/steam',
  '/search/zzzzqqq',
  '/noveltes',
  '/discounts',
  '/holiday',
  '/privacy',
  '/contract-offer',
  '/requisites',
  '/guarantees',
  '/faq',
  '/no-such-page',
];
const SIGNED_IN_ROUTES = ['/checkout', '/profile', '/payment-confirm/1', '/payment-error/1'];
const PHONE_ROUTES = ['/', '/category/steam', '/product/2', '/search/zzzzqqq'];
/** Reported whatever axe rates them: Lighthouse's accessibility score counts them. */
const ALWAYS = new Set(['heading-order', 'label-content-name-mismatch']);

async function seriousViolations(page: Page, where: string, include?: string): Promise<string[]> {
  // Every rule axe runs by default, and the one it still calls experimental.
  let builder = new AxeBuilder({ page }).options({ rules: { 'label-content-name-mismatch': { enabled: true } } });
  if (include) builder = builder.include(include);
  const { violations } = await builder.analyze();
  return violations
    .filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical' || ALWAYS.has(violation.id),
    )
    .map(
      (violation) =>
        `${where}: ${violation.id} (${violation.impact}) on ${violation.nodes
          .slice(0, 5)
          .map((node) => node.target.join(' '))
          .join(', ')}${violation.nodes.length > 5 ? ` and ${violation.nodes.length - 5} more` : ''}`,
    );
}

async function settled(page: Page) {
  await expect(page.getByRole('progressbar', { includeHidden: true })).toHaveAttribute('aria-hidden', 'true');
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  // Entrance transitions finished: axe reads colours as they end, not halfway.
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
}

async function navigate(page: Page, url: string) {
  await page.evaluate((target) => {
    window.history.pushState(null, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  await expect(page).toHaveURL((current) => `${current.pathname}${current.search}` === url);
  await settled(page);
}

test.describe.configure({ mode: 'parallel' });

test('no serious or critical axe violation on a phone: header, chips, filters, product', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 375, height: 800 });
  const found: string[] = [];
  await page.goto('/');
  await settled(page);
  for (const route of PHONE_ROUTES) {
    await navigate(page, route);
    found.push(...(await seriousViolations(page, `${route} @375`)));
  }
  await navigate(page, '/category/steam');
  await page.getByTestId('filters-toggle').click();
  await page.getByTestId('search-toggle').click();
  found.push(...(await seriousViolations(page, 'filters and search open @375')));
  expect(found, `${found.length} violations`).toEqual([]);
});

{
  const width = 1280;
  // The public routes, and the dialogs with the signed-in routes, are two tests so that the two
  // halves of the walk run on two workers.
  test('no serious or critical axe violation on any public route', async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 800 });
    const found: string[] = [];
    await page.goto('/');
    await settled(page);
    for (const route of ROUTES) {
      await navigate(page, route);
      found.push(...(await seriousViolations(page, route)));
    }
    expect(found, `${found.length} violations`).toEqual([]);
  });

  test('no serious or critical axe violation on a dialog or a signed-in route', async ({ page, request }, info) => {
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 800 });
    const found: string[] = [];

    await page.goto('/');
    await settled(page);
    await page.getByTestId('account-button').click();
    await expect(page.getByTestId('auth-modal')).toBeVisible();
    await settled(page);
    found.push(...(await seriousViolations(page, 'login dialog')));
    await page.getByTestId('auth-modal').getByRole('tab').last().click();
    found.push(...(await seriousViolations(page, 'sign-up dialog')));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('auth-modal')).toBeHidden();

    const password = 'Axepass123';
    const run = `${Date.now().toString(36)}${info.retry}${width}`;
    const registered = await request.post('/api/register', {
      data: {
        name: `Axe${run}`.slice(0, 16),
        email: `axe-${run}@example.com`,
        password,
        password_confirmation: password,
        locale: 'en',
      },
    });
    expect(registered.ok()).toBe(true);
    const { token, user } = (await registered.json()) as { token: string; user: unknown };
    await page.evaluate(
      ({ token, user }) => {
        localStorage.setItem('auth-token', token);
        localStorage.setItem('user', JSON.stringify(user));
      },
      { token, user },
    );
    await page.goto('/');
    await settled(page);
    const buyable = page.getByTestId('product-card').filter({ has: page.locator('button:enabled') });
    await buyable.first().getByRole('button', { name: /^Buy/ }).click();
    const notification = page.getByTestId('added-notification');
    await expect(notification).toBeVisible();
    found.push(...(await seriousViolations(page, 'added notification')));
    // It goes by itself after a few seconds.
    await expect(notification).toBeHidden({ timeout: 20_000 });
    await page.getByTestId('cart-button').click();
    await expect(page.getByTestId('basket-panel').getByTestId('basket-line')).toHaveCount(1);
    await settled(page);
    found.push(...(await seriousViolations(page, 'basket')));
    await page.keyboard.press('Escape');

    for (const route of SIGNED_IN_ROUTES) {
      await navigate(page, route);
      found.push(...(await seriousViolations(page, route)));
    }

    // An order waiting for its payment, placed through the API: the profile's history and its page.
    const orderId = await placeOrder(request, token, 5);
    for (const route of ['/profile', `/profile?order=${orderId}`]) {
      await navigate(page, route);
      found.push(...(await seriousViolations(page, `${route} (with an order)`)));
    }

    await navigate(page, '/profile');
    await page.getByTestId('delete-account').click();
    await expect(page.getByTestId('delete-account-modal')).toBeVisible();
    found.push(...(await seriousViolations(page, 'delete account dialog')));
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('delete-account-modal')).toBeHidden();

    const reviewed = await request.post('/api/products/feedbacks', {
      headers: { authorization: `Bearer ${token}`, 'x-requested-with': 'XMLHttpRequest' },
      data: { productId: 3, rating: 4, text: 'Fine card.' },
    });
    expect(reviewed.status()).toBe(201);
    await navigate(page, '/product/3');
    await expect(page.getByTestId('own-review')).toBeVisible();
    found.push(...(await seriousViolations(page, 'own review')));
    await page.getByTestId('own-review').getByRole('button', { name: 'Delete' }).click();
    found.push(...(await seriousViolations(page, 'own review, asking to delete')));

    expect(found, `${found.length} violations`).toEqual([]);
  });
}
