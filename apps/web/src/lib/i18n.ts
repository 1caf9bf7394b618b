import { type Catalogue, mergeTexts, Translator } from './translator.ts';

export const LANGUAGES = ['pt-BR', 'en', 'ru', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The product sets English at runtime; Portuguese is the catalogue default. */
export const DEFAULT_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'lang';

/** Each catalogue is its own chunk: a visitor downloads only the language they read. */
const catalogues: Record<Language, () => Promise<{ default: Catalogue }>> = {
  'pt-BR': () => import('../locales/pt-BR.json'),
  en: () => import('../locales/en.json'),
  ru: () => import('../locales/ru.json'),
  hi: () => import('../locales/hi.json'),
};

/**
 * Texts only some screens read, kept out of the first download and merged into the catalogue when
 * a screen that needs them loads: the information pages' bodies (a third of every catalogue), the
 * account screens' forms, messages and profile (another third of what was left), and the basket
 * panel's, promo code's and checkout's texts, and the payment dialogs', card form's and purchases'.
 */
const parts = {
  info: {
    'pt-BR': () => import('../locales/info/pt-BR.json'),
    en: () => import('../locales/info/en.json'),
    ru: () => import('../locales/info/ru.json'),
    hi: () => import('../locales/info/hi.json'),
  },
  account: {
    'pt-BR': () => import('../locales/account/pt-BR.json'),
    en: () => import('../locales/account/en.json'),
    ru: () => import('../locales/account/ru.json'),
    hi: () => import('../locales/account/hi.json'),
  },
  basket: {
    'pt-BR': () => import('../locales/basket/pt-BR.json'),
    en: () => import('../locales/basket/en.json'),
    ru: () => import('../locales/basket/ru.json'),
    hi: () => import('../locales/basket/hi.json'),
  },
  shop: {
    'pt-BR': () => import('../locales/shop/pt-BR.json'),
    en: () => import('../locales/shop/en.json'),
    ru: () => import('../locales/shop/ru.json'),
    hi: () => import('../locales/shop/hi.json'),
  },
  payments: {
    'pt-BR': () => import('../locales/payments/pt-BR.json'),
    en: () => import('../locales/payments/en.json'),
    ru: () => import('../locales/payments/ru.json'),
    hi: () => import('../locales/payments/hi.json'),
  },
} satisfies Record<string, Record<Language, () => Promise<{ default: Catalogue }>>>;
export type TextPart = keyof typeof parts;

/** The one translator of the page, created by initI18n. */
let translator: Translator | undefined;

/** The parts each language has downloaded, or is downloading, by `part:language`. */
const partsLoaded = new Map<string, Promise<void>>();
const partTexts = new Map<string, Catalogue>();

function loadPart(part: TextPart, language: Language): Promise<void> {
  const key = `${part}:${language}`;
  let loading = partsLoaded.get(key);
  if (!loading) {
    loading = parts[part][language]().then((module) => {
      partTexts.set(key, module.default);
      // Merged now if the language is current; changeLanguage merges it when it becomes current.
      if (translator?.language === language) translator.addTexts(module.default);
    });
    // A failed download may be tried again by the next page that needs it.
    loading.catch(() => partsLoaded.delete(key));
    partsLoaded.set(key, loading);
  }
  return loading;
}

/** Resolves once `part` is in the current language's catalogue (complete: the locale test sees to it). */
export function ensureTexts(part: TextPart): Promise<void> {
  return loadPart(part, currentLanguage());
}

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

/**
 * The interface language now, for code outside React (a route's loader). The first page's loader
 * runs while the catalogue is still downloading, before there is a translator: the language is then
 * the stored one, which initI18n is loading.
 */
export function currentLanguage(): Language {
  const language = translator?.language;
  return isLanguage(language) ? language : storedLanguage();
}

export function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage can be blocked (private mode, embedded frames): use the default.
  }
  return DEFAULT_LANGUAGE;
}

function reflectLanguage(language: Language) {
  document.documentElement.lang = language;
  // Hindi's Devanagari font: downloaded for Hindi alone, never on another language's first load.
  if (language === 'hi') void import('../styles/devanagari-font.css');
}

/** Loads the stored language's catalogue and creates the page's translator with it. */
export async function initI18n(language: Language = storedLanguage()): Promise<Translator> {
  const catalogue = (await catalogues[language]()).default;
  // The parts the first page's loader downloaded meanwhile; those still on their way merge as they come.
  const early = [...partTexts].filter(([key]) => key.endsWith(`:${language}`)).map(([, texts]) => texts);
  translator = new Translator(language, early.reduce(mergeTexts, catalogue));
  reflectLanguage(language);
  return translator;
}

/** Switches the interface language and remembers the choice for the next visit. */
export async function changeLanguage(language: Language) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Not persisted, still switched for this visit.
  }
  // The new catalogue first, then every part the visit has needed so far, then the switch: the page
  // never renders in the new language with a part still missing.
  const catalogue = (await catalogues[language]()).default;
  const needed = new Set([...partsLoaded.keys()].map((key) => key.split(':')[0] as TextPart));
  await Promise.all([...needed].map((part) => loadPart(part, language)));
  if (!translator) throw new Error('changeLanguage before initI18n');
  const texts = [...needed].reduce(
    (all, part) => mergeTexts(all, partTexts.get(`${part}:${language}`) ?? {}),
    catalogue,
  );
  translator.setLanguage(language, texts);
  reflectLanguage(language);
}
