import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Header } from '../components/layout/header.tsx';
import { Sidebar } from '../components/layout/sidebar.tsx';
import { PageSkeleton } from '../components/ui/page-skeleton.tsx';
import { AccountHost } from '../features/auth/components/account-host.tsx';
import { BasketUiProvider } from '../features/basket/components/basket-ui-provider.tsx';
import { CHECKOUT_PATH } from '../features/checkout/paths.ts';
import { PaymentHost } from '../features/payments/components/payment-host.tsx';
import { useNavigationPending } from '../lib/transition-router.tsx';
import { useTranslation } from '../lib/use-translation.tsx';
import styles from './layout.module.css';
import { RouteErrorBoundary } from './route-page.tsx';
import { ScrollManager } from './scroll-manager.tsx';

// Below the page: it loads beside the first page's code and data instead of before them.
const Footer = lazy(() => import('../components/layout/footer.tsx').then((module) => ({ default: module.Footer })));

/**
 * Top bar, sidebar and footer around every browsing screen; the first visit shows a skeleton page.
 * The checkout has no category sidebar.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const pending = useNavigationPending();
  const location = useLocation();
  const withSidebar = location.pathname !== CHECKOUT_PATH;
  return (
    <BasketUiProvider>
      <ScrollManager />
      {/* The first Tab stop: past the header and the categories, straight to the page. */}
      <a href="#main" className="skip-link">
        {t('nav.skipToContent')}
      </a>
      <div
        className={`${styles.progress} ${pending ? styles.progressActive : ''}`}
        role="progressbar"
        aria-hidden={!pending}
      />
      <Header />
      <div className={withSidebar ? styles.shell : `${styles.shell} ${styles.single}`}>
        {withSidebar && (
          <aside className={styles.aside}>
            <Sidebar />
          </aside>
        )}
        <main className={styles.main} id="main" tabIndex={-1}>
          {/* Mounted once: a navigation keeps the page on screen until the next one is ready. */}
          <RouteErrorBoundary location={location}>
            <Suspense fallback={<PageSkeleton />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </main>
      </div>
      <Suspense fallback={null}>
        <Footer />
      </Suspense>
      <AccountHost />
      <PaymentHost />
    </BasketUiProvider>
  );
}
