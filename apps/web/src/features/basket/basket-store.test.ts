import { BASKET_LINE_MAX, RequestIdSchema } from '@store/contract';
import { describe, expect, it, vi } from 'vitest';
import { clearSession, setSession } from '../../lib/session-store.ts';
import { productFixture, userFixture } from '../../test/fixtures.ts';
import { BASKET_QUEUE_STORAGE_KEY, enqueueChanges, foldChange, readQueue } from './basket-queue.ts';
import {
  addToBasket,
  BASKET_STORAGE_KEY,
  basketCount,
  basketTotalMinor,
  changeLineQuantity,
  clearBasket,
  getBasket,
  queueChangesWith,
  removeLine,
} from './basket-store.ts';

const stored = () => JSON.parse(localStorage.getItem(BASKET_STORAGE_KEY) ?? 'null');
const quantities = () => getBasket().map((line) => [line.id, line.pivot.quantity]);

describe('basket store: a guest', () => {
  it('adds one unit per Buy and keeps the basket in localStorage under "basket"', () => {
    addToBasket(productFixture({ id: 1, price_minor: 2990 }));
    addToBasket(productFixture({ id: 1, price_minor: 2990 }));
    addToBasket(productFixture({ id: 2, price_minor: 1000 }));
    expect(stored().owner).toBeNull();
    expect(
      stored().lines.map((line: { id: number; pivot: { quantity: number } }) => [line.id, line.pivot.quantity]),
    ).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(basketCount(getBasket())).toBe(3);
    expect(basketTotalMinor(getBasket())).toBe(6980);
    // A guest's changes stay on this device.
    expect(localStorage.getItem(BASKET_QUEUE_STORAGE_KEY)).toBeNull();
  });

  it('changes, removes and deletes all, and stops at the per-line maximum', () => {
    for (let click = 0; click < BASKET_LINE_MAX + 2; click += 1) addToBasket(productFixture({ id: 1 }));
    addToBasket(productFixture({ id: 2 }));
    addToBasket(productFixture({ id: 3 }));
    expect(quantities()).toEqual([
      [1, BASKET_LINE_MAX],
      [2, 1],
      [3, 1],
    ]);
    const [first, second] = getBasket();
    if (!first || !second) throw new Error('lines missing');
    changeLineQuantity(first, -3);
    changeLineQuantity(second, -1);
    expect(quantities()).toEqual([
      [1, BASKET_LINE_MAX - 3],
      [3, 1],
    ]);
    const third = getBasket()[1];
    if (!third) throw new Error('line missing');
    removeLine(third);
    expect(quantities()).toEqual([[1, BASKET_LINE_MAX - 3]]);
    clearBasket();
    expect(getBasket()).toEqual([]);
    expect(localStorage.getItem(BASKET_STORAGE_KEY)).toBeNull();
  });

  it('names each version of the guest basket with a new merge id', () => {
    addToBasket(productFixture({ id: 1 }));
    const first = stored().merge_id;
    expect(RequestIdSchema.safeParse(first).success).toBe(true);
    addToBasket(productFixture({ id: 1 }));
    expect(stored().merge_id).not.toBe(first);
  });

  it('reads the bare list of lines earlier releases stored, and drops damaged entries', () => {
    localStorage.setItem(
      BASKET_STORAGE_KEY,
      JSON.stringify([{ id: 'x' }, 42, { ...productFixture({ id: 5 }), pivot: { quantity: 2 } }]),
    );
    expect(quantities()).toEqual([[5, 2]]);
    localStorage.setItem(BASKET_STORAGE_KEY, '{not json');
    expect(getBasket()).toEqual([]);
  });
});

describe('basket store: a customer', () => {
  // First in this file: the sync, which hands the queue over, has not loaded yet.
  it('queues a change made before the basket sync has loaded, loading the queue itself', async () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(productFixture({ id: 3 }));
    expect(quantities()).toEqual([[3, 1]]);
    await vi.waitFor(() => expect(readQueue().pending).toEqual([{ id: 3, type: 'increase', count: 1 }]));
  });

  it('queues each change, folded by product, beside the lines it shows at once', () => {
    // As the basket sync does when it loads.
    queueChangesWith(enqueueChanges);
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(productFixture({ id: 1 }));
    addToBasket(productFixture({ id: 1 }));
    addToBasket(productFixture({ id: 2 }));
    const psn = getBasket()[1];
    if (!psn) throw new Error('line missing');
    removeLine(psn);
    expect(quantities()).toEqual([[1, 2]]);
    expect(stored().owner).toBe('u1');
    expect(readQueue().pending).toEqual([{ id: 1, type: 'increase', count: 2 }]);
    expect(readQueue().queued).toBe(4);
  });

  it('never shows a basket stored for somebody else', () => {
    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(productFixture({ id: 1 }));
    setSession('tok2', userFixture({ id: 'u2' }));
    expect(getBasket()).toEqual([]);
  });

  it('loses the stored basket and its queue when the user is set to empty, and a guest keeps theirs', () => {
    addToBasket(productFixture({ id: 1 }));
    clearSession();
    expect(quantities()).toEqual([[1, 1]]);

    setSession('tok', userFixture({ id: 'u1' }));
    addToBasket(productFixture({ id: 2 }));
    clearSession();
    expect(localStorage.getItem(BASKET_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(BASKET_QUEUE_STORAGE_KEY)).toBeNull();
  });
});

describe('basket queue: folding', () => {
  it('keeps one change per product, the net of everything since the last batch', () => {
    let pending = foldChange([], 1, 2);
    pending = foldChange(pending, 2, -1);
    pending = foldChange(pending, 1, -5);
    expect(pending).toEqual([
      { id: 1, type: 'decrease', count: 3 },
      { id: 2, type: 'decrease', count: 1 },
    ]);
    expect(foldChange(pending, 1, 3)).toEqual([{ id: 2, type: 'decrease', count: 1 }]);
    expect(foldChange([], 1, 25)).toEqual([{ id: 1, type: 'increase', count: BASKET_LINE_MAX }]);
  });
});
