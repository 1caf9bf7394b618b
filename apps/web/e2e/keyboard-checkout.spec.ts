import { expect, type FrameLocator, type Locator, type Page, test } from '@playwright/test';
import {
  basketOne,
  expectSuccess,
  isFocused,
  newCustomer,
  PHONE,
  pickProduct,
  register,
  tabTo,
} from './shop-helpers.ts';

/**
 * A purchase with the keyboard alone, through the store and the payment provider's own pages: no
 * click, no pointer, no value set on a field the keyboard did not reach. Every step is a Tab,
 * Shift+Tab, an arrow, Enter, Space, Escape or typed text, and each dialog gives the focus back to
 * where a keyboard user expects it.
 */

const OK = '4242424242424242';
const THREE_DS = '4000000000003220';
const THREE_DS_REDIRECT = '4000002760003184';
const DECLINED = '4000000000000002';

// Registration, a purchase and the provider’s pages, one key at a time: about 40 s alone, over a
// minute and a half beside three other browsers on two cores.
test.describe.configure({ timeout: 150_000 });

/**
 * The focused element shows it: it matches :focus-visible and draws an outline or a ring (or
 * `ringOn`, the box that draws it for a field without one of its own, does).
 */
async function expectVisibleFocus(target: Locator, ringOn: Locator = target) {
  expect(await isFocused(target), `${target} has the focus`).toBe(true);
  expect(
    await target.evaluate((element) => element.matches(':focus-visible')),
    `${target} matches :focus-visible`,
  ).toBe(true);
  const ring = await ringOn.evaluate((element) => {
    const style = getComputedStyle(element);
    return {
      outline:
        style.outlineStyle !== 'none' &&
        Number.parseFloat(style.outlineWidth) > 0 &&
        !/^(transparent|rgba\(.*,\s*0\))$/.test(style.outlineColor),
      shadow: style.boxShadow !== 'none',
    };
  });
  expect(ring.outline || ring.shadow, `${ringOn} draws a focus ring`).toBe(true);
}

/** The focus is somewhere inside `container` (a dialog); on a control there, it is visible. */
async function expectFocusWithin(container: Locator) {
  await expect
    .poll(() => container.evaluate((element) => element.contains(document.activeElement)), {
      message: `focus in ${container}`,
    })
    .toBe(true);
  // A dialog's panel may take the focus itself to announce the dialog; a control must show it.
  const control = container.locator(':focus').and(container.locator('a, button, input, select, textarea'));
  if ((await control.count()) > 0) await expectVisibleFocus(control);
}

/** The widget is a dialog over the page: the focus is on its close button or in its frame. */
const focusInWidget = (page: Page) =>
  page.evaluate(() => Boolean(document.activeElement?.closest('[data-sandbox-widget]')));

/** Presses `key` until `target` (inside the provider's frame) has the focus. */
async function tabToInFrame(page: Page, frame: FrameLocator, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  await expect(target).toBeVisible();
  for (let presses = 0; presses < 20; presses += 1) {
    const inFrame = await page.evaluate(() => document.activeElement?.tagName === 'IFRAME');
    if (inFrame && (await isFocused(target))) return;
    await page.keyboard.press(key);
  }
  expect(await isFocused(target), `Tab never reached ${target} in ${frame}`).toBe(true);
}

/** Registers a new shopper in the login dialog, with the keyboard alone. */
async function registerByKeyboard(page: Page, customer: ReturnType<typeof newCustomer>) {
  const account = page.getByTestId('account-button');
  await tabTo(page, account);
  await expectVisibleFocus(account);
  await page.keyboard.press('Enter');
  const modal = page.getByTestId('auth-modal');
  await expect(modal).toBeVisible();
  await expectFocusWithin(modal);

  // The tabs are one stop; the arrow moves to Sign up and shows its form.
  const loginTab = modal.getByRole('tab', { name: 'Log in' });
  await tabTo(page, loginTab);
  await expectVisibleFocus(loginTab);
  await page.keyboard.press('ArrowRight');
  const signUpTab = modal.getByRole('tab', { name: 'Sign up' });
  await expect(signUpTab).toBeFocused();
  await expect(signUpTab).toHaveAttribute('aria-selected', 'true');

  const typeInto = async (field: Locator, text: string) => {
    await tabTo(page, field);
    await expectVisibleFocus(field);
    await page.keyboard.type(text);
    await expect(field).toHaveValue(text);
  };
  await typeInto(modal.getByLabel('Name'), customer.name);
  await typeInto(modal.getByLabel('Email'), customer.email);
  await typeInto(modal.getByLabel('Password', { exact: true }), customer.password);
  await typeInto(modal.getByLabel('Repeat password'), customer.password);
  const agreement = modal.getByRole('checkbox');
  await tabTo(page, agreement);
  await expectVisibleFocus(agreement);
  await page.keyboard.press('Space');
  await expect(agreement).toBeChecked();
  const submit = modal.getByRole('button', { name: 'Sign up' });
  await tabTo(page, submit);
  await expectVisibleFocus(submit);
  await page.keyboard.press('Enter');

  // The notice that follows takes the focus; Enter on its button closes it, and the focus is back
  // on the header's account button, now Profile.
  const notice = page.getByTestId('notice-modal');
  await expect(notice.getByRole('heading', { name: 'Registration complete' })).toBeVisible();
  await expectFocusWithin(notice);
  await tabTo(page, notice.getByRole('button', { name: 'Got it' }));
  await page.keyboard.press('Enter');
  await expect(notice).toBeHidden();
  await expect(account).toHaveAccessibleName('Profile');
  await expect(account).toBeFocused();
}

/** Both consents, each reached by Tab and ticked with Space. */
async function giveConsentsByKeyboard(page: Page, scope: Locator) {
  for (const name of [/privacy policy/, /cannot be refunded/]) {
    const box = scope.getByRole('checkbox', { name });
    await tabTo(page, box);
    await expectVisibleFocus(box);
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
  }
}

/** On /checkout: the payment method by its radio (Space checks the focused one, arrows move), both consents, then Pay. */
async function chooseAndPay(page: Page, method: string) {
  const radios = page.getByTestId('checkout-page').getByRole('radio');
  await tabTo(page, radios.first());
  await expectVisibleFocus(radios.first());
  await page.keyboard.press('Space');
  await expect(radios.first()).toBeChecked();
  const target = page.getByTestId(`payment-${method}`).getByRole('radio');
  for (let presses = 0; presses < 8 && !(await target.isChecked()); presses += 1) {
    await page.keyboard.press('ArrowDown');
  }
  await expect(target).toBeChecked();
  await expect(target).toBeFocused();
  await giveConsentsByKeyboard(page, page.getByTestId('checkout-page'));
  const pay = page.getByRole('button', { name: /^Pay BRL/ });
  await tabTo(page, pay);
  await expectVisibleFocus(pay);
  await page.keyboard.press('Enter');
  return pay;
}

/** The provider's card form (hosted page or widget frame): typed in, sent with Enter from the last field. */
async function typeProviderCard(page: Page, form: Page | FrameLocator, number: string) {
  const tab = async (target: Locator) => {
    if ('goto' in form) await tabTo(page, target);
    else await tabToInFrame(page, form as FrameLocator, target);
    await expectVisibleFocus(target);
  };
  const cardNumber = form.getByLabel('Card number');
  await tab(cardNumber);
  await page.keyboard.type(number);
  const expiry = form.getByLabel('Expiry (MM/YY)');
  await tab(expiry);
  await page.keyboard.type('12/34');
  const cvc = form.getByLabel('CVC');
  await tab(cvc);
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
}

/** The store's own card form, typed in and sent with Enter from its last field. */
async function typeOwnCard(page: Page, number: string) {
  const modal = page.getByTestId('card-modal');
  await expect(modal.getByRole('heading', { name: 'Card payment' })).toBeVisible();
  await expectFocusWithin(modal);
  for (const [label, text] of [
    ['Card number', number],
    ['Expiry date', '1234'],
  ] as const) {
    const field = modal.getByLabel(label);
    await tabTo(page, field);
    await expectVisibleFocus(field);
    await page.keyboard.type(text);
  }
  // The consents given with the method stand in the card form.
  for (const name of [/privacy policy/, /cannot be refunded/]) {
    await expect(modal.getByRole('checkbox', { name })).toBeChecked();
  }
  const cvv = modal.getByLabel('CVV', { exact: true });
  await tabTo(page, cvv);
  await expectVisibleFocus(cvv);
  await page.keyboard.type('123');
  await expect(modal.getByRole('button', { name: /^Pay BRL/ })).toBeEnabled();
  await page.keyboard.press('Enter');
}

/** A button on one of the provider's pages, reached by Tab and pressed with `key`. */
async function pressOnPage(page: Page, target: Locator, key: 'Enter' | 'Space' = 'Enter') {
  await tabTo(page, target);
  await expectVisibleFocus(target);
  await page.keyboard.press(key);
}

/** Escape closes the success modal; with what opened the payment gone, the focus is on the page. */
async function closeSuccess(page: Page) {
  const success = await expectSuccess(page, { onIndex: false });
  await expectFocusWithin(success);
  await page.keyboard.press('Escape');
  await expect(success).toBeHidden();
  await expect(page.locator('main')).toBeFocused();
}

/** The codes in the profile: Show code and Copy by the keyboard, the clipboard holds the code. */
async function codesByKeyboard(page: Page, name: string) {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const product = page.getByTestId('purchased-product').filter({ hasText: name }).first();
  await expect(product).toBeVisible({ timeout: 20_000 });
  const code = product.getByTestId('purchased-code').first();
  await expect(code.getByTestId('code-value')).toContainText('Hidden code');
  const show = code.getByRole('button', { name: 'Show code' });
  await tabTo(page, show);
  await expectVisibleFocus(show);
  await page.keyboard.press('Enter');
  const hide = code.getByRole('button', { name: 'Hide code' });
  await expect(hide).toBeFocused();
  const value = ((await code.getByTestId('code-value').textContent()) ?? '').trim();
  expect(value).not.toContain('Hidden code');
  expect(value.length).toBeGreaterThan(4);
  const copy = code.getByRole('button', { name: 'Copy' });
  await tabTo(page, copy);
  await expectVisibleFocus(copy);
  await page.keyboard.press('Space');
  await expect(code.getByTestId('copy-status')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
}

/**
 * Counts every pointer press in the store's pages and the provider's (frames and popups included):
 * a keyboard's Enter or Space makes a click, never a pointerdown or a mousedown.
 */
async function countPointerPresses(page: Page) {
  await page.context().addInitScript(() => {
    const key = '__pointerPresses';
    for (const type of ['pointerdown', 'mousedown', 'touchstart']) {
      window.addEventListener(
        type,
        () => {
          sessionStorage.setItem(key, String(Number(sessionStorage.getItem(key) ?? 0) + 1));
        },
        true,
      );
    }
  });
  return () => page.evaluate(() => Number(sessionStorage.getItem('__pointerPresses') ?? 0));
}

test(
  'a new shopper registers, buys through the card widget and copies the code, with the keyboard alone',
  PHONE,
  async ({ page }, info) => {
    const customer = newCustomer(info, 'kbw');
    const pointerPresses = await countPointerPresses(page);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await registerByKeyboard(page, customer);

    // The product, found with the header's search (behind its toggle on a phone): typed, sent with Enter.
    const { name } = await pickProduct(page, info, 16);
    const toggle = page.getByTestId('search-toggle');
    if (await toggle.isVisible()) {
      await tabTo(page, toggle, 'Shift+Tab');
      await expectVisibleFocus(toggle);
      await page.keyboard.press('Enter');
    }
    const search = page.getByRole('combobox', { name: 'Search products' });
    await tabTo(page, search, 'Shift+Tab');
    await expectVisibleFocus(search, search.locator('xpath=ancestor::search[1]'));
    await page.keyboard.type(name);
    await expect(search).toHaveValue(name);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/search\//);

    // Into the basket from the results: the focus stays on its Buy button.
    const card = page
      .getByTestId('product-card')
      .filter({ has: page.getByRole('heading', { name, exact: true }) })
      .first();
    const buy = card.getByRole('button', { name: `Buy ${name}` });
    await tabTo(page, buy);
    await expectVisibleFocus(buy);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('cart-count')).toHaveText('1');
    await expect(buy).toBeFocused();

    // The basket from the header, and on to the checkout from it.
    const cartButton = page.getByTestId('cart-button');
    await tabTo(page, cartButton, 'Shift+Tab');
    await expectVisibleFocus(cartButton);
    await page.keyboard.press('Enter');
    const panel = page.getByTestId('basket-panel');
    await expect(panel.getByTestId('basket-line')).toHaveCount(1);
    await expectFocusWithin(panel);
    const toCheckout = page.getByTestId('checkout-button');
    await tabTo(page, toCheckout);
    await expectVisibleFocus(toCheckout);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(panel).toBeHidden();
    // The basket led to another page: the focus is on that page, not back on the basket button.
    await expect(page.locator('main')).toBeFocused();
    await expect(page.getByTestId('checkout-line')).toHaveCount(1);

    // The card widget: it opens as a dialog with the focus on its card number field.
    const pay = await chooseAndPay(page, 'card');
    const widget = page.locator('[data-sandbox-widget]');
    const dialog = widget.getByRole('dialog', { name: 'Card payment' });
    await expect(dialog).toBeVisible();
    const frame = page.frameLocator('iframe[title="Card payment"]');
    const cardNumber = frame.getByLabel('Card number');
    await expect.poll(() => isFocused(cardNumber), { message: 'the card number has the focus' }).toBe(true);
    await expect.poll(() => focusInWidget(page)).toBe(true);
    await expectVisibleFocus(cardNumber);

    // The focus stays in the widget: round the dialog with Tab, and back with Shift+Tab.
    for (const key of ['Tab', 'Shift+Tab'] as const) {
      for (let presses = 0; presses < 8; presses += 1) {
        await page.keyboard.press(key);
        expect(await focusInWidget(page), `${key} ${presses + 1} stays in the widget`).toBe(true);
      }
    }
    const close = widget.getByRole('button', { name: 'Close' });
    await tabTo(page, close);
    await expectVisibleFocus(close);

    // Escape closes it before any answer: the store says nothing was charged, with the focus in its
    // notice; Escape closes that too and the focus is back on Pay.
    await tabToInFrame(page, frame, cardNumber);
    await page.keyboard.press('Escape');
    await expect(widget).toHaveCount(0);
    const cancelled = page.getByTestId('payment-cancelled-modal');
    await expect(cancelled).toContainText('Nothing was charged.');
    await expectFocusWithin(cancelled);
    await page.keyboard.press('Escape');
    await expect(cancelled).toHaveCount(0);
    await expect(pay).toBeFocused();
    await expect(page).toHaveURL(/\/checkout$/);

    // Opened again, filled and sent with Enter.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeVisible();
    await expect.poll(() => isFocused(cardNumber)).toBe(true);
    await typeProviderCard(page, frame, OK);

    // The success modal has the focus; its link leads to the profile.
    const success = await expectSuccess(page);
    await expect(widget).toHaveCount(0);
    await expectFocusWithin(success);
    const toProfile = success.getByRole('link', { name: 'Go to profile' });
    await tabTo(page, toProfile);
    await expectVisibleFocus(toProfile);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(success).toBeHidden();
    await expect(page.locator('main')).toBeFocused();
    await codesByKeyboard(page, name);
    expect(await pointerPresses(), 'no pointer was used').toBe(0);
  },
);

test.describe('the provider pages by keyboard', () => {
  test('the hosted payment page', async ({ page }, info) => {
    await register(page, newCustomer(info, 'kbh'));
    const name = await basketOne(page, info, 17);
    await chooseAndPay(page, 'hosted');
    await expect(page).toHaveURL(/\/sandbox\/hosted\//);
    await typeProviderCard(page, page, OK);
    await expectSuccess(page);
    await closeSuccess(page);
    await page.goto('/profile');
    await codesByKeyboard(page, name);
  });

  test('the 3-D Secure challenge, passed', async ({ page }, info) => {
    await register(page, newCustomer(info, 'kbc'));
    const name = await basketOne(page, info, 18);
    await chooseAndPay(page, 'cardForm');
    await typeOwnCard(page, THREE_DS);
    await expect(page).toHaveURL(/\/sandbox\/3ds\//);
    await pressOnPage(page, page.getByRole('button', { name: 'Pass the challenge' }));
    await expectSuccess(page);
    await page.goto('/profile');
    await codesByKeyboard(page, name);
  });

  test('the 3DS_REDIRECT page', async ({ page }, info) => {
    await register(page, newCustomer(info, 'kbr'));
    const name = await basketOne(page, info, 19);
    await chooseAndPay(page, 'cardForm');
    await typeOwnCard(page, THREE_DS_REDIRECT);
    await expect(page).toHaveURL(/\/sandbox\/3ds\//);
    await pressOnPage(page, page.getByRole('button', { name: 'Pass the challenge' }), 'Space');
    await expectSuccess(page);
    await page.goto('/profile');
    await codesByKeyboard(page, name);
  });

  test('the QR confirm page', async ({ page }, info) => {
    await register(page, newCustomer(info, 'kbq'));
    const name = await basketOne(page, info, 20);
    await chooseAndPay(page, 'pix');
    const modal = page.getByTestId('qr-modal');
    await expectFocusWithin(modal);
    const cpf = modal.getByLabel('CPF');
    await tabTo(page, cpf);
    await expectVisibleFocus(cpf);
    await page.keyboard.type('12345678909');
    // Enter in the field sends the form.
    await page.keyboard.press('Enter');
    await expect(modal.getByRole('img', { name: 'QR code of the payment' })).toBeVisible();
    await expect(modal.getByTestId('qr-waiting')).toBeVisible();

    // The bank's page behind the pay link, opened with Enter, confirmed with Enter.
    const link = modal.getByTestId('qr-pay-link');
    await tabTo(page, link);
    await expectVisibleFocus(link);
    const [bank] = await Promise.all([page.waitForEvent('popup'), page.keyboard.press('Enter')]);
    await bank.waitForLoadState();
    await pressOnPage(bank, bank.getByRole('button', { name: 'Confirm the payment' }));
    await expect(bank.getByRole('heading', { name: 'Payment confirmed' })).toBeVisible();
    const back = bank.getByRole('link', { name: 'Back to the store' });
    await pressOnPage(bank, back);
    await expect(bank).toHaveURL(/127\.0\.0\.1:\d+\/(\?|$)/);
    await bank.close();
    await expectSuccess(page, { onIndex: false });
    await page.goto('/profile');
    await codesByKeyboard(page, name);
  });

  test('the UPI page', async ({ page }, info) => {
    await register(page, newCustomer(info, 'kbu'));
    const name = await basketOne(page, info, 21);
    await chooseAndPay(page, 'upi');
    const modal = page.getByTestId('upi-modal');
    await expectFocusWithin(modal);
    for (const [label, text] of [
      ['First name', 'Asha'],
      ['Last name', 'Rao'],
      ['UPI ID', 'asha@okbank'],
      ['Phone', '+91 98765 43210'],
      ['Address', '1 MG Road, Bengaluru'],
      ['ZIP code', '560001'],
    ] as const) {
      const field = modal.getByLabel(label);
      await tabTo(page, field);
      await expectVisibleFocus(field);
      await page.keyboard.type(text);
    }
    // Enter in the last field sends the form to the provider.
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/sandbox\/upi\//);
    await pressOnPage(page, page.getByRole('button', { name: 'Pay', exact: true }));
    await expectSuccess(page);
    await closeSuccess(page);
    await page.goto('/profile');
    await codesByKeyboard(page, name);
  });

  test('a card declined in the widget, Escape, the error modal and Try again', async ({ page }, info) => {
    await register(page, newCustomer(info, 'kbd'));
    const name = await basketOne(page, info, 22);
    await chooseAndPay(page, 'card');
    const frame = page.frameLocator('iframe[title="Card payment"]');
    await expect.poll(() => isFocused(frame.getByLabel('Card number'))).toBe(true);
    await typeProviderCard(page, frame, DECLINED);
    // The provider's answer takes the focus: its Try again, in the frame.
    const retryInFrame = frame.getByRole('link', { name: 'Try again' });
    await expect(frame.getByText('The card was declined.')).toBeVisible();
    await expect.poll(() => isFocused(retryInFrame)).toBe(true);
    await expectVisibleFocus(retryInFrame);

    // Escape closes the widget after a failure: the store's error modal, with the focus in it.
    await page.keyboard.press('Escape');
    await expect(page.locator('[data-sandbox-widget]')).toHaveCount(0);
    const error = page.getByTestId('payment-error-modal');
    await expect(error.getByRole('heading', { name: 'The payment did not go through' })).toBeVisible();
    await expect(error).toContainText('Card declined by the bank. Nothing was charged.');
    await expectFocusWithin(error);
    const retry = error.getByRole('button', { name: 'Try again' });
    await tabTo(page, retry);
    await expectVisibleFocus(retry);
    await page.keyboard.press('Enter');

    // The choice again, on Index: the card widget once more, and this time a good card.
    await expect(page).toHaveURL(/\/$/);
    const methods = page.getByTestId('payment-methods-modal');
    await expect(methods.getByRole('heading', { name: 'Pay' })).toBeVisible();
    await expectFocusWithin(methods);
    const widgetRadio = methods.getByTestId('payment-card').getByRole('radio');
    await tabTo(page, widgetRadio);
    await page.keyboard.press('Space');
    await expect(widgetRadio).toBeChecked();
    await giveConsentsByKeyboard(page, methods);
    const pay = methods.getByRole('button', { name: /^Pay BRL/ });
    await tabTo(page, pay);
    await page.keyboard.press('Enter');
    await expect.poll(() => isFocused(frame.getByLabel('Card number'))).toBe(true);
    await typeProviderCard(page, frame, OK);
    await closeSuccess(page);
    await page.goto('/profile');
    await codesByKeyboard(page, name);
  });
});
