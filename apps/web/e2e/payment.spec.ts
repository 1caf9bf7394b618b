import { expect, type Locator, test } from '@playwright/test';
import {
  buyableCards,
  expectNoHorizontalOverflow,
  isFocused,
  newCustomer,
  PHONE,
  register,
  tabTo,
} from './shop-helpers.ts';

const focusIsInside = (container: Locator) =>
  container.evaluate((element) => element.contains(document.activeElement) && document.activeElement !== document.body);

test(
  'a customer with an empty balance meets the insufficient-funds modal, keyboard only, and an empty purchase list',
  PHONE,
  async ({ page }, info) => {
    await register(page, newCustomer(info, 'pay'));

    // From here on, only the keyboard: buy the first product, open the basket, go to the checkout.
    const card = buyableCards(page).first();
    const name = ((await card.getByRole('heading', { level: 2 }).textContent()) ?? '').trim();
    await tabTo(page, card.getByRole('button', { name: `Buy ${name}` }));
    await page.keyboard.press('Enter');
    const notification = page.getByTestId('added-notification');
    await expect(notification).toContainText(name);
    await expect(page.getByTestId('cart-count')).toHaveText('1');
    // Back up the page to the header's basket button (the notification closes by itself).
    await tabTo(page, page.getByTestId('cart-button'), 'Shift+Tab');
    await page.keyboard.press('Enter');
    await tabTo(page, page.getByTestId('checkout-button'));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByTestId('checkout-line')).toHaveCount(1);

    // The methods are one radio group: Tab enters it, the arrows move the choice, Space keeps it.
    const balance = page.getByRole('radio', { name: /Account balance/ });
    await expect(page.getByTestId('payment-balance')).toContainText('BRL 0.00');
    await tabTo(page, page.getByRole('radio').first());
    for (let presses = 0; presses < 6 && !(await isFocused(balance)); presses += 1)
      await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect(balance).toBeChecked();
    // Paying waits for both consents, and the note says so.
    const pay = page.getByRole('button', { name: /^Pay BRL/ });
    await expect(page.getByTestId('payment-note')).toHaveText('Tick both boxes below to pay.');
    await expect(pay).toBeDisabled();
    await tabTo(page, page.getByRole('checkbox', { name: /privacy policy/ }));
    await page.keyboard.press('Space');
    await tabTo(page, page.getByRole('checkbox', { name: /cannot be refunded/ }));
    await page.keyboard.press('Space');
    await expect(page.getByTestId('payment-note')).toHaveText(/balance/);
    await tabTo(page, pay);
    await page.keyboard.press('Enter');

    const modal = page.getByTestId('insufficient-modal');
    await expect(modal.getByRole('heading', { name: 'Insufficient funds' })).toBeVisible();
    await expect(modal).toContainText(/short of this order/);
    const topUp = modal.getByRole('button', { name: 'Top up balance' });
    await expect(topUp).toBeVisible();
    await expect.poll(() => focusIsInside(modal)).toBe(true);
    // The focus stays in the modal while it is open.
    for (let presses = 0; presses < 4; presses += 1) {
      await page.keyboard.press('Tab');
      expect(await focusIsInside(modal)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect.poll(() => isFocused(pay)).toBe(true);

    // Again, and this time its Top up button opens the top-up choice, which has no balance method.
    await page.keyboard.press('Enter');
    await expect(modal).toBeVisible();
    await tabTo(page, topUp);
    await page.keyboard.press('Space');
    const methods = page.getByTestId('payment-methods-modal');
    await expect(methods.getByRole('heading', { name: 'Top up' })).toBeVisible();
    await expect(methods.getByRole('radio', { name: /^Bank card Visa/ })).toBeVisible();
    await expect(methods.getByRole('radio', { name: /Account balance/ })).toHaveCount(0);
    await expect.poll(() => focusIsInside(methods)).toBe(true);
    await page.keyboard.press('Escape');
    await expect(methods).toBeHidden();

    // The profile: the balance, its top-up button and no purchases yet.
    await tabTo(page, page.getByTestId('account-button'));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('profile-balance')).toHaveText('BRL 0.00');
    await expect(page.getByRole('button', { name: 'Top up balance' })).toBeVisible();
    await expect(page.getByTestId('purchases-empty')).toHaveText('You have not bought anything yet.');
  },
);

test(
  'at 320 px in pt-BR the insufficient-funds modal and the card form fit the screen',
  PHONE,
  async ({ page }, info) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await register(page, newCustomer(info, 'narrow'));
    await page.getByTestId('language-switcher').selectOption('pt-BR');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');

    const card = buyableCards(page).first();
    await card.locator('button:enabled').first().click();
    await page.getByTestId('added-notification').getByRole('button').first().waitFor();
    await page.goto('/checkout');
    await expect(page.getByTestId('checkout-line')).toHaveCount(1);

    await page.getByTestId('payment-balance').getByRole('radio').check();
    await page.getByRole('checkbox', { name: /política de privacidade/ }).check();
    await page.getByRole('checkbox', { name: /não são reembolsáveis/ }).check();
    await expectNoHorizontalOverflow(page, page.locator('main'));
    await page.locator('form button[type="submit"]').last().click();
    const insufficient = page.getByTestId('insufficient-modal');
    await expect(insufficient.getByRole('heading', { name: 'Saldo insuficiente' })).toBeVisible();
    await expect(insufficient.getByRole('button', { name: 'Recarregar saldo' })).toBeVisible();
    await expectNoHorizontalOverflow(page, insufficient);
    await page.screenshot({ path: info.outputPath('insufficient-pt-BR-320.png'), fullPage: false });

    // The card form, opened as a shopper opens it: the own card form method, then Pay.
    await page.keyboard.press('Escape');
    await expect(insufficient).toBeHidden();
    await page.getByTestId('payment-cardForm').getByRole('radio').check();
    await page.locator('form button[type="submit"]').last().click();
    const cardModal = page.getByTestId('card-modal');
    await expect(cardModal.getByRole('heading', { name: 'Pagamento com cartão' })).toBeVisible();
    // Filled, with the brand's logo, the longest texts it shows.
    await cardModal.getByLabel('Número do cartão').fill('4242 4242 4242 4242');
    await expect(cardModal.getByTestId('card-brand').getByRole('img')).toBeVisible();
    await expectNoHorizontalOverflow(page, cardModal);
    await page.screenshot({ path: info.outputPath('card-form-pt-BR-320.png'), fullPage: false });

    // The QR step: the CPF, then the QR code, its pay link and the code to copy.
    await page.keyboard.press('Escape');
    await expect(cardModal).toBeHidden();
    await page.getByTestId('payment-pix').getByRole('radio').check();
    await page.locator('form button[type="submit"]').last().click();
    const qrModal = page.getByTestId('qr-modal');
    await expect(qrModal.getByRole('heading', { name: 'Pix' })).toBeVisible();
    await expectNoHorizontalOverflow(page, qrModal);
    await qrModal.getByLabel('CPF').fill('12345678909');
    await qrModal.getByRole('button', { name: 'Mostrar o QR code' }).click();
    await expect(qrModal.getByRole('img', { name: 'QR code do pagamento' })).toBeVisible();
    await expect(qrModal.getByRole('link', { name: 'Abrir no app do banco' })).toBeVisible();
    await expect(qrModal.getByRole('button', { name: 'Copiar código' })).toBeVisible();
    await expectNoHorizontalOverflow(page, qrModal);
    await page.screenshot({ path: info.outputPath('qr-pt-BR-320.png'), fullPage: false });
  },
);
