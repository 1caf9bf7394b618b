import type { ProductSummary } from '@store/contract';
import { Link } from 'react-router-dom';
import { CartIcon } from '../../../components/ui/icons.tsx';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useCountryName } from './country-label.tsx';
import { Price } from './price.tsx';
import styles from './product-card.module.css';
import { ProductCover } from './product-cover.tsx';
import { ProductRating } from './product-rating.tsx';

export interface ProductCardProps {
  product: ProductSummary;
  onBuy: (product: ProductSummary) => void;
  eager?: boolean;
  /** The name's heading level: one below the heading the grid sits under. */
  headingLevel?: 2 | 3;
}

/** A listing's card: cover, cover text, country icon, name, price, More details, Buy. */
export function ProductCard({ product, onBuy, eager, headingLevel = 2 }: ProductCardProps) {
  const Name = headingLevel === 2 ? 'h2' : 'h3';
  const { t } = useTranslation();
  const countryName = useCountryName()(product.country.code, product.country.name);
  const href = `/product/${product.id}`;
  return (
    <article className={styles.card} aria-labelledby={`product-${product.id}-name`} data-testid="product-card">
      <Link to={href} className={styles.coverLink} tabIndex={-1} aria-hidden="true">
        <ProductCover coverPath={product.cover_path} coverText={product.cover_text} eager={eager} />
      </Link>
      <div className={styles.body}>
        <div className={styles.meta}>
          {product.country_icon ? (
            <img
              className={styles.flag}
              src={product.country_icon}
              alt=""
              width={24}
              height={20}
              loading="lazy"
              decoding="async"
            />
          ) : null}
          <span className={styles.country} data-testid="card-country">
            {countryName}
          </span>
          {!product.in_stock && <span className={styles.out}>{t('product.outOfStock')}</span>}
          <ProductRating rating={product.rating} />
        </div>
        <Name className={styles.name} id={`product-${product.id}-name`}>
          <Link to={href}>{product.name}</Link>
        </Name>
        {/* The discount beside the price it lowers, not over the cover, whose text it covered. */}
        <div className={styles.priceRow}>
          <Price minor={product.price_minor} oldMinor={product.old_price_minor} currency={product.currency} />
          {product.discount > 0 && <span className={styles.badge}>−{product.discount}%</span>}
        </div>
        <div className={styles.actions}>
          <Link to={href} className={styles.details}>
            {t('product.moreDetails')}
          </Link>
          <button
            type="button"
            className={styles.buy}
            onClick={() => onBuy(product)}
            disabled={!product.in_stock}
            aria-label={t('product.buyNamed', { name: product.name })}
          >
            <CartIcon size={16} />
            {t('product.buy')}
          </button>
        </div>
      </div>
    </article>
  );
}
