import { ProductGridSkeleton } from '../../features/catalogue/components/product-grid.tsx';
import styles from './page-skeleton.module.css';

/** Shown in place of a page while its code and first data arrive on the very first load. */
export function PageSkeleton() {
  return (
    <div aria-busy="true">
      <span className={styles.title} />
      <ProductGridSkeleton count={8} />
    </div>
  );
}
