import { useTranslation } from '../../../lib/use-translation.tsx';
import { useCountryName } from '../../catalogue/components/country-label.tsx';
import type { BasketLine } from '../basket-store.ts';

/** Codes of these regions activate anywhere: nothing to remind of. */
const ANYWHERE = 'GLOBAL';

/**
 * The region a line's code activates in, and that it activates only there: a code bought for another
 * country's accounts is the commonest mistake with gift cards. A line kept from before the basket knew
 * its country shows nothing.
 */
export function RegionNote({ line, className }: { line: BasketLine; className?: string | undefined }) {
  const { t } = useTranslation();
  const countryName = useCountryName();
  if (!line.country || line.country.code === ANYWHERE) return null;
  return (
    <span className={className} data-testid="line-region">
      {t('basket.region', { region: countryName(line.country.code, line.country.name) })}
    </span>
  );
}
