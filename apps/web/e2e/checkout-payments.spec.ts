import { expect, type Page, test } from '@playwright/test';
import {
  basketOne,
  expectAccessible,
  expectCodesInProfile,
  expectSuccess,
  fillOwnCard,
  fillProviderCard,
  newCustomer,
  PHONE,
  payWith,
  pickProduct,
  register,
  tabTo,
} from './shop-helpers.ts';

// Every way to pay (docs/payments.md, "How the browser goes on"), through the sandbox provider's own
// pages and test cards.
const OK = '4242 4242 4242 4242';
const DECLINED = '4000 0000 0000 0002';
const THREE_DS = '4000 0000 0000 3220';
const THREE_DS_REDIRECT = '4000 0027 6000 3184';
const THREE_DS_THEN_DECLINED = '4000 0084 0000 1629';

// Each test registers, buys and walks the provider's pages: slow on a busy machine.
test.describe.configure({ timeout: 180_000 });

async function ownCard(page: Page, number: string) {
  await payWith(page, 'cardForm');
  const modal = page.getByTestId('card-modal');
  await expect(modal.getByRole('heading', { name: 'Card payment' })).toBeVisible();
  await fillOwnCard(modal, number);
  await expect(modal.getByTestId('card-brand').getByRole('img', { name: 'Visa' })).toBeVisible();
  await modal.getByRole('button', { name: /^Pay BRL/ }).click();
  return modal;
}

/** The issuer's page of a 3-D Secure challenge: pass or fail it. */
async function challenge(page: Page, outcome: 'Pass' | 'Fail') {
  await expect(page).toHaveURL(/\/sandbox\/3ds\//);
  await page.getByRole('button', { name: `${outcome} the challenge` }).click();
}

/** The error modal of a payment that failed: it says why, and that nothing was charged. */
async function expectError(page: Page, why: string) {
  const error = page.getByTestId('payment-error-modal');
  await expect(error.getByRole('heading', { name: 'The payment did not go through' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(error).toContainText(`${why} Nothing was charged.`);
  await expect(error).not.toContainText('Something went wrong');
  return error;
}

/** The UPI form, filled in, sent: the provider's page. */
async function toUpiPage(page: Page) {
  const modal = page.getByTestId('upi-modal');
  await modal.getByLabel('First name').fill('Asha');
  await modal.getByLabel('Last name').fill('Rao');
  await modal.getByLabel('UPI ID').fill('asha@okbank');
  await modal.getByLabel('Phone').fill('+91 98765 43210');
  await modal.getByLabel('Address').fill('1 MG Road, Bengaluru');
  await modal.getByLabel('ZIP code').fill('560001');
  await modal.getByRole('button', { name: 'Continue to UPI' }).click();
  await expect(page).toHaveURL(/\/sandbox\/upi\//);
}

test('buys with the card widget', PHONE, async ({ page }, info) => {
  await register(page, newCustomer(info, 'wdg'));
  const name = await basketOne(page, info, 0);
  await payWith(page, 'card');
  const frame = page.frameLocator('iframe[title="Card payment"]');
  await fillProviderCard(frame, OK);
  await expectSuccess(page);
  await expect(page.getByTestId('cart-count')).toHaveCount(0);
  await expectCodesInProfile(page, name);
});

test('a widget closed after a declined card runs the error path, saying why', async ({ page }, info) => {
  await register(page, newCustomer(info, 'wdf'));
  await basketOne(page, info, 1);
  await payWith(page, 'card');
  const frame = page.frameLocator('iframe[title="Card payment"]');
  await fillProviderCard(frame, DECLINED);
  // The answer's alert, not the form's test-card hint (which says "is declined" before any answer).
  await expect(frame.getByRole('heading', { name: 'Payment failed' })).toBeVisible();
  await expect(frame.getByRole('alert')).toHaveText('The card was declined.');
  await page.locator('[data-sandbox-widget] button[aria-label="Close"]').click();
  const error = await expectError(page, 'Card declined by the bank.');
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('payment-methods-modal').getByRole('heading', { name: 'Pay' })).toBeVisible();
});

test('a widget closed before paying says nothing was charged, as no error', async ({ page }, info) => {
  await register(page, newCustomer(info, 'wdc'));
  await basketOne(page, info, 14);
  await payWith(page, 'card');
  await expect(page.frameLocator('iframe[title="Card payment"]').getByLabel('Card number')).toBeVisible();
  await page.locator('[data-sandbox-widget] button[aria-label="Close"]').click();
  const cancelled = page.getByTestId('payment-cancelled-modal');
  await expect(cancelled.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
  await expect(cancelled).toContainText('You closed the payment window before paying. Nothing was charged.');
  await expect(page.getByTestId('payment-error-modal')).toHaveCount(0);
  await expect(page).toHaveURL(/\/checkout$/);
});

test('buys through the hosted page', PHONE, async ({ page }, info) => {
  await register(page, newCustomer(info, 'hst'));
  const name = await basketOne(page, info, 2);
  await payWith(page, 'hosted');
  await expect(page).toHaveURL(/\/sandbox\/hosted\//);
  await fillProviderCard(page, OK);
  await expectSuccess(page);
  await expectCodesInProfile(page, name);
});

test('buys with the own card form, no 3-D Secure', async ({ page }, info) => {
  await register(page, newCustomer(info, 'own'));
  const name = await basketOne(page, info, 3);
  await ownCard(page, OK);
  await expectSuccess(page);
  await expectCodesInProfile(page, name);
});

test('buys with the own card form through a 3DS challenge passed', PHONE, async ({ page }, info) => {
  await register(page, newCustomer(info, 'tds'));
  const name = await basketOne(page, info, 4);
  await ownCard(page, THREE_DS);
  await challenge(page, 'Pass');
  await expectSuccess(page);
  await expectCodesInProfile(page, name);
});

test('a failed 3DS challenge ends in the error modal, whose Try again reopens the choice', async ({ page }, info) => {
  await register(page, newCustomer(info, 'tdf'));
  await basketOne(page, info, 5);
  await ownCard(page, THREE_DS);
  await challenge(page, 'Fail');
  const error = await expectError(page, 'The 3-D Secure check with your bank failed.');
  await error.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByTestId('payment-methods-modal').getByRole('heading', { name: 'Pay' })).toBeVisible();
});

test('a 3DS challenge passed and then declined ends in the error modal', async ({ page }, info) => {
  await register(page, newCustomer(info, 'tdd'));
  await basketOne(page, info, 6);
  await ownCard(page, THREE_DS_THEN_DECLINED);
  await challenge(page, 'Pass');
  const error = await expectError(page, 'Card declined by the bank.');
  await error.getByRole('button', { name: 'Close' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('buys with the own card form through 3DS_REDIRECT', async ({ page }, info) => {
  await register(page, newCustomer(info, 'tdr'));
  const name = await basketOne(page, info, 7);
  await ownCard(page, THREE_DS_REDIRECT);
  await challenge(page, 'Pass');
  await expectSuccess(page);
  await expectCodesInProfile(page, name);
});

test('a declined card shows the error screen, saying why; Try again with a good card buys', async ({ page }, info) => {
  await register(page, newCustomer(info, 'dcl'));
  const name = await basketOne(page, info, 8);
  const modal = await ownCard(page, DECLINED);
  const failed = modal.getByTestId('card-failed');
  await expect(failed.getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
  await expect(failed).toContainText('Card declined by the bank. Nothing was charged.');
  await failed.getByRole('button', { name: 'Try again' }).click();
  await expect(modal.getByLabel('Card number')).toHaveValue('');
  await expect(modal.getByLabel('Card number')).toBeFocused();
  await fillOwnCard(modal, OK);
  await modal.getByRole('button', { name: /^Pay BRL/ }).click();
  await expectSuccess(page);
  await expectCodesInProfile(page, name);
});

test('pays by QR through the pay link', PHONE, async ({ page, context }, info) => {
  await register(page, newCustomer(info, 'qr'));
  const name = await basketOne(page, info, 9);
  await payWith(page, 'pix');
  const modal = page.getByTestId('qr-modal');
  await modal.getByRole('button', { name: 'Show the QR code' }).click();
  await expect(modal.getByText('The CPF must be exactly 11 digits.')).toBeVisible();
  await modal.getByLabel('CPF').fill('123.456.789-09');
  await expect(modal.getByLabel('CPF')).toHaveValue('12345678909');
  await modal.getByRole('button', { name: 'Show the QR code' }).click();
  await expect(modal.getByRole('img', { name: 'QR code of the payment' })).toBeVisible();
  await expect(modal.getByTestId('qr-waiting')).toBeVisible();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await modal.getByRole('button', { name: 'Copy code' }).click();
  await expect(modal.getByText('Code copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    await modal.getByTestId('qr-code').inputValue(),
  );
  // The bank app: the pay link, opened as a phone would.
  const [bank] = await Promise.all([page.waitForEvent('popup'), modal.getByTestId('qr-pay-link').click()]);
  await bank.getByRole('button', { name: 'Confirm the payment' }).click();
  // As a person does, the bank's answer is seen before its tab is closed: closing a page while its
  // form is still being sent could leave the close waiting (seen once, for three minutes).
  await expect(bank.getByRole('heading', { name: 'Payment confirmed' })).toBeVisible();
  await bank.close();
  await expectSuccess(page);
  await expectCodesInProfile(page, name);
});

test('pays by UPI through the provider page', PHONE, async ({ page }, info) => {
  const customer = newCustomer(info, 'upi');
  await register(page, customer);
  const name = await basketOne(page, info, 10);
  await payWith(page, 'upi');
  const modal = page.getByTestId('upi-modal');
  await expect(modal.getByLabel('Email')).toHaveValue(customer.email);
  await modal.getByRole('button', { name: 'Continue to UPI' }).click();
  await expect(modal.getByTestId('upi-first-error')).toHaveText(
    'Some details are missing or wrong: see the fields marked below.',
  );
  await expect(modal.getByText('Enter your first name.')).toHaveCount(1);
  await expect(modal.getByLabel('First name')).toBeFocused();
  await modal.getByLabel('First name').fill('Asha');
  await modal.getByLabel('Last name').fill('Rao');
  await modal.getByLabel('UPI ID').fill('asha@okbank');
  await modal.getByLabel('Phone').fill('+91 98765 43210');
  await modal.getByLabel('Address').fill('1 MG Road, Bengaluru');
  await modal.getByLabel('ZIP code').fill('560001');
  await modal.getByRole('button', { name: 'Continue to UPI' }).click();
  await expect(page).toHaveURL(/\/sandbox\/upi\//);
  await page.getByRole('button', { name: 'Pay', exact: true }).click();
  await expectSuccess(page);
  await expectCodesInProfile(page, name);
});

test('a declined UPI payment lands on the payment error page, which says why', async ({ page }, info) => {
  await register(page, newCustomer(info, 'upd'));
  await basketOne(page, info, 11);
  await payWith(page, 'upi');
  await toUpiPage(page);
  await page.getByRole('button', { name: 'Decline' }).click();
  await expect(page).toHaveURL(/\/payment-error\//);
  await expect(page.getByTestId('payment-error-page')).toContainText(
    'The payment was declined in your payment app. Nothing was charged.',
    { timeout: 30_000 },
  );
  await expect(
    page.getByRole('button', { name: 'Try again' }).or(page.getByRole('link', { name: 'Try again' })),
  ).toBeVisible();
});

test('a UPI payment cancelled at the provider is back at the checkout, saying nothing was charged', async ({
  page,
}, info) => {
  await register(page, newCustomer(info, 'upc'));
  await basketOne(page, info, 15);
  await payWith(page, 'upi');
  await toUpiPage(page);
  await page.getByRole('button', { name: 'Cancel' }).click();
  const cancelled = page.getByTestId('payment-cancelled-modal');
  await expect(cancelled.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
  await expect(cancelled).toContainText('You cancelled the payment. Nothing was charged.');
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);
});

test('tops up from the profile with the own card form, then pays from the balance', async ({ page }, info) => {
  await register(page, newCustomer(info, 'top'));
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Top up balance' }).click();
  const methods = page.getByTestId('payment-methods-modal');
  await expect(methods.getByRole('heading', { name: 'Top up' })).toBeVisible();
  await methods.getByLabel('Top-up amount').fill('500');
  await payWith(methods, 'cardForm');
  const modal = page.getByTestId('card-modal');
  await expect(modal.getByLabel('Top-up amount')).toHaveValue('500');
  await fillOwnCard(modal, OK);
  await modal.getByRole('button', { name: 'Top up' }).click();
  await expect(page.getByTestId('topup-success-modal').getByRole('heading', { name: 'Balance topped up' })).toBeVisible(
    {
      timeout: 30_000,
    },
  );
  // A top-up from the profile stays on the profile.
  await expect(page).toHaveURL(/\/profile$/);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-balance')).toHaveText('BRL 500.00');

  const name = await basketOne(page, info, 12);
  await payWith(page, 'balance');
  await expectSuccess(page, { onIndex: false });
  await expectCodesInProfile(page, name);
});

test('a short balance opens the insufficient-funds modal, tops up by the widget there, and is back at the checkout to pay', async ({
  page,
}, info) => {
  await register(page, newCustomer(info, 'ins'));
  const name = await basketOne(page, info, 13);
  await payWith(page, 'balance');
  const insufficient = page.getByTestId('insufficient-modal');
  await expect(insufficient.getByRole('heading', { name: 'Insufficient funds' })).toBeVisible();
  await insufficient.getByRole('button', { name: 'Top up balance' }).click();
  const methods = page.getByTestId('payment-methods-modal');
  await methods.getByLabel('Top-up amount').fill('1000');
  await payWith(methods, 'card');
  await fillProviderCard(page.frameLocator('iframe[title="Card payment"]'), OK);
  const topped = page.getByTestId('topup-success-modal');
  await expect(topped).toContainText('Your order is waiting: pay for it from the balance now.', { timeout: 30_000 });
  await topped.getByRole('button', { name: 'Pay for the order' }).click();
  // Back at the checkout, the basket as it was and the balance chosen.
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByTestId('checkout-line')).toContainText(name);
  await expect(page.getByTestId('payment-balance').getByRole('radio')).toBeChecked();
  await expect(page.getByTestId('payment-balance')).toContainText(/BRL\s1\D000\.00/);
  await page.getByRole('button', { name: /^Pay BRL/ }).click();
  await expectSuccess(page, { onIndex: false });
  await expectCodesInProfile(page, name);
});

test('a top-up for an order through the hosted page comes back to the checkout with the balance chosen', async ({
  page,
}, info) => {
  await register(page, newCustomer(info, 'inh'));
  const name = await basketOne(page, info, 16);
  await payWith(page, 'balance');
  await page.getByTestId('insufficient-modal').getByRole('button', { name: 'Top up balance' }).click();
  const methods = page.getByTestId('payment-methods-modal');
  await methods.getByLabel('Top-up amount').fill('1000');
  await payWith(methods, 'hosted');
  await expect(page).toHaveURL(/\/sandbox\/hosted\//);
  await fillProviderCard(page, OK);
  await expect(page.getByTestId('topup-success-modal')).toContainText('Your order is waiting', { timeout: 30_000 });
  await expect(page).toHaveURL(/\/checkout$/);
  await page.getByTestId('topup-success-modal').getByRole('button', { name: 'Pay for the order' }).click();
  await expect(page.getByTestId('checkout-line')).toContainText(name);
  await expect(page.getByTestId('payment-balance').getByRole('radio')).toBeChecked();
  await payWith(page, 'balance');
  await expectSuccess(page, { onIndex: false });
});

test('a purchase with the keyboard only, from the product to its code in the profile', async ({ page }, info) => {
  await register(page, newCustomer(info, 'key'));
  await page.goto('/');
  const { card, name } = await pickProduct(page, info, 14);
  await tabTo(page, card.getByRole('button', { name: `Buy ${name}` }));
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await tabTo(page, page.getByTestId('cart-button'), 'Shift+Tab');
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByTestId('checkout-button'));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByTestId('checkout-line')).toHaveCount(1);

  // The own card form: the second method of the radio group.
  const cardForm = page.getByTestId('payment-cardForm').getByRole('radio');
  await tabTo(page, page.getByRole('radio').first());
  await page.keyboard.press('ArrowDown');
  await expect(cardForm).toBeChecked();
  // Both consents, given with the method.
  await tabTo(page, page.getByRole('checkbox', { name: /privacy policy/ }));
  await page.keyboard.press('Space');
  await tabTo(page, page.getByRole('checkbox', { name: /cannot be refunded/ }));
  await page.keyboard.press('Space');
  await tabTo(page, page.getByRole('button', { name: /^Pay BRL/ }));
  await page.keyboard.press('Enter');

  const modal = page.getByTestId('card-modal');
  await tabTo(page, modal.getByLabel('Card number'));
  await page.keyboard.type('4242424242424242');
  await tabTo(page, modal.getByLabel('Expiry date'));
  await page.keyboard.type('1234');
  await tabTo(page, modal.getByLabel('CVV', { exact: true }));
  await page.keyboard.type('123');
  // The consents given with the method stand in the card form.
  await expect(modal.getByRole('checkbox', { name: /privacy policy/ })).toBeChecked();
  await expect(modal.getByRole('checkbox', { name: /cannot be refunded/ })).toBeChecked();
  const pay = modal.getByRole('button', { name: /^Pay BRL/ });
  await expect(pay).toBeEnabled();
  await tabTo(page, pay);
  await page.keyboard.press('Enter');

  const success = await expectSuccess(page);
  await expectAccessible(page, '[data-testid="payment-success-modal"]');
  await tabTo(page, success.getByRole('link', { name: 'Go to profile' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/profile$/);
  const product = page.getByTestId('purchased-product').filter({ hasText: name }).first();
  const code = product.getByTestId('purchased-code').first();
  await tabTo(page, code.getByRole('button', { name: 'Show code' }));
  await page.keyboard.press('Enter');
  await expect(code.getByRole('button', { name: 'Hide code' })).toBeVisible();
  await expect(code.locator('code')).toBeVisible();
});

test('axe finds no serious violation on /checkout, the payment modals and the profile', async ({ page }, info) => {
  await register(page, newCustomer(info, 'axe'));
  await basketOne(page, info, 15);
  await expectAccessible(page);

  // Insufficient funds, then the top-up's choice of method.
  await payWith(page, 'balance');
  await expect(page.getByTestId('insufficient-modal')).toBeVisible();
  await expectAccessible(page);
  await page.getByTestId('insufficient-modal').getByRole('button', { name: 'Top up balance' }).click();
  const methods = page.getByTestId('payment-methods-modal');
  await expect(methods).toBeVisible();
  await methods.getByLabel('Top-up amount').fill('5');
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // The card form, filled and with its failure screen.
  await payWith(page, 'cardForm');
  const cardModal = page.getByTestId('card-modal');
  await fillOwnCard(cardModal, '4000 0000 0000 0002');
  await expectAccessible(page);
  await cardModal.getByRole('button', { name: /^Pay BRL/ }).click();
  await expect(cardModal.getByTestId('card-failed')).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // The QR step, before and after its code.
  await payWith(page, 'pix');
  const qr = page.getByTestId('qr-modal');
  await qr.getByRole('button', { name: 'Show the QR code' }).click();
  await expectAccessible(page);
  await qr.getByLabel('CPF').fill('12345678909');
  await qr.getByRole('button', { name: 'Show the QR code' }).click();
  await expect(qr.getByTestId('qr-step')).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');

  // UPI with its messages showing.
  await page.goto('/checkout');
  await payWith(page, 'upi');
  const upi = page.getByTestId('upi-modal');
  await upi.getByRole('button', { name: 'Continue to UPI' }).click();
  await expect(upi.getByTestId('upi-first-error')).toBeVisible();
  await expectAccessible(page);

  // The error modal, and the profile.
  await page.goto('/?showModal=error');
  await expect(page.getByTestId('payment-error-modal')).toBeVisible();
  await expectAccessible(page, '[data-testid="payment-error-modal"]');
  // The profile's own content; the layout's side navigation is checked with the layout.
  await page.goto('/profile');
  await expect(page.getByTestId('purchases')).toBeVisible();
  await expectAccessible(page, '[data-testid="profile-page"]');
});
