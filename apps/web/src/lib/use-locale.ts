import { useTranslation } from './use-translation.tsx';

/** The interface language as a BCP 47 tag for Intl. */
export function useLocale(): string {
  const { i18n } = useTranslation();
  return i18n.language;
}
