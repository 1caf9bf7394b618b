import { NavLink } from 'react-router-dom';
import { useCategories } from '../../features/catalogue/api/get-categories.ts';
import { useTranslation } from '../../lib/use-translation.tsx';
import { FlameIcon, SparkleIcon, TagIcon } from '../ui/icons.tsx';
import styles from './sidebar.module.css';

const linkClass = ({ isActive }: { isActive: boolean }) => `${styles.link}${isActive ? ' active' : ''}`;

/** Left sidebar: Top (Popular, New) and the categories; a row of chips on narrow screens. */
export function Sidebar() {
  const { t } = useTranslation();
  const categories = useCategories();
  return (
    <nav className={styles.sidebar} aria-label={t('nav.catalogue')}>
      <h2 className={styles.heading}>{t('nav.top')}</h2>
      <ul className={styles.list}>
        <li>
          <NavLink to="/" end className={linkClass}>
            <FlameIcon size={18} className={styles.icon} />
            {t('nav.popular')}
          </NavLink>
        </li>
        <li>
          <NavLink to="/noveltes" className={linkClass}>
            <SparkleIcon size={18} className={styles.icon} />
            {t('nav.new')}
          </NavLink>
        </li>
        <li>
          <NavLink to="/discounts" className={linkClass}>
            <TagIcon size={18} className={styles.icon} />
            {t('nav.discounts')}
          </NavLink>
        </li>
      </ul>
      <h2 className={styles.heading}>{t('nav.categories')}</h2>
      {categories.isPending ? (
        <ul className={styles.list} aria-busy="true" aria-label={t('common.loading')} data-testid="sidebar-skeleton">
          {Array.from({ length: 9 }, (_, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <li key={index} className={styles.skeleton} />
          ))}
        </ul>
      ) : categories.isError ? (
        <p className={styles.error}>{t('errors.loadFailed')}</p>
      ) : (
        <ul className={styles.list}>
          {categories.data.map((category) => (
            <li key={category.id}>
              <NavLink to={`/category/${category.id}`} className={linkClass}>
                {category.svg_path ? (
                  <img src={category.svg_path} alt="" width={20} height={20} className={styles.categoryIcon} />
                ) : (
                  <span className={styles.categoryIcon} />
                )}
                <span className={styles.label}>{category.formatted_name}</span>
                <span className={styles.count}>{category.products_count}</span>
              </NavLink>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
