import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { buyableCards, newCustomer } from './shop-helpers.ts';

// Prices in the shopper's currency: Russian shows roubles and Hindi rupees at the demo store's
// rates, each marked "≈"; what is charged stays in BRL, and the checkout says so.

interface Shown {
  price_minor: number;
  display: { currency: string; rate: string; set_at: string | null };
}

/** What the store must show for `minor` BRL cents at `rate`: whole units, rounded up, in exact arithmetic. */
function expectedWhole(minor: number, rate: string): number {
  const [units = '0', fraction = ''] = rate.split('.');
  const micros = BigInt(units) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return Number((BigInt(minor) * 10_000n + micros - 1n) / micros);
}

const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));
/** The text without spaces and decimal marks: "1 234,50 BRL" holds 123450. */
const plain = (text: string | null) => (text ?? '').replace(/[\s.,]/g, '');

/** A signed-in shopper in `lang`, registered through the API, on the home page. */
async function shopperIn(page: Page, info: TestInfo, lang: string) {
  const customer = newCustomer(info, `Rate${lang.slice(0, 2)}`);
  const registered = await page.request.post('/api/register', {
    data: {
      name: customer.name,
      email: customer.email,
      password: customer.password,
      password_confirmation: customer.password,
      locale: lang,
    },
  });
  expect(registered.ok()).toBe(true);
  const { token, user } = (await registered.json()) as { token: string; user: unknown };
  await page.addInitScript(
    ({ lang, token, user }) => {
      localStorage.setItem('lang', lang);
      localStorage.setItem('auth-token', token);
      localStorage.setItem('user', JSON.stringify(user));
    },
    { lang, token, user },
  );
  await page.goto('/');
}

const CASES = [
  { lang: 'ru', currency: 'RUB', shown: /^≈\s[\d\s]+\s₽$/ },
  { lang: 'hi', currency: 'INR', shown: /^≈\s₹[\d\s]+$/ },
] as const;

for (const { lang, currency, shown } of CASES) {
  test(`${lang}: prices in ${currency} at the store's rate, the checkout charging BRL`, async ({ page }, info) => {
    await shopperIn(page, info, lang);
    const index = info.project.name === 'desktop' ? 3 : 2;
    const card = buyableCards(page).nth(index);
    const link = card.getByRole('heading', { level: 2 }).getByRole('link');
    const id = Number((await link.getAttribute('href'))?.split('/').pop());
    const product = (await (await page.request.get(`/api/products/${id}?lang=${lang}`)).json()) as Shown;
    expect(product.display.currency).toBe(currency);
    const whole = expectedWhole(product.price_minor, product.display.rate);

    // The card: the converted price only.
    const price = card.getByTestId('price');
    await expect(price).toHaveText(shown);
    expect(digits(await price.textContent())).toBe(whole);
    await card.locator('button:enabled').click();
    await expect(page.getByTestId('added-notification')).toBeVisible();

    // The product page: the converted price, and beside it the BRL price that is charged.
    await page.goto(`/product/${id}`);
    const productPage = page.getByTestId('product-page');
    const charged = productPage.getByTestId('price-charged');
    // The buy box's price, beside the note (similar products further down have theirs).
    const mainPrice = charged.locator('..').getByTestId('price');
    await expect(mainPrice).toHaveText(shown);
    expect(digits(await mainPrice.textContent())).toBe(whole);
    await expect(charged).toContainText('BRL');
    expect(plain(await charged.textContent())).toContain(String(product.price_minor));

    // Checkout: the BRL total is the amount charged; the converted one is "about", at the rate's date.
    await page.goto('/checkout');
    const checkout = page.getByTestId('checkout-page');
    await expect(checkout.getByTestId('checkout-line')).toHaveCount(1);
    const total = checkout.getByTestId('basket-total');
    await expect(total).toContainText('BRL');
    const approx = checkout.getByTestId('basket-total-approx');
    await expect(approx).toContainText('BRL');
    await expect(approx).toContainText(currency === 'RUB' ? '₽' : '₹');
    expect(plain(await approx.textContent())).toContain(String(product.price_minor));
    expect(Number(/≈\s*₹?([\d\s]+)/.exec((await approx.textContent()) ?? '')?.[1]?.replace(/\s/g, ''))).toBe(whole);
    await expect(checkout.getByTestId('checkout-charged-in')).toContainText('BRL');
    await page.screenshot({ path: info.outputPath(`checkout-${lang}.png`) });
  });
}

test('the basket and the checkout show the converted total of a language switched to, without a reload', async ({
  page,
}, info) => {
  // English first: its answers carry no conversion, so the rupee rate is not known when Hindi is chosen.
  await shopperIn(page, info, 'en');
  await buyableCards(page).first().locator('button:enabled').click();
  await expect(page.getByTestId('added-notification')).toBeVisible();
  await page.goto('/checkout');
  const checkout = page.getByTestId('checkout-page');
  await expect(checkout.getByTestId('checkout-line')).toHaveCount(1);
  await expect(checkout.getByTestId('basket-total-approx')).toHaveCount(0);
  await page.getByTestId('language-switcher').selectOption('hi');
  await expect(checkout.getByTestId('basket-total-approx')).toContainText(/≈\s₹[\d\s]+/);
  await page.getByTestId('language-switcher').selectOption('ru');
  await expect(checkout.getByTestId('basket-total-approx')).toContainText(/≈\s[\d\s]+\s₽/);
  // The basket panel too.
  await page.getByTestId('cart-button').click();
  await expect(page.getByTestId('basket-panel').getByTestId('basket-total-approx')).toContainText('₽');
});

test('Portuguese and English keep the store prices in BRL, without a conversion', async ({ page }) => {
  for (const lang of ['pt-BR', 'en']) {
    await page.addInitScript((lang) => localStorage.setItem('lang', lang), lang);
    await page.goto('/');
    const price = buyableCards(page).first().getByTestId('price');
    await expect(price).toContainText('BRL');
    await expect(price).not.toContainText('≈');
  }
});
