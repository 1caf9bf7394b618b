import { expect, type Locator, type Page, test } from '@playwright/test';

/**
 * The browse-and-login journey with the keyboard alone: skip to the page, open a category, a
 * product, add it to the basket, open and close the basket, log in; after every dialog the focus is
 * back on what opened it.
 */

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

/** Presses `key` until `target` has the focus, as a keyboard user walks the page; fails if it never does. */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab', limit = 60) {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < limit; presses += 1) {
    if (await isFocused(target)) return presses;
    await page.keyboard.press(key);
  }
  expect(await isFocused(target), `${limit} presses of ${key} never reached ${target}`).toBe(true);
  return limit;
}

test('browse, add to the basket and log in with the keyboard alone', async ({ page, request }, info) => {
  test.setTimeout(120_000);
  const password = 'Keyboard123';
  const run = `${Date.now().toString(36)}${info.retry}`;
  const email = `keys-${run}@example.com`;
  const registered = await request.post('/api/register', {
    data: { name: `Keys${run}`.slice(0, 16), email, password, password_confirmation: password, locale: 'en' },
  });
  expect(registered.ok()).toBe(true);

  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // The first Tab stop is the skip link; it lands in the page, past the header and the sidebar.
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('main')).toBeFocused();
  // From the page, the first product's link is a few presses away, not twenty.
  const firstProduct = page.getByTestId('product-card').first().getByRole('heading').getByRole('link');
  expect(await tabTo(page, firstProduct, 'Tab', 8)).toBeLessThan(8);

  // A category from the sidebar.
  const steam = page.getByRole('navigation', { name: 'Catalogue' }).getByRole('link', { name: /Steam/ });
  await tabTo(page, steam, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/category\/steam$/);
  await expect(page.getByRole('heading', { name: 'Steam', level: 1 })).toBeVisible();

  // Into the page and onto the first product in stock.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Tab');
  const card = page
    .getByTestId('product-card')
    .filter({ has: page.locator('button:enabled') })
    .first();
  const buy = card.getByRole('button', { name: /^Buy/ });
  await tabTo(page, buy);
  await page.keyboard.press('Enter');
  const notification = page.getByTestId('added-notification');
  await expect(notification).toBeVisible();
  await expect(buy).toBeFocused();

  // The basket from the header, closed with Escape: focus back on the basket button.
  const cartButton = page.getByTestId('cart-button');
  await tabTo(page, cartButton, 'Shift+Tab', 120);
  await page.keyboard.press('Enter');
  const panel = page.getByTestId('basket-panel');
  await expect(panel.getByTestId('basket-line')).toHaveCount(1);
  await expect
    .poll(() => panel.evaluate((element) => element.contains(document.activeElement)), {
      message: 'focus in the basket',
    })
    .toBe(true);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(cartButton).toBeFocused();

  // The login dialog, closed with Escape: focus back on Log in.
  const account = page.getByTestId('account-button');
  await tabTo(page, account);
  await page.keyboard.press('Enter');
  const modal = page.getByTestId('auth-modal');
  await expect(modal).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(account).toBeFocused();

  // Opened again and closed with its close button.
  await page.keyboard.press('Enter');
  await expect(modal).toBeVisible();
  await tabTo(page, modal.getByRole('button', { name: 'Close' }));
  await page.keyboard.press('Enter');
  await expect(modal).toBeHidden();
  await expect(account).toBeFocused();

  // Logging in: typed into the fields, sent with Enter. It leads to the profile page, where Profile is
  // the current page's disabled button: focus starts on the page.
  await page.keyboard.press('Enter');
  await expect(modal).toBeVisible();
  const emailField = modal.getByLabel('Email');
  await tabTo(page, emailField);
  await page.keyboard.type(email);
  await tabTo(page, modal.getByLabel('Password', { exact: true }));
  await page.keyboard.type(password);
  await page.keyboard.press('Enter');
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(account).toHaveAccessibleName('Profile');
  await expect(page.locator('main')).toBeFocused();
  // And the next Tab is inside the profile page.
  await page.keyboard.press('Tab');
  await expect.poll(() => page.locator('main').evaluate((main) => main.contains(document.activeElement))).toBe(true);
});
