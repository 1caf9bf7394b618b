import * as Dialog from '@radix-ui/react-dialog';
import { BREAKPOINTS, STORE_CURRENCY } from '@store/contract';
import { Link } from 'react-router-dom';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { formatNumber, formatPrice } from '../../../lib/format.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useCategories } from '../../catalogue/api/get-categories.ts';
import { basketCount, basketTotalMinor } from '../basket-store.ts';
import { useBasket } from '../hooks/use-basket.ts';
import styles from './basket-panel.module.css';

/** SPEC.md section 9: below this width an outside tap does not close the panel. */
const OUTSIDE_CLOSE_QUERY = `(min-width: ${BREAKPOINTS.outsideClick}px)`;

interface BasketPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/**
 * The slide-in basket: what is in it and the total. Changing quantities and checkout arrive with the
 * account and checkout screens; until then this panel only reads the local basket.
 */
export default function BasketPanel({ open, onOpenChange }: BasketPanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const lines = useBasket();
  const categories = useCategories();
  const close = () => onOpenChange(false);
  const total = basketTotalMinor(lines) / 100;

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.panel}
          data-testid="basket-panel"
          onPointerDownOutside={(event) => {
            if (!window.matchMedia(OUTSIDE_CLOSE_QUERY).matches) event.preventDefault();
          }}
        >
          <header className={styles.header}>
            <Dialog.Title className={styles.title}>
              {t('basket.title')}
              {lines.length > 0 && <span className={styles.count}>{formatNumber(basketCount(lines), locale)}</span>}
            </Dialog.Title>
            <Dialog.Close className={styles.close} aria-label={t('common.close')}>
              <CloseIcon />
            </Dialog.Close>
          </header>
          <Dialog.Description className="visually-hidden">{t('basket.description')}</Dialog.Description>

          {lines.length === 0 ? (
            <div className={styles.empty}>
              <p className={styles.emptyTitle}>{t('basket.empty')}</p>
              <p className={styles.muted}>{t('basket.emptyHint')}</p>
              <ul className={styles.categoryLinks}>
                {categories.data?.map((category) => (
                  <li key={category.id}>
                    <Link to={`/category/${category.id}`} onClick={close}>
                      {category.formatted_name}
                    </Link>
                  </li>
                ))}
              </ul>
              <button type="button" className={styles.back} onClick={close}>
                {t('basket.goBack')}
              </button>
            </div>
          ) : (
            <>
              <ul className={styles.lines}>
                {lines.map((line) => (
                  <li key={line.id} className={styles.line}>
                    {line.cover_path ? (
                      <img src={line.cover_path} alt="" width={64} height={40} className={styles.thumb} />
                    ) : (
                      <span className={styles.thumb} />
                    )}
                    <div className={styles.lineText}>
                      <Link to={`/product/${line.id}`} onClick={close} className={styles.lineName}>
                        {line.name}
                      </Link>
                      <span className={styles.muted}>
                        {t('basket.quantity', { count: line.pivot.quantity })} ×{' '}
                        {formatPrice(line.price, line.currency, locale)}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
              <footer className={styles.footer}>
                <div className={styles.total}>
                  <span>{t('basket.total')}</span>
                  <strong data-testid="basket-total">{formatPrice(total, STORE_CURRENCY, locale)}</strong>
                </div>
                <p className={styles.muted}>{t('basket.checkoutSoon')}</p>
                <button type="button" className={styles.checkout} disabled>
                  {t('basket.checkout')}
                </button>
              </footer>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
