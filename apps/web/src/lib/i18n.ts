import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = ['pt-BR', 'en', 'ru', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];

/** SPEC.md section 1: the product sets English at runtime; Portuguese is the catalogue default. */
export const DEFAULT_LANGUAGE: Language = 'en';
export const FALLBACK_LANGUAGE: Language = 'en';
export const LANGUAGE_STORAGE_KEY = 'lang';

/** Each catalogue is its own chunk: a visitor downloads only the language they read. */
const catalogues: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  'pt-BR': () => import('../locales/pt-BR.json'),
  en: () => import('../locales/en.json'),
  ru: () => import('../locales/ru.json'),
  hi: () => import('../locales/hi.json'),
};

/**
 * Texts only some pages read, kept out of the first download and merged into the catalogue when a
 * page that needs them loads: the information pages' bodies are a third of every catalogue.
 */
const parts = {
  info: {
    'pt-BR': () => import('../locales/info/pt-BR.json'),
    en: () => import('../locales/info/en.json'),
    ru: () => import('../locales/info/ru.json'),
    hi: () => import('../locales/info/hi.json'),
  },
} satisfies Record<string, Record<Language, () => Promise<{ default: ResourceKey }>>>;
export type TextPart = keyof typeof parts;

/** The parts each language has merged in, or is merging. */
const partsLoaded = new Map<string, Promise<void>>();

function loadPart(part: TextPart, language: Language): Promise<void> {
  const key = `${part}:${language}`;
  let loading = partsLoaded.get(key);
  if (!loading) {
    loading = parts[part][language]().then((module) => {
      i18next.addResourceBundle(language, 'translation', module.default, true, true);
    });
    // A failed download may be tried again by the next page that needs it.
    loading.catch(() => partsLoaded.delete(key));
    partsLoaded.set(key, loading);
  }
  return loading;
}

/** Resolves once `part` is in the current language's catalogue (complete: the locale test sees to it). */
export function ensureTexts(part: TextPart): Promise<void> {
  return loadPart(part, isLanguage(i18next.language) ? i18next.language : FALLBACK_LANGUAGE);
}

export const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

const lazyCatalogues: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isLanguage(language)) {
      callback(null, {});
      return;
    }
    catalogues[language]().then(
      (module) => callback(null, module.default),
      (error: Error) => callback(error, false),
    );
  },
};

export function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage can be blocked (private mode, embedded frames): use the default.
  }
  return DEFAULT_LANGUAGE;
}

function reflectLanguage(language: string) {
  document.documentElement.lang = language;
}

/** Starts i18next with the stored language; resolves once its catalogue has arrived. */
export async function initI18n(language: Language = storedLanguage()) {
  i18next.on('languageChanged', reflectLanguage);
  await i18next
    .use(lazyCatalogues)
    .use(initReactI18next)
    .init({
      lng: language,
      fallbackLng: FALLBACK_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      load: 'currentOnly',
      ns: ['translation'],
      defaultNS: 'translation',
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });
  reflectLanguage(i18next.language);
  return i18next;
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
  await i18next.loadLanguages(language);
  const needed = new Set([...partsLoaded.keys()].map((key) => key.split(':')[0] as TextPart));
  await Promise.all([...needed].map((part) => loadPart(part, language)));
  await i18next.changeLanguage(language);
}
