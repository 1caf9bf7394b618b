import { afterEach, describe, expect, it, vi } from 'vitest';

// Each test starts from a page that has just loaded: no translator, nothing downloaded.
const freshI18n = async () => {
  vi.resetModules();
  return import('./i18n.ts');
};

afterEach(() => localStorage.clear());

describe('the first page, loaded straight in a language other than English', () => {
  it('gets its texts in that language when its loader asks for them before the catalogue has arrived', async () => {
    localStorage.setItem('lang', 'pt-BR');
    const i18n = await freshI18n();
    // The loader runs while the first catalogue downloads (main.tsx preloads the first page).
    expect(i18n.currentLanguage()).toBe('pt-BR');
    await i18n.ensureTexts('shop');
    const translator = await i18n.initI18n();
    expect(translator.t('product.region')).toBe('País');
  });

  it('gets them too when the part arrives after the catalogue', async () => {
    localStorage.setItem('lang', 'ru');
    const i18n = await freshI18n();
    const part = i18n.ensureTexts('shop');
    const translator = await i18n.initI18n();
    await part;
    expect(translator.t('product.region')).not.toBe('product.region');
    expect(translator.t('product.region')).toBe(
      ((await import('../locales/shop/ru.json')).default as { product: { region: string } }).product.region,
    );
  });
});
