import { approxPrice } from '../../../lib/display-rate.ts';
import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './price.module.css';

interface PriceProps {
  /** The price in minor units (cents) of `currency`, the store's. */
  minor: number;
  oldMinor?: number | null;
  currency: string;
  size?: 'md' | 'lg';
}

/**
 * The price with its currency; a discounted price shows the old one struck through. In a language
 * with a display rate, "≈ 1 755 ₽": the approximate price in the language's currency.
 */
export function Price({ minor, oldMinor, currency, size = 'md' }: PriceProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const discounted = oldMinor != null && oldMinor > minor;
  const shown = (cents: number) => approxPrice(cents, locale) ?? formatPrice(cents / 100, currency, locale);
  return (
    <span className={`${styles.price} ${size === 'lg' ? styles.large : ''}`}>
      <span className={discounted ? styles.sale : styles.current} data-testid="price">
        {discounted && <span className="visually-hidden">{t('product.newPrice')} </span>}
        {shown(minor)}
      </span>
      {discounted && (
        <s className={styles.old}>
          <span className="visually-hidden">{t('product.oldPrice')} </span>
          {shown(oldMinor)}
        </s>
      )}
    </span>
  );
}
