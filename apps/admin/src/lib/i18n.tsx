import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { type Catalogue, createTranslate, type Translate } from './translator.ts';

export const LANGUAGES = ['pt-BR', 'en', 'ru', 'hi'] as const;
export type Language = (typeof LANGUAGES)[number];
/** The store's operators read Portuguese first. */
export const DEFAULT_LANGUAGE: Language = 'pt-BR';
/** Apart from the storefront's `lang`: a shopper's choice on this machine is not the operator's. */
export const LANGUAGE_STORAGE_KEY = 'admin-lang';

/** Each catalogue is its own chunk: an operator downloads only the language they read. */
const catalogues: Record<Language, () => Promise<{ default: Catalogue }>> = {
  'pt-BR': () => import('../locales/pt-BR.json'),
  en: () => import('../locales/en.json'),
  ru: () => import('../locales/ru.json'),
  hi: () => import('../locales/hi.json'),
};

export const isLanguage = (value: unknown): value is Language => LANGUAGES.includes(value as Language);

export function storedLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Blocked storage: the default language.
  }
  return DEFAULT_LANGUAGE;
}

export interface I18n {
  language: Language;
  t: Translate;
  setLanguage: (language: Language) => Promise<void>;
}

const I18nContext = createContext<I18n | null>(null);

export async function loadCatalogue(language: Language): Promise<Catalogue> {
  return (await catalogues[language]()).default;
}

export function I18nProvider({
  initial,
  children,
}: {
  initial: { language: Language; catalogue: Catalogue };
  children: ReactNode;
}) {
  const [state, setState] = useState(initial);
  const setLanguage = useCallback(async (language: Language) => {
    // Remembered at once, before the catalogue arrives: a reload meanwhile keeps the choice.
    try {
      localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // The choice lasts as long as the page.
    }
    const catalogue = await loadCatalogue(language);
    document.documentElement.lang = language;
    setState({ language, catalogue });
  }, []);
  const value = useMemo(
    () => ({ language: state.language, t: createTranslate(state.language, state.catalogue), setLanguage }),
    [state, setLanguage],
  );
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18n {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error('useI18n needs an I18nProvider above it.');
  return i18n;
}
