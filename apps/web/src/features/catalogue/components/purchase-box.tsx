import { BASKET_LINE_MAX, instantMethodsFor, type ProductDetail } from '@store/contract';
import { type ReactNode, useId, useState } from 'react';
import { formatNumber } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { BackInStockConfirmation } from './back-in-stock-confirmation.tsx';
import { BackInStockForm } from './back-in-stock-form.tsx';
import { useCountryName } from './country-label.tsx';
import styles from './purchase-box.module.css';

/**
 * The ways to pay the checkout offers (docs/payments.md, "The provider port"), named on the product
 * page before buying.
 */
/** The ways to pay the product page names: a card, the instant transfer of the shopper's language, the balance. */
export const paymentMethodsFor = (locale: string) => ['card', ...instantMethodsFor(locale), 'balance'];

/** At most what is in stock and what one basket line holds. */
export const quantityMax = (stock: number) => Math.max(1, Math.min(stock, BASKET_LINE_MAX));

/**
 * What a gift-card buyer asks before paying, next to the price: where the card activates, how many
 * are left, how many to buy, and how to pay. `children` is the price and the Buy button, which
 * receives the chosen quantity.
 */
export function PurchaseBox({
  product,
  onBuy,
  children,
}: {
  product: ProductDetail;
  onBuy: (quantity: number) => void;
  children: (buy: () => void) => ReactNode;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const countryName = useCountryName();
  const id = useId();
  const max = quantityMax(product.stock);
  const [quantity, setQuantity] = useState(1);
  const set = (value: number) => setQuantity(Math.max(1, Math.min(max, Math.trunc(value) || 1)));

  return (
    <div className={styles.box} data-testid="purchase-box">
      <p className={styles.activates} data-testid="activates-on">
        {t('shop.activatesOnly', { country: countryName(product.country.code, product.country.name) })}
      </p>
      {children(() => onBuy(quantity))}
      <BackInStockConfirmation />
      {!product.in_stock && <BackInStockForm productId={product.id} />}
      {product.in_stock && (
        <>
          <p className={styles.stock} data-testid="stock-count">
            {t('shop.stockLeft', { count: product.stock, formatted: formatNumber(product.stock, locale) })}
          </p>
          <div className={styles.row}>
            <label htmlFor={id}>{t('shop.quantity')}</label>
            <span className={styles.quantity}>
              <button
                type="button"
                onClick={() => set(quantity - 1)}
                disabled={quantity <= 1}
                aria-label={t('shop.less')}
              >
                −
              </button>
              <input
                id={id}
                inputMode="numeric"
                value={quantity}
                onChange={(event) => set(Number(event.target.value.replace(/\D/g, '')))}
                data-testid="quantity"
              />
              <button
                type="button"
                onClick={() => set(quantity + 1)}
                disabled={quantity >= max}
                aria-label={t('shop.more')}
              >
                +
              </button>
            </span>
          </div>
        </>
      )}
      <div>
        <p className={styles.stock}>{t('shop.payWith')}</p>
        <ul className={styles.methods} data-testid="payment-methods">
          {paymentMethodsFor(locale).map((method) => (
            <li key={method}>{t(`shop.methods.${method}`)}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
