import { useEffect, useLayoutEffect, useRef } from 'react';
import { matchPath, useLocation, useNavigationType } from 'react-router-dom';

export const CATEGORY_PATH = '/category/:id';
export const INSTRUCTIONS_HASH = '#instructions';

/**
 * Going from one category page to another restores the position saved for it; the
 * activation-instructions link scrolls smoothly to its block; anything else starts at the top. On top
 * of that: Back and Forward return to where that page of the history was left, as a browser does
 * (positions are kept per history entry, so a listing left at 1000 px comes back at 1000 px, whichever
 * listing it is); and changing a filter or the sort on the same category keeps the shopper where they
 * are (a new page of results starts at the top).
 */
export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const isCategory = matchPath(CATEGORY_PATH, location.pathname) !== null;
  /** By history entry (location.key): for Back and Forward. */
  const byEntry = useRef(new Map<string, number>());
  /** By category path: for going from one category to another. */
  const byCategory = useRef(new Map<string, number>());
  const current = useRef<{ key: string; category: string | null } | null>(null);
  const previous = useRef<{ pathname: string; search: string; isCategory: boolean } | null>(null);
  const restoring = useRef(false);
  const stopRestoring = useRef(() => {});

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    const onScroll = () => {
      const at = current.current;
      if (!at || restoring.current) return;
      byEntry.current.set(at.key, window.scrollY);
      if (at.category) byCategory.current.set(at.category, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      stopRestoring.current();
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation, keyed by location.key
  useLayoutEffect(() => {
    stopRestoring.current();
    const before = previous.current;
    previous.current = { pathname: location.pathname, search: location.search, isCategory };
    current.current = { key: location.key, category: isCategory ? location.pathname : null };
    if (!before) return;

    if (location.hash === INSTRUCTIONS_HASH) {
      document.getElementById(INSTRUCTIONS_HASH.slice(1))?.scrollIntoView({ behavior: 'smooth', block: 'start' });
      return;
    }
    if (isCategory && before.isCategory && before.pathname === location.pathname) {
      const page = (search: string) => new URLSearchParams(search).get('page') ?? '1';
      if (page(before.search) !== page(location.search)) window.scrollTo(0, 0);
      return;
    }
    const category = isCategory ? byCategory.current.get(location.pathname) : undefined;
    const saved =
      navigationType === 'POP'
        ? (byEntry.current.get(location.key) ?? category)
        : before.isCategory
          ? category
          : undefined;
    if (saved === undefined) {
      window.scrollTo(0, 0);
      return;
    }
    // Back to a page left further down than it is tall yet needs the restore that follows the page
    // as it grows; that code loads on the first such navigation, not with the first page.
    window.scrollTo(0, saved);
    if (Math.abs(window.scrollY - saved) < 2) return;
    restoring.current = true;
    const key = location.key;
    void import('./scroll-restore.ts').then(({ restoreTo }) => {
      if (current.current?.key === key) stopRestoring.current = restoreTo(saved, restoring);
      else restoring.current = false;
    });
  }, [location.key]);

  return null;
}
