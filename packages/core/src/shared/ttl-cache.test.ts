import { describe, expect, it } from 'vitest';
import { cached, cachedByKey } from './ttl-cache.ts';

describe('cached', () => {
  it('loads once per ttl, shares an in-flight load, and does not keep a failure', async () => {
    let now = 0;
    let loads = 0;
    let fail = false;
    const cache = cached(
      1_000,
      async () => {
        loads++;
        if (fail) throw new Error('down');
        return loads;
      },
      () => now,
    );
    expect(await Promise.all([cache.get(), cache.get()])).toEqual([1, 1]);
    now = 999;
    expect(await cache.get()).toBe(1);
    now = 1_000;
    fail = true;
    await expect(cache.get()).rejects.toThrow('down');
    fail = false;
    expect(await cache.get()).toBe(3);
    cache.invalidate();
    expect(await cache.get()).toBe(4);
  });
});

describe('cachedByKey', () => {
  it('caches per key, expires, evicts the oldest when full, and shares in-flight loads', async () => {
    let now = 0;
    let loads = 0;
    const cache = cachedByKey<number>(100, 2, () => now);
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    expect(await cache.get('b', load)).toBe(2);
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('c', load)).toBe(3);
    expect(await cache.get('a', load)).toBe(4);
    now = 100;
    expect(await cache.get('c', load)).toBe(5);
    cache.clear();
    expect(await cache.get('c', load)).toBe(6);
  });
});
