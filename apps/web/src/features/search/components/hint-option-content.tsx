import { SearchIcon } from '../../../components/ui/icons.tsx';
import { approxPrice } from '../../../lib/display-rate.ts';
import { formatPrice } from '../../../lib/format.ts';
import { cut } from '../../../lib/text.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useCountryName } from '../../catalogue/components/country-label.tsx';
import type { Hint } from './hint.ts';
import styles from './search-box.module.css';

/** A hint's cover, name, article or region, and price: what helps a shopper choose between cards. */
export default function HintOptionContent({ hint }: { hint: Hint }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const countryName = useCountryName();
  return (
    <>
      {hint.thumbnail ? (
        <img className={styles.thumb} src={hint.thumbnail} alt="" width={36} height={36} loading="lazy" />
      ) : (
        <span className={styles.thumb}>
          <SearchIcon size={14} className={styles.optionIcon} />
        </span>
      )}
      {/* The spaces keep the parts apart in the option's accessible name. */}
      <span className={styles.optionBody}>
        <span className={styles.optionText} data-testid="hint-name">
          {cut(hint.name)}
        </span>{' '}
        <span className={styles.meta}>
          {hint.kind === 'article' && (
            <span className={styles.article}>{t('search.article', { article: hint.article })}</span>
          )}{' '}
          {hint.region && countryName(hint.region.code, hint.region.name)}
        </span>
      </span>{' '}
      {hint.price !== undefined && hint.currency && (
        <span className={styles.optionPrice} data-testid="hint-price">
          {/* A hint's price is in BRL with two decimals: its cents, converted when the language has a rate. */}
          {approxPrice(Math.round(hint.price * 100), locale) ?? formatPrice(hint.price, hint.currency, locale)}
        </span>
      )}
    </>
  );
}
