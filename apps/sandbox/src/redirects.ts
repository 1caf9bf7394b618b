/**
 * Where the sandbox may send a browser: only to the store's own origins, configured per instance.
 * Every return, success, decline and cancel URL is checked when the payment is created, and the
 * browser is only ever sent to a URL stored then, never to one taken from a later request.
 */
export function normaliseOrigins(origins: string[]): string[] {
  return origins.map((origin) => {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) origin: ${origin}`);
    return url.origin;
  });
}

/**
 * True when `candidate` is an absolute http(s) URL on one of `origins`. The WHATWG parser decides
 * the origin, so tricks that fool string checks (`//evil.example`, `https://store@evil.example`,
 * backslashes, tabs and newlines, `javascript:`) are judged by what a browser would open.
 */
export function isOnOrigins(candidate: string, origins: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  return origins.includes(url.origin);
}

/** An absolute http(s) URL without credentials: where the sandbox may send a callback. */
export function isHttpUrl(candidate: string): boolean {
  try {
    const url = new URL(candidate);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}
