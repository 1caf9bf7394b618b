import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import { PHONE } from './shop-helpers.ts';

interface MailboxMessage {
  to: string;
  template: string;
  links: string[];
  createdAt: string;
}

/**
 * The newest email of `template` to `to` in the development mailbox, once the store has recorded it.
 * Its first link is the button's; the test opens its path on the store under test.
 */
async function emailedLink(request: APIRequestContext, to: string, template: string): Promise<string> {
  let link = '';
  await expect
    .poll(
      async () => {
        const response = await request.get(`/dev/mailbox.json?to=${encodeURIComponent(to)}`);
        if (!response.ok()) return '';
        const { messages } = (await response.json()) as { messages: MailboxMessage[] };
        link = messages.find((message) => message.template === template)?.links[0] ?? '';
        return link;
      },
      { timeout: 20_000, message: `a ${template} email to ${to}` },
    )
    .not.toBe('');
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByTestId('account-button').click();
  const modal = page.getByTestId('auth-modal');
  await expect(modal).toBeVisible();
  await modal.getByLabel('Email').fill(email);
  await modal.getByLabel('Password', { exact: true }).fill(password);
  await modal.getByRole('button', { name: 'Log in', exact: true }).click();
}

async function closeNotice(page: Page, title: string) {
  const notice = page.getByTestId('notice-modal');
  await expect(notice.getByRole('heading', { name: title })).toBeVisible();
  await notice.getByRole('button', { name: 'Got it' }).click();
  await expect(notice).toBeHidden();
}

/** A name and an address no earlier run or project used. */
function newCustomer(info: TestInfo) {
  const run = `${Date.now().toString(36)}${info.retry}${info.project.name.slice(0, 1)}`;
  return { run, email: `buyer-${run}@example.com`, name: `Buyer${run}`.slice(0, 16) };
}

async function register(page: Page, customer: { name: string; email: string }, password: string) {
  await page.getByTestId('account-button').click();
  const modal = page.getByTestId('auth-modal');
  await modal.getByRole('tab', { name: 'Sign up' }).click();
  await modal.getByLabel('Name').fill(customer.name);
  await modal.getByLabel('Email').fill(customer.email);
  await modal.getByLabel('Password', { exact: true }).fill(password);
  await expect(modal.getByTestId('password-strength')).toHaveText('Strong');
  await modal.getByLabel('Repeat password').fill(password);
  await modal.getByRole('checkbox').check();
  await modal.getByRole('button', { name: 'Sign up' }).click();
  await closeNotice(page, 'Registration complete');
}

async function logOut(page: Page) {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('account-button')).toHaveAccessibleName('Log in');
}

test(
  'account: register, activate, reset the password, log in, rename, review',
  PHONE,
  async ({ page, request }, info) => {
    const { run, email, name } = newCustomer(info);
    const firstPassword = 'Firstpass1';
    const newPassword = 'Secondpass2';

    // Register from the top bar.
    await page.goto('/');
    await register(page, { name, email }, firstPassword);
    expect(await page.evaluate(() => window.dataLayer)).toContainEqual({ event: 'sign_up', method: 'email' });
    await expect(page.getByTestId('account-button')).toHaveAccessibleName('Profile');

    // The activation email's link activates the account and leaves the URL clean.
    await page.goto(await emailedLink(request, email, 'account-activation'));
    await closeNotice(page, 'Account activated');
    await expect(page).toHaveURL(/\/$/);

    await page.getByTestId('account-button').click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('activated-state')).toHaveText('Activated');
    await expect(page.getByTestId('account-button')).toBeDisabled();
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('account-button')).toHaveAccessibleName('Log in');

    // Forgot password: request the email, open its link, set a new password.
    await page.getByTestId('account-button').click();
    await page.getByTestId('auth-modal').getByRole('button', { name: 'Forgot password?' }).click();
    const reset = page.getByTestId('reset-request-modal');
    await expect(reset.getByRole('button', { name: 'Send link' })).toBeDisabled();
    await reset.getByLabel('Email').fill(email);
    await reset.getByRole('button', { name: 'Send link' }).click();
    await closeNotice(page, 'Check your email');

    const resetLink = await emailedLink(request, email, 'password-reset');
    await page.goto(resetLink);
    const newPasswordForm = page.getByTestId('password-reset-modal');
    await newPasswordForm.getByLabel('New password').fill(newPassword);
    await newPasswordForm.getByLabel('Repeat password').fill(newPassword);
    await newPasswordForm.getByRole('button', { name: 'Save password' }).click();
    await closeNotice(page, 'Password created');
    await expect(page).toHaveURL(/\/$/);

    // The used link says so instead of showing the form again.
    await page.goto(resetLink);
    await closeNotice(page, 'This link was used or expired');
    await expect(page.getByTestId('password-reset-modal')).toHaveCount(0);

    // The old password no longer works; the new one does and opens the profile.
    await logIn(page, email, firstPassword);
    await expect(page.getByTestId('auth-modal').getByText('Incorrect username or password')).toBeVisible();
    await page.keyboard.press('Escape');
    await logIn(page, email, newPassword);
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('profile-email')).toHaveText(email);

    // Rename.
    const newName = `Renamed${run}`.slice(0, 16);
    await page.getByRole('button', { name: 'Change name' }).click();
    await page.getByLabel('New name').fill(newName);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('profile-name')).toHaveText(newName);

    // Review a product.
    await page.goto('/product/1');
    const form = page.getByRole('form', { name: 'Leave a review' });
    await form.getByRole('radio', { name: '5 stars' }).check();
    const text = `Code arrived at once, run ${run}.`;
    await form.getByLabel('Your review').fill(text);
    await form.getByRole('button', { name: 'Publish review' }).click();
    await expect(page.getByTestId('review-posted')).toBeVisible();
    // The author sees it as their own (to edit or delete) and in the product's reviews.
    await expect(page.getByTestId('own-review').getByText(text)).toBeVisible();
    await expect(page.getByText(text)).toHaveCount(2);
    await expect(page.getByText(newName).first()).toBeVisible();
  },
);

test('account: verify the email after logging in, change the email and the password by emailed links', async ({
  page,
  request,
}, info) => {
  const customer = newCustomer(info);
  const password = 'Firstpass1';
  await page.goto('/');
  await register(page, customer, password);

  // Ask for a verification email, then open its link signed out: the auth modal comes first.
  await page.goto('/profile');
  await expect(page.getByTestId('verified-state')).toHaveText('Not confirmed');
  await page.getByRole('button', { name: 'Send verification email' }).click();
  await expect(page.getByText('Verification email sent. Check your inbox.')).toBeVisible();
  await logOut(page);
  await page.goto(await emailedLink(request, customer.email, 'email-verify'));
  const modal = page.getByTestId('auth-modal');
  await expect(modal).toBeVisible();
  await modal.getByLabel('Email').fill(customer.email);
  await modal.getByLabel('Password', { exact: true }).fill(password);
  await modal.getByRole('button', { name: 'Log in', exact: true }).click();
  await closeNotice(page, 'Email confirmed');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/profile');
  await expect(page.getByTestId('verified-state')).toHaveText('Confirmed');

  // Change the email: the form takes the current password, the link goes to the new address, and
  // once it is opened the old address gets a link that undoes the change.
  const newEmail = `new-${customer.email}`;
  await page.getByRole('button', { name: 'Change email' }).click();
  const emailForm = page.getByRole('form', { name: 'Change email' });
  await emailForm.getByLabel('New email').fill(newEmail);
  await emailForm.getByLabel('Current password').fill('Wrongpass1');
  await emailForm.getByRole('button', { name: 'Send confirmation' }).click();
  await expect(emailForm.getByText('The current password is not correct.')).toBeVisible();
  await emailForm.getByLabel('Current password').fill(password);
  await emailForm.getByRole('button', { name: 'Send confirmation' }).click();
  await expect(page.getByText(`We have sent a message to ${newEmail}.`, { exact: false })).toBeVisible();
  await page.goto(await emailedLink(request, newEmail, 'email-change'));
  await closeNotice(page, 'Email changed');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(newEmail);
  expect(await emailedLink(request, customer.email, 'email-changed')).toMatch(/^\/email-change-undo\/[\w-]{43}$/);

  // Change the password: the current one is checked, the new one counts once the link is opened.
  const newPassword = 'Secondpass2';
  await page.getByLabel('Current password').fill(password);
  await page.getByLabel('New password').fill(newPassword);
  await page.getByLabel('Repeat password').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('We have emailed you a link to confirm the new password.')).toBeVisible();
  await page.goto(await emailedLink(request, newEmail, 'password-change'));
  await closeNotice(page, 'Password changed');

  await logOut(page);
  await logIn(page, newEmail, newPassword);
  await expect(page).toHaveURL(/\/profile$/);
});

test('account: the profile sends the activation email again; its link activates', async ({ page, request }, info) => {
  const { email, name } = newCustomer(info);
  await page.goto('/');
  await register(page, { name, email }, 'Firstpass1');
  await page.getByTestId('account-button').click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByTestId('activated-state')).toHaveText('Not activated');
  const first = await emailedLink(request, email, 'account-activation');

  await page.getByRole('button', { name: 'Send the activation email again' }).click();
  await expect(page.getByText('Activation email sent. Open its link to activate your account.')).toBeVisible();
  await expect.poll(() => emailedLink(request, email, 'account-activation')).not.toBe(first);

  await page.goto(await emailedLink(request, email, 'account-activation'));
  await closeNotice(page, 'Account activated');
  await page.goto('/profile');
  await expect(page.getByTestId('activated-state')).toHaveText('Activated');
  await expect(page.getByRole('button', { name: 'Send the activation email again' })).toHaveCount(0);
});
