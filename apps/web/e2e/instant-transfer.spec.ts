import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { buyableCards, newCustomer } from './shop-helpers.ts';

// The instant transfer of each language, paid end to end on the sandbox: SBP in Russian (charged in
// roubles) and UPI in Hindi (in rupees). The charge the checkout states is the one the provider's
// page shows, and it is the store's BRL total converted at the store's rate, half up to the kopek or
// paisa; the codes are there after.

test.describe.configure({ timeout: 180_000 });

/** `minor` BRL cents at `rate` (BRL per unit) in the charge's minor units, half up, exactly. */
function expectedCharge(minor: number, rate: string): number {
  const [units = '0', fraction = ''] = rate.split('.');
  const micros = BigInt(units) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  return Number((BigInt(minor) * 2_000_000n + micros) / (micros * 2n));
}

/** The digits of an amount as shown: "1 234,56 ₽" and "₹1,234.56" are 123456. */
const digits = (text: string | null) => Number((text ?? '').replace(/\D/g, ''));

/** The BRL amount in a text, in cents, whichever side its code is on ("BRL 50.00", "50,00 BRL"). */
function brlCents(text: string): number {
  const match = /BRL\s?([\d\s.,]+\d)|(\d[\d\s.,]*)\s?BRL/.exec(text);
  return digits(match?.[1] ?? match?.[2] ?? '');
}

/** A signed-in shopper in `lang` with one product in the basket, on /checkout; answers the product's name. */
async function checkoutIn(page: Page, info: TestInfo, lang: string, slot: number) {
  const customer = newCustomer(info, `Rail${lang}`);
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
  const cards = buyableCards(page);
  await expect(cards.first()).toBeVisible();
  const card = cards.nth((slot * 2 + (info.project.name === 'desktop' ? 1 : 0)) % (await cards.count()));
  const name = ((await card.getByRole('heading').textContent()) ?? '').trim();
  await card.locator('button:enabled').last().click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.goto('/checkout');
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
  return { name, token };
}

/** Chooses the method, gives both consents, and presses the form's button. */
async function choose(page: Page, method: string) {
  await expect(page.getByTestId('payment-pix')).toHaveCount(method === 'pix' ? 1 : 0);
  await page.getByTestId(`payment-${method}`).getByRole('radio').check();
  for (const box of await page.getByTestId('checkout-page').getByRole('checkbox').all()) await box.check();
  await page.getByTestId('checkout-page').locator('form button[type="submit"]').last().click();
}

/** The codes of the product bought: in the profile, shown on asking. */
async function expectCodes(page: Page, name: string) {
  await page.goto('/profile');
  const product = page.getByTestId('purchased-product').filter({ hasText: name }).first();
  await expect(product).toBeVisible({ timeout: 20_000 });
  const code = product.getByTestId('purchased-code').first();
  const hidden = ((await code.getByTestId('code-value').textContent()) ?? '').trim();
  await code.getByRole('button').first().click();
  await expect(code.getByTestId('code-value')).not.toHaveText(hidden);
}

test('ru: SBP, charged in roubles at the store’s rate, paid by its pay link', async ({ page }, info) => {
  const { name } = await checkoutIn(page, info, 'ru', 12);
  await expect(page.getByTestId('payment-upi')).toHaveCount(0);
  await expect(page.getByTestId('payment-sbp')).toContainText('СБП');
  await choose(page, 'sbp');
  const modal = page.getByTestId('qr-modal');
  await expect(modal.getByRole('heading', { name: 'Оплата через СБП' })).toBeVisible();
  // No CPF outside Pix; the charge in roubles before the code is made.
  await expect(modal.locator('input')).toHaveCount(0);
  const preview = (await modal.getByTestId('charge-line').textContent()) ?? '';
  expect(preview).toMatch(/^К оплате [\d\s,]+\s₽: [\d\s,]+\sBRL по курсу магазина от /);
  await modal.locator('form button[type="submit"]').click();
  await expect(modal.getByTestId('qr-step')).toBeVisible();
  const exact = modal.locator('[data-testid="charge-line"][data-exact="true"]');
  await expect(exact).toBeVisible();
  const stated = (await exact.textContent()) ?? '';
  expect(stated).toBe(preview);
  const [charged] = stated.split(':');

  // The store's total at its rate, half up to the kopek, is what the line says.
  const rate = await page.evaluate(async () => {
    const answer = await fetch('/api/popular-products?lang=ru');
    return ((await answer.json()) as { display: { rate: string } }).display.rate;
  });
  expect(digits(charged ?? '')).toBe(expectedCharge(brlCents(stated), rate));

  // The bank: the pay link shows the same roubles, and confirming pays the order.
  const [bank] = await Promise.all([page.waitForEvent('popup'), modal.getByTestId('qr-pay-link').click()]);
  await expect(bank.locator('.amount')).toContainText('₽');
  expect(digits(await bank.locator('.amount').first().textContent())).toBe(digits(charged ?? ''));
  await bank.locator('button[name="decision"][value="confirm"]').click();
  await expect(bank.locator('h1')).toBeVisible();
  await bank.close();
  await expect(page.getByTestId('payment-success-modal')).toBeVisible({ timeout: 30_000 });
  await expectCodes(page, name);
});

test('hi: UPI, charged in rupees at the store’s rate, paid on the provider’s page', async ({ page }, info) => {
  const { name } = await checkoutIn(page, info, 'hi', 13);
  await expect(page.getByTestId('payment-sbp')).toHaveCount(0);
  await choose(page, 'upi');
  const modal = page.getByTestId('upi-modal');
  const stated = (await modal.getByTestId('charge-line').textContent()) ?? '';
  expect(stated).toMatch(/^आप ₹[\d\s,.]+ चुकाएँगे: /);
  // The store's rate, read on the store's page (the provider's page may not call the store).
  const rate = await page.evaluate(async () => {
    const answer = await fetch('/api/popular-products?lang=hi');
    return ((await answer.json()) as { display: { rate: string } }).display.rate;
  });
  const inputs = modal.locator('input');
  // First name, last name, UPI ID, email (filled), phone, address, ZIP.
  await inputs.nth(0).fill('Asha');
  await inputs.nth(1).fill('Rao');
  await inputs.nth(2).fill('asha@okbank');
  await inputs.nth(4).fill('+91 98765 43210');
  await inputs.nth(5).fill('1 MG Road, Bengaluru');
  await inputs.nth(6).fill('560001');
  await modal.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/sandbox\/upi\//);
  // The provider's page charges the rupees the checkout stated, converted at the store's rate.
  const charged = digits(stated.split(':')[0] ?? '');
  await expect(page.locator('.amount').first()).toContainText('₹');
  expect(digits(await page.locator('.amount').first().textContent())).toBe(charged);
  expect(charged).toBe(expectedCharge(brlCents(stated), rate));
  await page.locator('button[name="decision"][value="pay"]').click();
  await expect(page.getByTestId('payment-success-modal')).toBeVisible({ timeout: 30_000 });
  await expectCodes(page, name);
});
