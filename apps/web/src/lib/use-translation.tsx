import {
  Children,
  cloneElement,
  createContext,
  isValidElement,
  type ReactElement,
  type ReactNode,
  useContext,
  useSyncExternalStore,
} from 'react';
import type { Translate, Translator } from './translator.ts';

const TranslatorContext = createContext<Translator | null>(null);

export function TranslatorProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <TranslatorContext.Provider value={translator}>{children}</TranslatorContext.Provider>;
}

/** The current language's `t`, re-rendering the component when the language or its texts change. */
export function useTranslation(): { t: Translate; i18n: Translator } {
  const translator = useContext(TranslatorContext);
  if (!translator) throw new Error('useTranslation needs a TranslatorProvider above it.');
  const t = useSyncExternalStore(translator.subscribe, () => translator.t);
  return { t, i18n: translator };
}

const TAG = /<(\w+)>(.*?)<\/\1>/gs;

/**
 * A text with markup from the catalogue, such as `I accept the <privacy>privacy policy</privacy>`:
 * each named tag becomes the element given for it, with the tag's text as its children. Tags
 * without an element stay plain text; the catalogue never reaches the page as HTML.
 */
export function Trans({
  i18nKey,
  values,
  components,
}: {
  i18nKey: string;
  values?: Record<string, unknown>;
  components: Record<string, ReactElement>;
}) {
  const { t } = useTranslation();
  const text = t(i18nKey, values);
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(TAG)) {
    const [whole, name = '', inner = ''] = match;
    if (match.index > last) nodes.push(text.slice(last, match.index));
    const element = components[name];
    nodes.push(isValidElement(element) ? cloneElement(element, { key: `${name}-${match.index}` }, inner) : inner);
    last = match.index + whole.length;
  }
  if (last < text.length) nodes.push(text.slice(last));
  return <>{Children.toArray(nodes)}</>;
}
