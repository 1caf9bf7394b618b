import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from '../components/layout/footer.tsx';
import { Header } from '../components/layout/header.tsx';
import { Sidebar } from '../components/layout/sidebar.tsx';
import { PageSkeleton } from '../components/ui/page-skeleton.tsx';
import { AccountHost } from '../features/auth/components/account-host.tsx';
import { BasketUiProvider } from '../features/basket/components/basket-ui-provider.tsx';
import { useNavigationPending } from '../lib/transition-router.tsx';
import styles from './layout.module.css';
import { RouteErrorBoundary } from './route-page.tsx';
import { ScrollManager } from './scroll-manager.tsx';

/** Top bar, sidebar and footer around every browsing screen; the first visit shows a skeleton page. */
export function AppLayout() {
  const pending = useNavigationPending();
  const location = useLocation();
  return (
    <BasketUiProvider>
      <ScrollManager />
      <div
        className={`${styles.progress} ${pending ? styles.progressActive : ''}`}
        role="progressbar"
        aria-hidden={!pending}
      />
      <Header />
      <div className={styles.shell}>
        <aside className={styles.aside}>
          <Sidebar />
        </aside>
        <main className={styles.main} id="main">
          {/* Mounted once: a navigation keeps the page on screen until the next one is ready. */}
          <RouteErrorBoundary location={location}>
            <Suspense fallback={<PageSkeleton />}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        </main>
      </div>
      <Footer />
      <AccountHost />
    </BasketUiProvider>
  );
}
