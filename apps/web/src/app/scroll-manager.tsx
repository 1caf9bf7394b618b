import { useEffect, useLayoutEffect, useRef } from 'react';
import { matchPath, useLocation, useNavigationType } from 'react-router-dom';

export const CATEGORY_PATH = '/category/:id';
export const INSTRUCTIONS_HASH = '#instructions';

/**
 * SPEC.md section 2 "Scroll": going from one category page to another restores the position saved for
 * it; the activation-instructions link scrolls smoothly to its block; anything else starts at the
 * top. Two choices of ours on top: going back to a category also restores its position, and changing
 * a filter or the sort on the same category keeps the shopper where they are (a new page of results
 * starts at the top).
 */
export function ScrollManager() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const isCategory = matchPath(CATEGORY_PATH, location.pathname) !== null;
  const positions = useRef(new Map<string, number>());
  const currentKey = useRef<string | null>(null);
  const previous = useRef<{ pathname: string; search: string; isCategory: boolean } | null>(null);

  useEffect(() => {
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    const onScroll = () => {
      if (currentKey.current) positions.current.set(currentKey.current, window.scrollY);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per navigation, keyed by location.key
  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = { pathname: location.pathname, search: location.search, isCategory };
    currentKey.current = isCategory ? location.pathname : null;
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
    const saved = positions.current.get(location.pathname);
    if (isCategory && saved !== undefined && (before.isCategory || navigationType === 'POP')) {
      window.scrollTo(0, saved);
      return;
    }
    window.scrollTo(0, 0);
  }, [location.key]);

  return null;
}
