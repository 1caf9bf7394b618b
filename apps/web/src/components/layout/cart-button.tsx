import { basketCount } from '../../features/basket/basket-store.ts';
import { cartButtonRef, useBasketUi } from '../../features/basket/basket-ui-context.ts';
import { useBasket } from '../../features/basket/hooks/use-basket.ts';
import { formatNumber } from '../../lib/format.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import { CartIcon } from '../ui/icons.tsx';
import styles from './header.module.css';

export function CartButton() {
  const { t } = useTranslation();
  const locale = useLocale();
  const count = basketCount(useBasket());
  const { openBasket } = useBasketUi();
  return (
    <button
      ref={cartButtonRef}
      type="button"
      className={styles.iconButton}
      onClick={openBasket}
      aria-label={t('header.cartLabel', { count })}
      data-testid="cart-button"
    >
      <CartIcon />
      <span className={styles.buttonText}>{t('header.cart')}</span>{' '}
      {count > 0 && (
        // The name ("Basket 2 items") holds what is seen, word and count, in the order seen: voice
        // control finds the button by what it shows.
        <span className={styles.badge} data-testid="cart-count">
          {formatNumber(count, locale)}
        </span>
      )}
    </button>
  );
}
