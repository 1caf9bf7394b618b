/**
 * A single-value cache that refreshes after `ttlMs`; concurrent callers share one in-flight load, and
 * a failed load is not cached.
 */
export function cached<T>(ttlMs: number, load: () => Promise<T>, now: () => number = Date.now) {
  let value: { data: T; at: number } | undefined;
  let inflight: Promise<T> | undefined;
  return {
    get(): Promise<T> {
      if (value && now() - value.at < ttlMs) return Promise.resolve(value.data);
      inflight ??= load()
        .then((data) => {
          value = { data, at: now() };
          return data;
        })
        .finally(() => {
          inflight = undefined;
        });
      return inflight;
    },
    invalidate() {
      value = undefined;
    },
  };
}

/**
 * A keyed cache of at most `maxEntries` values, each fresh for `ttlMs`; the oldest entry goes first
 * when it is full. Concurrent callers of one key share one in-flight load.
 */
export function cachedByKey<T>(ttlMs: number, maxEntries: number, now: () => number = Date.now) {
  const values = new Map<string, { data: T; at: number }>();
  const inflight = new Map<string, Promise<T>>();
  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      const hit = values.get(key);
      if (hit && now() - hit.at < ttlMs) return Promise.resolve(hit.data);
      const pending = inflight.get(key);
      if (pending) return pending;
      const loading = load()
        .then((data) => {
          values.delete(key);
          if (values.size >= maxEntries) {
            const oldest = values.keys().next().value;
            if (oldest !== undefined) values.delete(oldest);
          }
          values.set(key, { data, at: now() });
          return data;
        })
        .finally(() => inflight.delete(key));
      inflight.set(key, loading);
      return loading;
    },
    clear() {
      values.clear();
    },
  };
}
