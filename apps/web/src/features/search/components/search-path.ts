import { SEARCH_MAX } from '@store/contract';

export const searchPath = (text: string) => `/search/${encodeURIComponent(text)}`;

const SEARCH_ROUTE = /^\/search\/([^/]+)/;

/** The text of the search a /search/... path shows, or '' elsewhere. */
export function queryOfPath(pathname: string): string {
  const match = SEARCH_ROUTE.exec(pathname);
  if (!match?.[1]) return '';
  try {
    return decodeURIComponent(match[1]).slice(0, SEARCH_MAX);
  } catch {
    return '';
  }
}
