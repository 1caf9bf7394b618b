import { formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import styles from './price.module.css';

interface PriceProps {
  price: number;
  oldPrice?: number | null;
  currency: string;
  size?: 'md' | 'lg';
}

/** The price with its currency; a discounted price shows the old one struck through. */
export function Price({ price, oldPrice, currency, size = 'md' }: PriceProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const discounted = oldPrice != null && oldPrice > price;
  return (
    <span className={`${styles.price} ${size === 'lg' ? styles.large : ''}`}>
      <span className={discounted ? styles.sale : styles.current} data-testid="price">
        {discounted && <span className="visually-hidden">{t('product.newPrice')} </span>}
        {formatPrice(price, currency, locale)}
      </span>
      {discounted && (
        <s className={styles.old}>
          <span className="visually-hidden">{t('product.oldPrice')} </span>
          {formatPrice(oldPrice, currency, locale)}
        </s>
      )}
    </span>
  );
}
