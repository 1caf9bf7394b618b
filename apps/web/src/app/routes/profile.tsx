import { STORE_CURRENCY, TOPUP_MIN } from '@store/contract';
import { Navigate, useLocation, useNavigate } from 'react-router-dom';
import { NotFoundView } from '../../components/ui/not-found-view.tsx';
import { useUser } from '../../features/auth/api/get-user.ts';
import { useLogout } from '../../features/auth/api/logout.ts';
import { useSession } from '../../features/auth/hooks/use-session.ts';
import { PROFILE_PATH } from '../../features/auth/private-paths.ts';
import { OrderHistory } from '../../features/orders/components/order-history.tsx';
import { OrderView } from '../../features/orders/components/order-view.tsx';
import { useCancelledReturn } from '../../features/payments/cancelled-return.ts';
import { Purchases } from '../../features/payments/components/purchases.tsx';
import { openPaymentDialog } from '../../features/payments/payment-ui-store.ts';
import { balanceQueryOptions, useBalance } from '../../features/profile/api/get-balance.ts';
import { AccountData } from '../../features/profile/components/account-data.tsx';
import { EmailForm } from '../../features/profile/components/email-form.tsx';
import { NameForm } from '../../features/profile/components/name-form.tsx';
import { OwedNotice } from '../../features/profile/components/owed-notice.tsx';
import { PasswordForm } from '../../features/profile/components/password-form.tsx';
import styles from '../../features/profile/components/profile.module.css';
import { VerificationStatus } from '../../features/profile/components/verification-status.tsx';
import { formatPrice } from '../../lib/format.ts';
import { ensureTexts } from '../../lib/i18n.ts';
import { queryClient } from '../../lib/query-client.ts';
import { getToken } from '../../lib/session-store.ts';
import { useDocumentTitle } from '../../lib/use-document-title.ts';
import { useLocale } from '../../lib/use-locale.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import type { LoaderArgs } from '../route-page.tsx';

const ORDER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What /profile shows: the profile, or with `?order={id}` that order's page (the receipt email links
 * there), or the 404 page for an `order` that names no order. One route, so the first download
 * (the router, the private paths) stays as it was.
 */
function pageOf(search: string): { kind: 'profile' } | { kind: 'order'; orderId: string } | { kind: 'none' } {
  const orderId = new URLSearchParams(search).get('order');
  if (orderId === null) return { kind: 'profile' };
  return ORDER_ID.test(orderId) ? { kind: 'order', orderId } : { kind: 'none' };
}

/** The profile and its orders' pages are private; without a session they are Index (the page redirects). */
export async function loader({ url }: LoaderArgs) {
  if (getToken() && pageOf(url.search).kind === 'profile') void queryClient.prefetchQuery(balanceQueryOptions());
  await Promise.all([ensureTexts('account'), ensureTexts('payments')]);
}

/** /profile, and /profile?order={id}: one order of the customer's, with its receipt and codes. */
export function Component() {
  const page = pageOf(useLocation().search);
  const { token } = useSession();
  if (page.kind === 'profile') return <ProfilePage />;
  if (!token) return <Navigate to="/" replace />;
  if (page.kind === 'none') return <NotFoundView />;
  return <OrderView orderId={page.orderId} />;
}

function ProfilePage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const { token } = useSession();
  const user = useUser();
  const balance = useBalance();
  const logout = useLogout();
  useDocumentTitle(t('profile.title'));
  useCancelledReturn('balance');

  if (!token) return <Navigate to="/" replace />;
  if (!user.data) return <p className={styles.label}>{t('common.loading')}</p>;
  const { name, email, verified, activated } = user.data;
  const amount = balance.data?.balance ?? user.data.balance;
  // The balance's answer is the newer one; absent there, nothing is owed.
  const owedMinor = (balance.data ? balance.data.owed_minor : user.data.owed_minor) ?? 0;

  return (
    <div className={styles.page} data-testid="profile-page">
      <div className={styles.head}>
        <h1 className={styles.title}>{t('profile.title')}</h1>
        <button
          type="button"
          className={styles.button}
          disabled={logout.isPending}
          onClick={() => logout.mutate(undefined, { onSettled: () => navigate('/', { replace: true }) })}
        >
          {t('profile.logout')}
        </button>
      </div>
      <div className={styles.grid}>
        <section className={styles.card} aria-labelledby="profile-account">
          <h2 id="profile-account" className={styles.cardTitle}>
            {t('profile.account')}
          </h2>
          <NameForm name={name} />
          <EmailForm email={email} />
          <VerificationStatus verified={verified} activated={activated} />
        </section>
        <section className={styles.card} aria-labelledby="profile-balance">
          <h2 id="profile-balance" className={styles.cardTitle}>
            {t('profile.balance')}
          </h2>
          <p className={styles.balance} data-testid="profile-balance">
            {formatPrice(amount, STORE_CURRENCY, locale)}
          </p>
          {owedMinor > 0 && <OwedNotice id="profile-owed" owedMinor={owedMinor} />}
          <button
            type="button"
            className={styles.button}
            aria-describedby={owedMinor > 0 ? 'profile-owed' : undefined}
            // A debt is paid first by any top-up: the amount starts at what settles it (whole units,
            // at least the smallest top-up).
            onClick={() =>
              openPaymentDialog({
                kind: 'methods',
                mode: 'balance',
                amount: owedMinor > 0 ? Math.max(TOPUP_MIN, Math.ceil(owedMinor / 100)) : undefined,
                returnTo: PROFILE_PATH,
              })
            }
          >
            {t('purchases.topUp')}
          </button>
        </section>
        <section className={styles.card} aria-labelledby="profile-password">
          <h2 id="profile-password" className={styles.cardTitle}>
            {t('profile.passwordTitle')}
          </h2>
          <PasswordForm />
        </section>
      </div>
      <OrderHistory />
      <Purchases />
      <AccountData balance={amount} />
    </div>
  );
}
