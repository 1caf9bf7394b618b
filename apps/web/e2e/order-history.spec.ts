import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { extractText } from 'unpdf';
import {
  basketOne,
  expectAccessible,
  expectNoHorizontalOverflow,
  fillOwnCard,
  newCustomer,
  payWith,
  register,
} from './shop-helpers.ts';

// The profile's order history (docs/orders.md, "Order history" and "Receipts"): a customer whose card
// was declined once and who then paid walks both orders, opens the paid one's codes and downloads
// its receipt, in Portuguese on the narrowest phone and in English on a desktop.

const OK = '4242 4242 4242 4242';
const DECLINED = '4000 0000 0000 0002';

const TEXTS = {
  'pt-BR': {
    order: 'Pedido',
    delivered: 'Entregue',
    failed: 'Pagamento recusado',
    show: 'Mostrar código',
    receipt: 'Baixar o recibo (PDF)',
    noReceipt: 'O recibo é emitido quando o pedido é pago.',
    back: 'Voltar ao meu perfil',
  },
  en: {
    order: 'Order',
    delivered: 'Delivered',
    failed: 'Payment failed',
    show: 'Show code',
    receipt: 'Download the receipt (PDF)',
    noReceipt: 'A receipt is issued once the order is paid.',
    back: 'Back to my profile',
  },
} as const;

test.describe.configure({ timeout: 180_000 });

/** Pays the basket with the store's own card form; answers the card dialog. */
async function payWithOwnCard(page: Page, number: string) {
  await payWith(page, 'cardForm');
  const modal = page.getByTestId('card-modal');
  await fillOwnCard(modal, number);
  await modal.getByRole('button', { name: /^Pay BRL/ }).click();
  return modal;
}

/** The same text with every run of spaces (no-break ones too) made one plain space. */
const plain = (text: string) => text.replace(/\s+/g, ' ').trim();

for (const { language, width, slot } of [
  { language: 'pt-BR', width: 320, slot: 23 },
  { language: 'en', width: 1280, slot: 24 },
] as const) {
  test(`walks a failed and a paid order, their codes and the receipt, in ${language} at ${width} px`, async ({
    page,
  }, info) => {
    const words = TEXTS[language];
    await register(page, newCustomer(info, 'hist'));

    // A card declined: the order fails. The same basket then paid: a second order, delivered.
    await basketOne(page, info, slot);
    const declined = await payWithOwnCard(page, DECLINED);
    await expect(declined.getByTestId('card-failed')).toBeVisible({ timeout: 30_000 });
    await page.keyboard.press('Escape');
    await expect(declined).toBeHidden();
    await payWithOwnCard(page, OK);
    await expect(page.getByTestId('payment-success-modal')).toBeVisible({ timeout: 30_000 });

    // In the language and at the width of this walk.
    await page.goto('/');
    if (language !== 'en') {
      await page.getByTestId('language-switcher').selectOption(language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
    }
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/profile');

    // Newest first: the paid order, then the failed one (its failure is applied by the payment's job).
    const history = page.getByTestId('order-history');
    const cards = history.getByTestId('order-card');
    await expect(async () => {
      await page.reload();
      await expect(cards).toHaveCount(2);
      await expect(cards.nth(0).getByTestId('order-status')).toHaveText(words.delivered);
      await expect(cards.nth(1).getByTestId('order-status')).toHaveText(words.failed);
    }).toPass({ timeout: 30_000 });
    const total = plain((await cards.nth(0).getByTestId('order-total').textContent()) ?? '');
    expect(total).toMatch(/BRL/);
    await expectNoHorizontalOverflow(page, history);
    await expectAccessible(page, '[data-testid="order-history"]');

    // The failed order: no receipt, no codes.
    await cards.nth(1).getByRole('link').click();
    const failedPage = page.getByTestId('order-page');
    await expect(failedPage.getByTestId('order-status')).toHaveText(words.failed);
    await expect(failedPage).toContainText(words.noReceipt);
    await expect(failedPage.getByRole('button', { name: words.receipt })).toHaveCount(0);
    await expect(failedPage.getByTestId('order-codes')).toHaveCount(0);
    await expectNoHorizontalOverflow(page, failedPage);
    await failedPage.getByRole('link', { name: words.back }).click();

    // The paid order: its number, total and codes, then its receipt.
    await cards.nth(0).getByRole('link').click();
    const paidPage = page.getByTestId('order-page');
    const heading = paidPage.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText(new RegExp(`^${words.order} [0-9A-F]{8}$`));
    const number = ((await heading.textContent()) ?? '').split(' ').at(-1) ?? '';
    expect(page.url()).toContain(`/profile?order=${number.toLowerCase()}`);
    await expect(paidPage.getByTestId('order-page-total')).toHaveText(total);
    const code = paidPage.getByTestId('purchased-code').first();
    await code.getByRole('button', { name: words.show }).click();
    expect(((await code.getByTestId('code-value').textContent()) ?? '').trim().length).toBeGreaterThan(4);
    await expectNoHorizontalOverflow(page, paidPage);
    await expectAccessible(page);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      paidPage.getByRole('button', { name: words.receipt }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`receipt-${number}.pdf`);
    const pdf = await readFile(await download.path());
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(new Uint8Array(pdf), { mergePages: true });
    const receipt = plain(text);
    expect(receipt).toContain(number);
    expect(receipt).toContain(total);
    expect(receipt).toContain(language === 'en' ? 'Receipt' : 'Recibo');
  });
}
