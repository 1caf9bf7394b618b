import { useState } from 'react';
import { Link } from 'react-router-dom';
import { SearchBoxLoader } from '../../features/search/components/search-box-loader.tsx';
import { useTranslation } from '../../lib/use-translation.tsx';
import { CloseIcon, SearchIcon } from '../ui/icons.tsx';
import { AccountButton } from './account-button.tsx';
import { CartButton } from './cart-button.tsx';
import styles from './header.module.css';
import { LanguageSwitcher } from './language-switcher.tsx';
import { Logo } from './logo.tsx';

/** Top bar: logo, search (a toggle on phones), language, basket and account. */
export function Header() {
  const { t } = useTranslation();
  const [searchOpen, setSearchOpen] = useState(false);
  return (
    <header className={styles.header}>
      <div className={styles.bar}>
        <Link to="/" className={styles.logo} aria-label={`${t('app.name')} – ${t('nav.home')}`}>
          <Logo label={t('app.name')} />
        </Link>
        <div className={`${styles.search} ${searchOpen ? styles.searchOpen : ''}`} data-testid="header-search">
          <SearchBoxLoader
            key={searchOpen ? 'open' : 'closed'}
            autoFocus={searchOpen}
            onNavigated={() => setSearchOpen(false)}
          />
        </div>
        <div className={styles.actions}>
          <button
            type="button"
            className={`${styles.iconButton} ${styles.searchToggle}`}
            aria-expanded={searchOpen}
            aria-label={searchOpen ? t('header.closeSearch') : t('header.openSearch')}
            onClick={() => setSearchOpen((open) => !open)}
            data-testid="search-toggle"
          >
            {searchOpen ? <CloseIcon /> : <SearchIcon />}
          </button>
          <LanguageSwitcher />
          <CartButton />
          <AccountButton />
        </div>
      </div>
    </header>
  );
}
