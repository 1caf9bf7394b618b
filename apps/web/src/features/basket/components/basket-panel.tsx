import * as Dialog from '@radix-ui/react-dialog';
import { BREAKPOINTS } from '@store/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { CloseIcon } from '../../../components/ui/icons.tsx';
import { formatNumber, formatPrice } from '../../../lib/format.ts';
import { focusPage } from '../../../lib/return-focus.ts';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useSession } from '../../auth/hooks/use-session.ts';
import { useCategories } from '../../catalogue/api/get-categories.ts';
import {
  type BasketLine,
  basketCount,
  changeLineQuantity,
  clearBasket,
  dismissCappedNotes,
  removeLine,
} from '../basket-store.ts';
import { checkoutFromBasket } from '../checkout-flow.ts';
import { useBasketState } from '../hooks/use-basket.ts';
import { clearPromo, usePromo } from '../promo-store.ts';
import { MinusIcon, PlusIcon, TrashIcon } from './basket-icons.tsx';
import styles from './basket-panel.module.css';
import { BasketTotal } from './basket-total.tsx';
import { CappedNotes } from './capped-notes.tsx';
import { PromoField } from './promo-field.tsx';
import { RegionNote } from './region-note.tsx';

/** Below this width an outside tap does not close the panel. */
const OUTSIDE_CLOSE_QUERY = `(min-width: ${BREAKPOINTS.outsideClick}px)`;

interface BasketPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the panel closes: the button that opened it. */
  returnFocus: () => void;
}

function BasketLineItem({ line, onNavigate }: { line: BasketLine; onNavigate: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const quantity = line.pivot.quantity;
  const max = line.max_quantity ?? Number.POSITIVE_INFINITY;
  return (
    <li className={styles.line} data-testid="basket-line">
      {line.cover_path ? (
        <img src={line.cover_path} alt="" width={64} height={40} className={styles.thumb} />
      ) : (
        <span className={styles.thumb} />
      )}
      <div className={styles.lineMain}>
        <Link to={`/product/${line.id}`} onClick={onNavigate} className={styles.lineName}>
          {line.name}
        </Link>
        <RegionNote line={line} className={styles.region} />
        <span className={styles.muted}>{formatPrice(line.price, line.currency, locale)}</span>
        <div className={styles.lineControls}>
          <fieldset className={styles.stepper} aria-label={t('basket.quantityOf', { name: line.name })}>
            <button
              type="button"
              className={styles.step}
              onClick={() => changeLineQuantity(line, -1)}
              aria-label={t('basket.decrease', { name: line.name })}
            >
              <MinusIcon />
            </button>
            <output className={styles.quantity} data-testid="line-quantity" aria-live="polite">
              {formatNumber(quantity, locale)}
            </output>
            <button
              type="button"
              className={styles.step}
              onClick={() => changeLineQuantity(line, 1)}
              disabled={quantity >= max}
              aria-label={t('basket.increase', { name: line.name })}
            >
              <PlusIcon />
            </button>
          </fieldset>
          <strong className={styles.lineTotal}>
            {formatPrice((line.price_minor * quantity) / 100, line.currency, locale)}
          </strong>
        </div>
      </div>
      <button
        type="button"
        className={styles.remove}
        onClick={() => removeLine(line)}
        aria-label={t('basket.remove', { name: line.name })}
      >
        <TrashIcon />
      </button>
    </li>
  );
}

/**
 * The slide-in basket: lines with + / − and remove, delete all, the promo code, the total, and
 * checkout. Count and total follow every change at once; the page behind does not scroll while it is
 * open; focus moves in when it opens and back to the opener when it closes.
 */
export default function BasketPanel({ open, onOpenChange, returnFocus }: BasketPanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const { token } = useSession();
  const { lines, capped } = useBasketState();
  const promo = usePromo();
  const categories = useCategories();
  const [checkout, setCheckout] = useState<'idle' | 'sending' | 'failed'>('idle');
  const close = () => onOpenChange(false);
  // Closed by going to the checkout: the focus goes to that page, not back to the basket button. A
  // guest's panel closed before the login that led there, so each opening starts afresh.
  const leaving = useRef(false);
  useEffect(() => {
    if (open) leaving.current = false;
  }, [open]);
  const empty = lines.length === 0;
  // A code applied to a basket that has since been emptied applies to nothing.
  useEffect(() => {
    if (empty && promo) clearPromo();
  }, [empty, promo]);

  const startCheckout = async () => {
    // A guest gets the auth modal, which opens in the panel's place rather than under it.
    if (!token) close();
    setCheckout('sending');
    const ok = await checkoutFromBasket((path) => {
      leaving.current = true;
      close();
      navigate(path);
    }).catch(() => false);
    setCheckout(ok ? 'idle' : 'failed');
  };

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
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (leaving.current) focusPage();
            else returnFocus();
          }}
        >
          <header className={styles.header}>
            <Dialog.Title className={styles.title}>
              {t('basket.title')}
              {lines.length > 0 && (
                <span className={styles.count} data-testid="basket-count">
                  {formatNumber(basketCount(lines), locale)}
                </span>
              )}
            </Dialog.Title>
            <Dialog.Close className={styles.close} aria-label={t('common.close')}>
              <CloseIcon />
            </Dialog.Close>
          </header>
          <Dialog.Description className="visually-hidden">{t('basket.description')}</Dialog.Description>

          {lines.length === 0 ? (
            <div className={styles.empty}>
              <CappedNotes notes={capped} onDismiss={dismissCappedNotes} />
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
              <div className={styles.body}>
                <CappedNotes notes={capped} onDismiss={dismissCappedNotes} />
                <ul className={styles.lines}>
                  {lines.map((line) => (
                    <BasketLineItem key={line.id} line={line} onNavigate={close} />
                  ))}
                </ul>
                <button type="button" className={styles.deleteAll} onClick={clearBasket}>
                  <TrashIcon size={16} />
                  {t('basket.deleteAll')}
                </button>
                <PromoField lines={lines} onLogin={close} />
              </div>
              <footer className={styles.footer}>
                <BasketTotal lines={lines} promo={promo} />
                {checkout === 'failed' && (
                  <p className={styles.failed} role="alert">
                    {t('basket.saveFailed')}
                  </p>
                )}
                <button
                  type="button"
                  className={styles.checkout}
                  onClick={startCheckout}
                  disabled={checkout === 'sending'}
                  aria-busy={checkout === 'sending'}
                  data-testid="checkout-button"
                >
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
