import type { ProductListName } from '@store/contract';
import { useEffect, useRef } from 'react';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { useLocale } from '../../../lib/use-locale.ts';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useProductList } from '../api/get-product-list.ts';
import { ProductGrid, ProductGridSkeleton } from './product-grid.tsx';
import styles from './product-list-section.module.css';

/**
 * Popular, new or discounted products with infinite loading: the next page loads when the end of the
 * grid comes near, and a Show more button does the same for keyboards and old browsers.
 */
export function ProductListSection({ list, headingLevel }: { list: ProductListName; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const query = useProductList(list, useLocale());
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;

  useEffect(() => {
    const target = sentinel.current;
    if (!target || !hasNextPage || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
      },
      { rootMargin: '600px 0px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  if (query.isPending) return <ProductGridSkeleton />;
  if (query.isError) return <EmptyState title={t('errors.generic')} text={t('errors.genericText')} />;

  const products = query.data.pages.flatMap((page) => page.result.products);
  if (products.length === 0) return <EmptyState title={t('listing.empty')} />;

  return (
    <>
      <ProductGrid products={products} headingLevel={headingLevel} />
      <div ref={sentinel} className={styles.more}>
        {hasNextPage && (
          <button
            type="button"
            className={styles.moreButton}
            onClick={() => void fetchNextPage()}
            disabled={isFetchingNextPage}
          >
            {isFetchingNextPage ? t('common.loading') : t('listing.showMore')}
          </button>
        )}
      </div>
    </>
  );
}
