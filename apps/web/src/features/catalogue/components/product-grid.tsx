import type { ProductSummary } from '@store/contract';
import { useBuy } from '../../basket/hooks/use-buy.ts';
import { ProductCard } from './product-card.tsx';
import styles from './product-grid.module.css';

/** Covers of the first row are above the fold: they load eagerly, the rest lazily. */
const EAGER_COVERS = 4;

interface ProductGridProps {
  products: readonly ProductSummary[];
  busy?: boolean;
  /** 2 under a page's title (h1), 3 under a section's (h2): headings never skip a level. */
  headingLevel?: 2 | 3;
}

export function ProductGrid({ products, busy = false, headingLevel = 2 }: ProductGridProps) {
  const buy = useBuy();
  return (
    <ul className={`${styles.grid} ${busy ? styles.busy : ''}`} aria-busy={busy} data-testid="product-grid">
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} onBuy={buy} eager={index < EAGER_COVERS} headingLevel={headingLevel} />
        </li>
      ))}
    </ul>
  );
}

export function ProductGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <ul className={styles.grid} aria-hidden="true">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <li key={index} className={styles.skeleton}>
          <span className={styles.skeletonCover} />
          <span className={styles.skeletonLine} />
          <span className={styles.skeletonLineShort} />
        </li>
      ))}
    </ul>
  );
}
