import { Outlet, useNavigation } from 'react-router-dom';
import { Footer } from '../components/layout/footer.tsx';
import { Header } from '../components/layout/header.tsx';
import { Sidebar } from '../components/layout/sidebar.tsx';
import { AccountHost } from '../features/auth/components/account-host.tsx';
import { BasketUiProvider } from '../features/basket/components/basket-ui-provider.tsx';
import styles from './layout.module.css';
import { ScrollManager } from './scroll-manager.tsx';

/** Top bar, sidebar and footer around every browsing screen. */
export function AppLayout() {
  const navigation = useNavigation();
  return (
    <BasketUiProvider>
      <ScrollManager />
      <div
        className={`${styles.progress} ${navigation.state !== 'idle' ? styles.progressActive : ''}`}
        role="progressbar"
        aria-hidden={navigation.state === 'idle'}
      />
      <Header />
      <div className={styles.shell}>
        <aside className={styles.aside}>
          <Sidebar />
        </aside>
        <main className={styles.main} id="main">
          <Outlet />
        </main>
      </div>
      <Footer />
      <AccountHost />
    </BasketUiProvider>
  );
}
