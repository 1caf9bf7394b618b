import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { PHONE } from './shop-helpers.ts';

const screenshots = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../docs/screenshots');

const isMobile = (info: TestInfo) => info.project.name === 'mobile';

/** "BRL 1 234.50" -> 1234.5 */
const priceOf = (text: string) => Number(text.replace(/[^\d.]/g, ''));

async function cardPrices(page: Page) {
  const texts = await page.getByTestId('product-card').getByTestId('price').allTextContents();
  return texts.map(priceOf);
}

async function openSearch(page: Page, info: TestInfo) {
  if (isMobile(info)) await page.getByTestId('search-toggle').click();
  return page.getByRole('combobox', { name: 'Search products' });
}

async function choose(page: Page, trigger: string, option: string) {
  await page.getByRole('combobox', { name: trigger }).click();
  await page.getByRole('option', { name: option }).click();
}

test('home shows popular products and the layout', PHONE, async ({ page }, info) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Popular', level: 1 })).toBeVisible();
  await expect(page.getByTestId('product-card').first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Popular' })).toHaveClass(/\bactive\b/);
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Privacy policy' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Accepted cards' })).toBeVisible();

  // Covers have fixed dimensions, so nothing shifts while they load.
  const cover = page.getByTestId('product-card').first().locator('img').first();
  await expect(cover).toHaveAttribute('width', '320');
  await expect(cover).toHaveAttribute('height', '200');

  await page.waitForLoadState('networkidle');
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, `${info.project.name}.png`) });
});

test('category: filter by price and country, sort, and keep it all in the URL', PHONE, async ({ page }, info) => {
  await page.goto('/');
  await page.getByRole('navigation', { name: 'Catalogue' }).getByRole('link', { name: /Steam/ }).click();
  await expect(page).toHaveURL(/\/category\/steam$/);
  await expect(page.getByRole('heading', { name: 'Steam', level: 1 })).toBeVisible();
  await expect(page.getByTestId('page-subtitle')).toHaveText(/\d+ products found/);
  await expect(page.getByRole('navigation', { name: 'Catalogue' }).getByRole('link', { name: /Steam/ })).toHaveClass(
    /\bactive\b/,
  );

  if (isMobile(info)) await page.getByTestId('filters-toggle').click();

  const min = page.getByRole('textbox', { name: 'Minimum price' });
  await min.fill('1x00');
  await expect(min).toHaveValue('100');
  await min.press('Enter');
  await expect(page).toHaveURL(/minPrice=100/);
  await expect.poll(async () => (await cardPrices(page)).every((price) => price >= 100)).toBe(true);

  await choose(page, 'Country', 'United States');
  await expect(page).toHaveURL(/country=US/);
  await expect
    .poll(async () => [...new Set(await page.getByTestId('card-country').allTextContents())])
    .toEqual(['United States']);

  await choose(page, 'Sort', 'Price: low to high');
  await expect(page).toHaveURL(/sort=increase/);
  await expect
    .poll(async () => {
      const shown = await cardPrices(page);
      return shown.length > 0 && shown.every((price, index) => index === 0 || (shown[index - 1] ?? 0) <= price);
    })
    .toBe(true);
  const prices = await cardPrices(page);

  // A shared or reloaded link shows the same filtered page.
  const url = page.url();
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByRole('combobox', { name: 'Sort' })).toHaveText(/Price: low to high/);
  expect(await cardPrices(page)).toEqual(prices);
});

/** Follows a link the way a keyboard does, so the page does not scroll to it first. */
async function follow(link: ReturnType<Page['getByRole']>) {
  await link.evaluate((element) => (element as HTMLElement).focus({ preventScroll: true }));
  await link.page().keyboard.press('Enter');
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

test(
  'scroll: a category keeps its place between categories and for Back; a product starts at the top',
  PHONE,
  async ({ page }) => {
    const catalogue = page.getByRole('navigation', { name: 'Catalogue' });
    await page.goto('/category/steam');
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 700));
    await expect.poll(() => scrollY(page)).toBe(700);

    // A category not seen yet starts at the top; going on to one seen before restores its place.
    await follow(catalogue.getByRole('link', { name: /PlayStation/ }));
    await expect(page.getByRole('heading', { name: 'PlayStation', level: 1 })).toBeVisible();
    await expect.poll(() => scrollY(page)).toBe(0);
    await follow(catalogue.getByRole('link', { name: /Steam/ }));
    await expect(page.getByRole('heading', { name: 'Steam', level: 1 })).toBeVisible();
    await expect.poll(() => scrollY(page)).toBe(700);

    await follow(page.getByTestId('product-card').nth(4).getByRole('link', { name: 'More details' }));
    await expect(page.getByTestId('product-page')).toBeVisible();
    await expect.poll(() => scrollY(page)).toBe(0);

    await page.goBack();
    await expect(page.getByRole('heading', { name: 'Steam', level: 1 })).toBeVisible();
    await expect.poll(() => scrollY(page)).toBe(700);
  },
);

test('product page: details, instructions, and Buy fills the basket', PHONE, async ({ page }) => {
  await page.goto('/category/steam?sort=counts');
  const card = page
    .getByTestId('product-card')
    .filter({ has: page.getByRole('button', { name: /^Buy/, disabled: false }) })
    .first();
  const name = await card.getByRole('heading').textContent();
  await card.getByRole('link', { name: 'More details' }).click();

  await expect(page).toHaveURL(/\/product\/\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: name ?? '' })).toBeVisible();
  await expect(page.getByTestId('stock-state')).toHaveText('In stock');
  await expect(page.getByTestId('product-country')).not.toBeEmpty();
  await expect(page.getByRole('heading', { name: 'Description' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Reviews' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Similar products' })).toBeVisible();

  await page.getByRole('link', { name: 'How to activate' }).click();
  await expect(page.getByTestId('instructions')).toBeInViewport();

  await page.getByTestId('product-page').getByRole('button', { name: 'Buy', exact: true }).click();
  const notification = page.getByTestId('added-notification');
  await expect(notification).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  const basket = await page.evaluate(() => JSON.parse(localStorage.getItem('basket') ?? 'null'));
  expect(basket.owner).toBeNull();
  expect(basket.lines).toHaveLength(1);
  expect(basket.lines[0].pivot.quantity).toBe(1);

  await notification.getByRole('button', { name: 'Open basket' }).click();
  await expect(page.getByTestId('basket-panel')).toBeVisible();
  await expect(page.getByTestId('basket-panel')).toContainText(name ?? '');
});

test('search: hints by name and by article, and a typo still finds products', PHONE, async ({ page }, info) => {
  await page.goto('/');
  let search = await openSearch(page, info);
  await search.fill('steam');
  const byName = page.getByRole('option', { name: /Steam Gift Card/ }).first();
  await expect(byName).toBeVisible();
  const hint = (await byName.getByTestId('hint-name').textContent()) ?? '';
  await byName.click();
  await expect(page).toHaveURL(`/search/${encodeURIComponent(hint)}`);
  await expect(page.getByRole('heading', { level: 1, name: `Results for “${hint}”` })).toBeVisible();
  await expect(page.getByTestId('product-card').first()).toBeVisible();

  search = await openSearch(page, info);
  await search.fill('1');
  const byArticle = page.getByRole('option', { name: /\bArt\. 1 / });
  await expect(byArticle).toBeVisible();
  await byArticle.click();
  await expect(page).toHaveURL(/\/product\/1$/);
  // The box empties itself when the page changes; typing before the product page has rendered
  // would race that, which no person can do.
  await expect(page.getByTestId('product-page')).toBeVisible();

  search = await openSearch(page, info);
  await search.fill('stem');
  await expect(search).toHaveValue('stem');
  await search.press('Enter');
  await expect(page).toHaveURL('/search/stem');
  await expect(page.getByRole('heading', { level: 1, name: 'Results for “stem”' })).toBeVisible();
  await expect(page.getByTestId('page-subtitle')).not.toHaveText(/^0 /);
  await expect(page.getByTestId('product-card').filter({ hasText: 'Steam' }).first()).toBeVisible();
});

test('information pages load their texts on demand, in the language being read', PHONE, async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL('/faq');
  await expect(page.getByRole('heading', { name: 'FAQ', level: 1 })).toBeVisible();
  await expect(page.getByText('How fast will I get my code?')).toBeVisible();

  // Switching language on the page brings that language's part of the catalogue before it renders.
  await page.getByTestId('language-switcher').selectOption('ru');
  await expect(page.getByRole('heading', { name: 'Частые вопросы', level: 1 })).toBeVisible();
  await expect(page.getByText('Как быстро я получу код?')).toBeVisible();

  // Opened directly, in the remembered language.
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'Политика конфиденциальности', level: 1 })).toBeVisible();
  await expect(page.getByText(/^Здесь описано, какие персональные данные Giftstore собирает/)).toBeVisible();
});

test('language switch translates the page and is remembered', PHONE, async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Popular', level: 1 })).toBeVisible();
  await page.getByTestId('language-switcher').selectOption('ru');
  await expect(page.getByRole('heading', { name: 'Популярное', level: 1 })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByTestId('product-card').first().getByRole('link', { name: 'Подробнее' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Популярное', level: 1 })).toBeVisible();

  await page.getByTestId('language-switcher').selectOption('hi');
  await expect(page.getByRole('heading', { name: 'लोकप्रिय', level: 1 })).toBeVisible();
  await page.getByTestId('language-switcher').selectOption('pt-BR');
  await expect(page.getByRole('heading', { name: 'Populares', level: 1 })).toBeVisible();
});

test('an unknown path shows the 404 page inside the store', PHONE, async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();

  await page.goto('/product/999999');
  await expect(page.getByTestId('not-found')).toBeVisible();

  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL('/');
});
