import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { fillProviderCard, newCustomer, payWith, pickProduct, register } from './shop-helpers.ts';

/**
 * The operator console's walk: the owner signs in with the password and a TOTP code, imports codes
 * with a duplicate line in the pasted text, finds a paid order by the customer's email, refunds it to
 * the card, and sees the refund in the order's timeline and in the audit log, in Portuguese at
 * 1280 px; a support user, in English at 1024 px, sees the order but no refund.
 *
 * The staff were added with the operator command before the store started (seed-staff.mjs, run by
 * the web server's command); their codes are computed from the otpauth:// URI it printed.
 */
test.describe.configure({ mode: 'serial', timeout: 180_000 });

interface StaffMember {
  email: string;
  password: string;
  otpauth: string;
}

function staffMember(role: 'owner' | 'support'): StaffMember {
  const file = path.join(process.env.E2E_DATA_DIR ?? '', 'console-staff.json');
  expect(existsSync(file), 'the staff added by seed-staff.mjs before the store started').toBe(true);
  const member = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, StaffMember>)[role];
  expect(member, role).toBeDefined();
  return member as StaffMember;
}

/** The current code of the authenticator app that scanned `otpauth`. */
async function totpNow(otpauth: string): Promise<string> {
  const secret = new URL(otpauth).searchParams.get('secret');
  expect(secret, 'the otpauth URI carries the secret').toBeTruthy();
  return generate({ secret: secret ?? '' });
}

/** Signs in at /admin with the password and a TOTP code, in the console language `language`. */
async function signIn(
  page: Page,
  member: StaffMember,
  texts: { email: string; password: string; code: string; submit: string },
) {
  await page.goto('/admin/');
  await page.getByLabel(texts.email).fill(member.email);
  await page.getByLabel(texts.password).fill(member.password);
  await page.getByLabel(texts.code).fill(await totpNow(member.otpauth));
  await page.getByRole('button', { name: texts.submit, exact: true }).click();
  await expect(page.getByTestId('signed-in-as')).toContainText(member.email);
}

async function expectNoHorizontalScroll(page: Page) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

let orderNumber = '';
let customerEmail = '';

test('the owner signs in, imports codes, finds a paid order by email and refunds it to the card', async ({
  page,
  browser,
}, info) => {
  test.skip(info.project.name !== 'desktop', 'the console is for desktop widths');

  // A customer buys one code with a card, in the shop.
  const customer = newCustomer(info, 'console');
  customerEmail = customer.email;
  await register(page, customer);
  await page.goto('/');
  const { card, name } = await pickProduct(page, info, 29);
  const href = await card.getByRole('link', { name }).getAttribute('href');
  const productId = Number(href?.split('/').pop());
  await card.getByRole('button', { name: `Buy ${name}` }).click();
  await page.goto('/checkout');
  await payWith(page, 'card');
  await fillProviderCard(page.frameLocator('iframe[title="Card payment"]'), '4242 4242 4242 4242');
  await expect(page.getByTestId('payment-success-modal')).toBeVisible({ timeout: 30_000 });

  // The owner, in Portuguese (the console's default) at 1280 px, in a browser of their own.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  const consolePage = await context.newPage();
  const owner = staffMember('owner');
  await signIn(consolePage, owner, {
    email: 'E-mail',
    password: 'Senha',
    code: 'Código de seis dígitos do aplicativo',
    submit: 'Entrar',
  });
  await expect(consolePage.getByRole('navigation').getByRole('link', { name: 'Equipe' })).toBeVisible();
  await expectNoHorizontalScroll(consolePage);

  // Codes pasted with one line repeated: imported once, the repeat reported by its line, the batch listed.
  await consolePage.getByRole('link', { name: 'Estoque de códigos' }).click();
  const run = Date.now().toString(36).toUpperCase();
  const batchLabel = `fornecedor-${run}`;
  await consolePage.getByLabel('Id do produto').first().fill(String(productId));
  await consolePage.getByLabel('Identificação do lote').fill(batchLabel);
  await consolePage.getByLabel('Códigos, um por linha').fill(`WALK-${run}-A\nWALK-${run}-B\nWALK-${run}-A\n`);
  await consolePage.getByRole('button', { name: 'Importar', exact: true }).click();
  const report = consolePage.getByTestId('import-report');
  await expect(report).toContainText('2 códigos adicionados de 3 linhas.');
  await expect(report).toContainText('1 linha repete uma linha anterior e ficou de fora: 3.');
  const batchRow = consolePage.getByRole('row').filter({ hasText: batchLabel });
  await expect(batchRow).toHaveCount(1);
  await expect(batchRow).toContainText(name);
  await expect(batchRow.getByRole('cell').nth(3)).toHaveText('2');
  await expectNoHorizontalScroll(consolePage);

  // The paid order, found by the customer's email.
  await consolePage.getByRole('link', { name: 'Pedidos' }).click();
  await consolePage.getByLabel('E-mail do cliente').fill(customer.email);
  await consolePage.getByRole('button', { name: 'Pesquisar' }).click();
  const row = consolePage.getByRole('row').filter({ hasText: customer.email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/Pago|Entregue/);
  orderNumber = ((await row.getByRole('link').textContent()) ?? '').trim();
  await row.getByRole('link').click();
  await expect(consolePage.getByRole('heading', { name: `Pedido ${orderNumber}` })).toBeVisible();
  await expectNoHorizontalScroll(consolePage);

  // Refunded to the card, the whole of it, with a reason, after the confirm step.
  await consolePage.getByRole('button', { name: 'Reembolsar' }).click();
  const dialog = consolePage.getByRole('dialog');
  await dialog.getByLabel(/O cartão usado no pagamento/).check();
  await dialog.getByLabel('Todo o restante').check();
  await dialog.getByLabel(/Motivo/).fill('Código não funcionou para o cliente');
  await dialog.getByRole('button', { name: 'Revisar o reembolso' }).click();
  await expect(dialog.getByTestId('refund-summary')).toContainText(`para o cartão`);
  await dialog.getByRole('button', { name: 'Reembolsar agora' }).click();
  await expect(dialog).toBeHidden();

  // The refund in the order's timeline, and in the audit log with the owner's name on it.
  await expect(consolePage.getByTestId('order-timeline')).toContainText(/refund/i, { timeout: 30_000 });
  await consolePage.getByRole('link', { name: 'Auditoria' }).click();
  const audit = consolePage.getByTestId('audit-table');
  const refundRow = audit.getByRole('row').filter({ hasText: 'Reembolsou um pedido' }).first();
  await expect(refundRow).toContainText(owner.email);
  await expect(refundRow).toContainText('Proprietário');
  await expect(audit.getByRole('row').filter({ hasText: 'Importou códigos' }).first()).toBeVisible();
  await expectNoHorizontalScroll(consolePage);
  await context.close();
});

test('a support user, in English at 1024 px, reads the order but cannot refund it', async ({ browser }, info) => {
  test.skip(info.project.name !== 'desktop', 'the console is for desktop widths');
  expect(orderNumber, 'the owner’s walk found the order').not.toBe('');
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
  const consolePage = await context.newPage();
  await consolePage.goto('/admin/');
  await consolePage.getByRole('combobox', { name: 'Idioma' }).selectOption('en');
  await expect(consolePage.getByRole('combobox', { name: 'Language' })).toBeVisible();
  await signIn(consolePage, staffMember('support'), {
    email: 'Email',
    password: 'Password',
    code: 'Six-digit code from the app',
    submit: 'Sign in',
  });
  const nav = consolePage.getByRole('navigation', { name: 'Console sections' });
  await expect(nav.getByRole('link', { name: 'Orders' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Code stock' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);

  await nav.getByRole('link', { name: 'Orders' }).click();
  await consolePage.getByLabel('Customer email').fill(customerEmail);
  await consolePage.getByRole('button', { name: 'Search' }).click();
  await consolePage.getByRole('link', { name: orderNumber }).click();
  await expect(consolePage.getByRole('heading', { name: `Order ${orderNumber}` })).toBeVisible();
  await expect(consolePage.getByRole('button', { name: 'Resend receipt' })).toBeVisible();
  await expect(consolePage.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);

  // A delivered code shown for the customer's ticket, once the reason is given.
  await consolePage.getByRole('button', { name: 'Show code 1' }).click();
  const reveal = consolePage.getByRole('dialog');
  await expect(reveal.getByRole('button', { name: 'Show the code' })).toBeDisabled();
  await reveal.getByLabel(/Reason/).fill('Ticket 4471: the customer lost the email');
  await reveal.getByRole('button', { name: 'Show the code' }).click();
  await expect(reveal.getByTestId('revealed-code')).toHaveText(/^\S{5,}$/);
  await reveal.getByRole('button', { name: 'Close' }).click();
  await expectNoHorizontalScroll(consolePage);

  // Nor can the API be asked directly with the support token.
  const token = await consolePage.evaluate(
    () => JSON.parse(sessionStorage.getItem('admin-session') ?? '{}').token as string,
  );
  const orders = await consolePage.request.get(`/api/admin/orders?email=${encodeURIComponent(customerEmail)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const [order] = ((await orders.json()) as { items: { id: string }[] }).items;
  const refused = await consolePage.request.post(`/api/admin/orders/${order?.id}/refund`, {
    headers: { authorization: `Bearer ${token}` },
    data: { to: 'card', reason: 'support should not', idempotency_key: crypto.randomUUID() },
  });
  expect(refused.status()).toBe(403);
  await context.close();
});
