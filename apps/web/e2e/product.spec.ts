import { expect, test } from '@playwright/test';
import { PHONE } from './shop-helpers.ts';

test('a product page speaks the interface language: description and activation steps', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'pt-BR'));
  await page.goto('/category/steam');
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/product\/\d+$/);
  await expect(page.getByTestId('instructions')).toContainText('Carteira Steam');
  await expect(page.getByTestId('product-page')).toContainText('Adiciona fundos à Carteira Steam');
  await expect(page.getByTestId('product-page')).not.toContainText('Adds funds to a Steam Wallet');
});

test('a page past the end of a category says so and leads to the last page', async ({ page }) => {
  await page.goto('/category/steam?page=99');
  await expect(page.getByText('Page 99 is past the end of this list')).toBeVisible();
  await expect(page.getByText('No products yet')).toHaveCount(0);
  await page.getByTestId('last-page-link').click();
  await expect(page).toHaveURL(/\/category\/steam(\?page=\d+)?$/);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});

test('filters that exclude everything offer to clear them', async ({ page }) => {
  await page.goto('/category/steam?minPrice=999999&sort=increase');
  await expect(page.getByText('No products match these filters')).toBeVisible();
  await page.getByTestId('clear-filters').click();
  await expect(page).toHaveURL(/\/category\/steam\?sort=increase$/);
  await expect(page.getByTestId('product-card').first()).toBeVisible();
});

test("a category's country filter offers only the countries it has", PHONE, async ({ page }, info) => {
  await page.goto('/category/netflix');
  if (info.project.name === 'mobile') await page.getByTestId('filters-toggle').click();
  await page.getByRole('combobox', { name: 'Country' }).click();
  const options = await page.getByRole('option').allTextContents();
  expect(options.slice(1).sort()).toEqual(['Brazil', 'India', 'Türkiye', 'United States']);
});

for (const [listing, path] of [
  ['the home page', '/'],
  ['a category', '/category/google-play'],
  ['search results', '/search/gift'],
] as const) {
  test(`Back from a product returns to ${listing} where it was left`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    await page.mouse.wheel(0, 1000);
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(1000);
    const cards = page.getByTestId('product-card');
    const count = await cards.count();
    let link = cards.first().getByRole('link', { name: 'More details' });
    for (let index = 0; index < count; index += 1) {
      const candidate = cards.nth(index).getByRole('link', { name: 'More details' });
      const box = await candidate.boundingBox();
      const height = page.viewportSize()?.height ?? 0;
      if (box && box.y > 80 && box.y + box.height < height - 20) {
        link = candidate;
        break;
      }
    }
    await link.click();
    await expect(page.getByTestId('product-page')).toBeVisible();
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(0);

    await page.goBack();
    await expect(page.getByTestId('product-card').first()).toBeVisible();
    await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(1000);
  });
}

test('the product page says where the card activates and buys the chosen quantity', PHONE, async ({ page }) => {
  await page.goto('/category/steam?sort=counts');
  await page
    .getByTestId('product-card')
    .filter({ has: page.getByRole('button', { name: /^Buy/, disabled: false }) })
    .first()
    .getByRole('link', { name: 'More details' })
    .click();
  await expect(page.getByTestId('activates-on')).toHaveText(/^Activates only on accounts from \S/);
  await expect(page.getByTestId('stock-count')).toHaveText(/\d+ codes? in stock/);
  await expect(page.getByTestId('payment-methods')).toContainText('Account balance');
  await page.getByRole('button', { name: 'One more' }).click();
  await page.getByRole('button', { name: 'One more' }).click();
  await expect(page.getByLabel('Quantity')).toHaveValue('3');
  await page.getByTestId('product-page').getByRole('button', { name: 'Buy', exact: true }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('3');
});

test('a sold-out product offers to write when it is back', async ({ page }) => {
  let soldOut: number | undefined;
  for (let page_ = 1; soldOut === undefined && page_ <= 20; page_ += 1) {
    const response = await page.request.get(`/api/novelties?page=${page_}`);
    const { result } = (await response.json()) as { result: { products: { id: number; in_stock: boolean }[] } };
    if (result.products.length === 0) break;
    soldOut = result.products.find((product) => !product.in_stock)?.id;
  }
  expect(soldOut, 'a sold-out demo product').toBeDefined();
  await page.goto(`/product/${soldOut}`);
  await expect(page.getByTestId('stock-state')).toHaveText('Out of stock');
  await page.getByLabel('Tell me when it is back: your email').fill('watcher@example.com');
  await page.getByRole('button', { name: 'Notify me' }).click();
  await expect(page.getByTestId('notify-done')).toContainText('watcher@example.com');
});

test('cards show the rating of a reviewed product, the product page the same, an unreviewed one none', async ({
  page,
  request,
}) => {
  type Listed = { id: number; rating: { average: number | null; count: number } };
  const listed = async (url: string) => ((await (await request.get(url)).json()).result.products as Listed[]) ?? [];
  const label = ({ average, count }: Listed['rating']) =>
    `Rated ${average?.toFixed(1)} out of 5, ${count} ${count === 1 ? 'review' : 'reviews'}`;
  const cardOf = (id: number) =>
    page.getByTestId('product-card').filter({ has: page.locator(`a[href="/product/${id}"]`) });

  // The home page's popular products: every reviewed card shows its rating, every other none.
  const popular = (await listed('/api/popular-products?limit=24')).slice(0, 8);
  await page.goto('/');
  await expect(cardOf((popular[0] as Listed).id)).toBeVisible();
  for (const product of popular) {
    const rating = cardOf(product.id).getByRole('img', { name: /^Rated / });
    if (product.rating.average === null) await expect(rating).toHaveCount(0);
    else await expect(rating).toHaveAccessibleName(label(product.rating));
  }

  // A category: a reviewed card shows a star, the average and the count, and its page says the same.
  const products = await listed('/api/categories/steam?limit=24');
  const reviewed = products.find((product) => product.rating.count > 1) as Listed;
  const unreviewed = products.find((product) => product.rating.count === 0);
  expect(reviewed).toBeDefined();
  expect(unreviewed).toBeDefined();
  await page.goto('/category/steam');
  const card = cardOf(reviewed.id);
  const rating = card.getByRole('img', { name: label(reviewed.rating) });
  await expect(rating).toBeVisible();
  await expect(rating).toHaveText(`${reviewed.rating.average?.toFixed(1)}(${reviewed.rating.count})`);
  await expect(rating.locator('svg')).toBeVisible();
  await expect(cardOf((unreviewed as Listed).id).getByRole('img', { name: /^Rated / })).toHaveCount(0);

  await card.getByRole('link', { name: 'More details' }).click();
  await expect(page).toHaveURL(`/product/${reviewed.id}`);
  await expect(page.getByTestId('product-page').getByRole('img', { name: label(reviewed.rating) })).toBeVisible();
});
