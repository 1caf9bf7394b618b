import { useTranslation } from 'react-i18next';

/** The interface language as a BCP 47 tag for Intl. */
export function useLocale(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? i18n.language ?? 'en';
}
