import { expect, test } from '@playwright/test';

test('a product page speaks the interface language: description and activation steps', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('lang', 'pt-BR'));
  await page.goto('/category/steam');
  await page.getByTestId('product-card').first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/product\/\d+$/);
  await expect(page.getByTestId('instructions')).toContainText('Carteira Steam');
  await expect(page.getByTestId('product-page')).toContainText('Adiciona fundos à Carteira Steam');
  await expect(page.getByTestId('product-page')).not.toContainText('Adds funds to a Steam Wallet');
});
