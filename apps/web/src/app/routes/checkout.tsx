import { STORE_CURRENCY } from '@store/contract';
import { useLocation, useNavigate } from 'react-router-dom';
import { openAuth } from '../../features/auth/account-ui-store.ts';
import { useSession } from '../../features/auth/hooks/use-session.ts';
import { useBasketUi } from '../../features/basket/basket-ui-context.ts';
import { BasketTotal } from '../../features/basket/components/basket-total.tsx';
import { PromoField } from '../../features/basket/components/promo-field.tsx';
import { RegionNote } from '../../features/basket/components/region-note.tsx';
import { useBasket } from '../../features/basket/hooks/use-basket.ts';
import { basketTotals, usePromo } from '../../features/basket/promo-store.ts';
import styles from '../../features/checkout/components/checkout.module.css';
import { useCancelledReturn } from '../../features/payments/cancelled-return.ts';
import { MethodChoice } from '../../features/payments/components/method-choice.tsx';
import { opensWithBalance } from '../../features/payments/topup-return.ts';
import { formatPrice } from '../../lib/format.ts';
import { ensureTexts } from '../../lib/i18n.ts';
import { getToken } from '../../lib/session-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { useTranslation } from '../../lib/use-translation.tsx';

/**
 * The customer's queued basket changes are sent and the server basket read before the page shows,
 * so the summary is the server's. A failure leaves the basket as this device has it; the queue
 * keeps retrying.
 */
export async function loader() {
  const texts = Promise.all([ensureTexts('basket'), ensureTexts('payments')]);
  if (getToken()) {
    const { refreshBasket } = await import('../../features/basket/basket-sync.ts');
    await refreshBasket();
  }
  await texts;
}

/** /checkout: the order summary, the promo code and the payment method. */
export function Component() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = useSession();
  useCancelledReturn('purchase');
  const lines = useBasket();
  const promo = usePromo();
  const { openBasket } = useBasketUi();
  useDocumentTitle(t('checkout.title'));

  const heading = <h1 className={styles.title}>{t('checkout.title')}</h1>;

  if (!token) {
    return (
      <div className={styles.page} data-testid="checkout-page">
        {heading}
        <div className={`${styles.card} ${styles.prompt}`}>
          <h2 className={styles.cardTitle}>{t('checkout.loginTitle')}</h2>
          <p className={styles.muted}>{t('checkout.loginText')}</p>
          <button type="button" className={styles.primary} onClick={() => openAuth('login', { stay: true })}>
            {t('checkout.login')}
          </button>
        </div>
      </div>
    );
  }

  if (lines.length === 0) {
    return (
      <div className={styles.page} data-testid="checkout-page">
        {heading}
        <div className={`${styles.card} ${styles.prompt}`}>
          <h2 className={styles.cardTitle}>{t('checkout.empty')}</h2>
          <p className={styles.muted}>{t('checkout.emptyText')}</p>
          <button type="button" className={styles.primary} onClick={() => navigate('/')}>
            {t('checkout.toShop')}
          </button>
        </div>
      </div>
    );
  }

  const { totalMinor, discountMinor } = basketTotals(lines, promo);
  const price = (minor: number) => formatPrice(minor / 100, STORE_CURRENCY, locale);

  return (
    <div className={styles.page} data-testid="checkout-page">
      {heading}
      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="checkout-summary">
          <div className={styles.cardHead}>
            <h2 id="checkout-summary" className={styles.cardTitle}>
              {t('checkout.summary')}
            </h2>
            <button type="button" className={styles.secondary} onClick={openBasket}>
              {t('checkout.editBasket')}
            </button>
          </div>
          <ul className={styles.lines} data-testid="checkout-lines">
            {lines.map((line) => (
              <li key={line.id} className={styles.line} data-testid="checkout-line">
                <span className={styles.lineName}>{line.name}</span>
                <strong className={styles.lineTotal}>{price(line.price_minor * line.pivot.quantity)}</strong>
                <span className={styles.muted} data-testid="checkout-line-quantity">
                  {t('basket.quantity', { count: line.pivot.quantity })} ×{' '}
                  {formatPrice(line.price, line.currency, locale)}
                </span>
                <RegionNote line={line} className={styles.region} />
              </li>
            ))}
          </ul>
          <PromoField lines={lines} />
          <dl className={styles.sums}>
            <div className={styles.sum}>
              <dt>{t('checkout.subtotal')}</dt>
              <dd>{price(totalMinor)}</dd>
            </div>
            {promo && (
              <div className={`${styles.sum} ${styles.discount}`}>
                <dt>{t('checkout.discount', { code: promo.code, discount: promo.discount })}</dt>
                <dd data-testid="checkout-discount">−{price(discountMinor)}</dd>
              </div>
            )}
          </dl>
          <BasketTotal lines={lines} promo={promo} label={t('checkout.total')} />
          <p className={styles.muted} data-testid="checkout-charged-in">
            {t('checkout.chargedIn', { currency: STORE_CURRENCY })}
          </p>
        </section>
        <section className={styles.card} aria-labelledby="checkout-payment">
          <h2 id="checkout-payment" className={styles.cardTitle}>
            {t('checkout.payment')}
          </h2>
          <MethodChoice mode="purchase" initialMethod={opensWithBalance(location.state) ? 'balance' : undefined} />
        </section>
      </div>
    </div>
  );
}
