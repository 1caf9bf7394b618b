import { COUNTRY_LABEL_CUT } from '@store/contract';
import { regionName } from '../../../lib/format.ts';
import { cut } from '../../../lib/text.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';

/**
 * A country's name in the interface language. Regions (a null name in the data) such as EU or GLOBAL
 * have their own translations.
 */
export function useCountryName() {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  return (code: string, fallback?: string | null) => {
    const key = `region.${code}`;
    if (i18n.exists(key)) return t(key);
    return regionName(code, locale) ?? fallback ?? code;
  };
}

export function CountryLabel({ code, fallback, short }: { code: string; fallback?: string | null; short?: boolean }) {
  const name = useCountryName()(code, fallback);
  return <>{short ? cut(name, COUNTRY_LABEL_CUT) : name}</>;
}
