import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { PHONE } from './shop-helpers.ts';

/**
 * Search as shoppers of two languages use it: the words they type (an abbreviation, a platform's
 * name in Cyrillic) bring the right hints, and the keyboard alone picks one.
 */

async function openSearch(page: Page, info: TestInfo, label: string) {
  if (info.project.name === 'mobile') await page.getByTestId('search-toggle').click();
  return page.getByRole('combobox', { name: label });
}

test(
  '"psn" in English shows PlayStation hints with price and region; arrows and Enter pick one',
  PHONE,
  async ({ page }, info) => {
    await page.goto('/');
    const search = await openSearch(page, info, 'Search products');
    await search.pressSequentially('psn');
    const options = page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option');
    // An option shows its name at once; cover, region and price arrive with their own small module.
    await expect(options.first().getByTestId('hint-name')).toBeVisible();
    const names = await options.getByTestId('hint-name').allTextContents();
    expect(names.length).toBeGreaterThan(1);
    for (const name of names) expect(name).toContain('PlayStation');
    await expect(options.first()).toContainText(/BRL\s?[\d\s]+\.\d{2}/);
    await expect(page.getByRole('status').filter({ hasText: /\d+ suggestions?\./ })).toBeAttached();

    await search.press('ArrowDown');
    await search.press('ArrowDown');
    const second = options.nth(1);
    await expect(second).toHaveAttribute('aria-selected', 'true');
    await expect(search).toHaveAttribute('aria-activedescendant', (await second.getAttribute('id')) ?? '');
    const chosen = (await second.getByTestId('hint-name').textContent()) ?? '';
    await search.press('Enter');
    await expect(page).toHaveURL(`/search/${encodeURIComponent(chosen)}`);
    await expect(page.getByRole('heading', { level: 1, name: `Results for “${chosen}”` })).toBeVisible();
    await expect(page.getByTestId('product-card').first()).toContainText('PlayStation');
  },
);

test('"стим" in Russian shows Steam hints; arrows and Enter pick one', PHONE, async ({ page }, info) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'ru'));
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  const search = await openSearch(page, info, 'Поиск товаров');
  await search.pressSequentially('стим');
  const options = page.getByRole('listbox').getByRole('option');
  // An option shows its name at once; cover, region and price arrive with their own small module.
  await expect(options.first().getByTestId('hint-name')).toBeVisible();
  const names = await options.getByTestId('hint-name').allTextContents();
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) expect(name).toContain('Steam');

  await search.press('ArrowDown');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  const chosen = (await options.first().getByTestId('hint-name').textContent()) ?? '';
  await search.press('Enter');
  await expect(page).toHaveURL(`/search/${encodeURIComponent(chosen)}`);
  await expect(page.getByTestId('product-card').first()).toContainText('Steam');
});

test('at 320 px in Portuguese a hint shows its whole name, face value and region included', PHONE, async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 700 });
  await page.addInitScript(() => localStorage.setItem('lang', 'pt-BR'));
  await page.goto('/');
  await page.getByTestId('search-toggle').click();
  const search = page.getByRole('combobox', { name: 'Buscar produtos' });
  // A typo, as shoppers type on a phone.
  await search.pressSequentially('plaistation');
  const names = page.getByRole('listbox').getByRole('option').getByTestId('hint-name');
  await expect(names.first()).toBeVisible();
  expect(await names.count()).toBeGreaterThan(1);
  for (const name of await names.all()) {
    const text = (await name.textContent()) ?? '';
    expect(text).toMatch(/\d/);
    // Nothing of the name is hidden by the clamp.
    expect(await name.evaluate((element) => element.scrollHeight <= element.clientHeight + 1), text).toBe(true);
  }
});
