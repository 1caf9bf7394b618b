import {
  BASKET_FLUSH_IDLE_MS,
  BASKET_FLUSH_MAX_CHANGES,
  BASKET_LOCK_RETRY_MS,
  type BasketChange,
  RequestIdSchema,
} from '@store/contract';
import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession, setSession } from '../../lib/session-store.ts';
import { fakeBasketServer } from '../../test/basket-server.ts';
import { productFixture, userFixture } from '../../test/fixtures.ts';
import { renderWithApp } from '../../test/render.tsx';
import { BASKET_QUEUE_STORAGE_KEY, readQueue } from './basket-queue.ts';
import { addToBasket, BASKET_STORAGE_KEY, changeLineQuantity, getBasket, getBasketState } from './basket-store.ts';
import { flushBasket, RETRY_FIRST_MS, startBasketSync } from './basket-sync.ts';
import BasketPanel from './components/basket-panel.tsx';

const steam = productFixture({ id: 1, name: 'Steam 50', price: 50, price_minor: 5_000 });
const psn = productFixture({ id: 2, name: 'PSN 20', price: 20, price_minor: 2_000 });
const xbox = productFixture({ id: 3, name: 'Xbox 10', price: 10, price_minor: 1_000 });

let server: ReturnType<typeof fakeBasketServer>;
let stop: (() => void) | undefined;

/** A signed-in customer whose server basket holds `initial`; the sync running as on a page load. */
async function signedIn(initial: Record<number, number> = {}) {
  server = fakeBasketServer([steam, psn, xbox], initial);
  vi.stubGlobal('fetch', vi.fn(server.fetchMock));
  setSession('tok', userFixture({ id: 'u1' }));
  stop = startBasketSync();
  await vi.advanceTimersByTimeAsync(0);
}

const patches = () => server.callsTo('PATCH /api/basket');
const patchBody = (index: number) => patches()[index]?.body as { flush_id: string; products: BasketChange[] };

function renderPanel() {
  return renderWithApp(<BasketPanel open onOpenChange={() => {}} returnFocus={() => {}} />);
}

function line(name: string) {
  return screen.getByText(name).closest('li') as HTMLElement;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('matchMedia', () => ({ matches: true }));
});

afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
  Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
});

describe('basket sync: when the queue is sent', () => {
  it('applies + at once and sends the folded changes after 10 s without a new change', async () => {
    await signedIn({ 1: 1 });
    expect(getBasket().map((item) => [item.id, item.pivot.quantity])).toEqual([[1, 1]]);
    renderPanel();

    fireEvent.click(within(line('Steam 50')).getByRole('button', { name: 'One more Steam 50' }));
    await vi.advanceTimersByTimeAsync(5_000);
    fireEvent.click(within(line('Steam 50')).getByRole('button', { name: 'One more Steam 50' }));
    // Count and total follow at once; nothing is sent while changes keep coming.
    expect(within(line('Steam 50')).getByTestId('line-quantity')).toHaveTextContent('3');
    expect(screen.getByTestId('basket-total')).toHaveTextContent('150.00');
    expect(readQueue().pending).toEqual([{ id: 1, type: 'increase', count: 2 }]);

    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS - 1);
    expect(patches()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(patches()).toHaveLength(1);
    expect(RequestIdSchema.safeParse(patchBody(0).flush_id).success).toBe(true);
    expect(patchBody(0).products).toEqual([{ id: 1, type: 'increase', count: 2 }]);
    expect(patches()[0]?.headers.Authorization).toBe('Bearer tok');

    await vi.advanceTimersByTimeAsync(0);
    expect(server.lines.get(1)).toBe(3);
    expect(localStorage.getItem(BASKET_QUEUE_STORAGE_KEY)).toBeNull();
    expect(getBasket()[0]?.max_quantity).toBe(10);
  });

  it('folds a + and a − of the same product into nothing', async () => {
    await signedIn({ 1: 2 });
    const [steamLine] = getBasket();
    if (!steamLine) throw new Error('no line');
    changeLineQuantity(steamLine, 1);
    changeLineQuantity(getBasket()[0] ?? steamLine, -1);
    expect(readQueue().pending).toEqual([]);
    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS);
    expect(patches()).toHaveLength(0);
  });

  it(`sends at once when ${BASKET_FLUSH_MAX_CHANGES} changes are queued`, async () => {
    await signedIn();
    for (const product of [steam, psn, xbox]) {
      for (let click = 0; click < 10; click += 1) addToBasket(product);
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(patches()).toHaveLength(1);
    expect(patchBody(0).products).toEqual([
      { id: 1, type: 'increase', count: 10 },
      { id: 2, type: 'increase', count: 10 },
      { id: 3, type: 'increase', count: 10 },
    ]);
  });

  it('sends with keepalive when the page is hidden', async () => {
    await signedIn();
    addToBasket(steam);
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(patches()).toHaveLength(1);
    expect(patches()[0]?.keepalive).toBe(true);
    expect(server.lines.get(1)).toBe(1);
  });

  it('sends at once with keepalive as the page is left, keeping the batch and its id for the next page', async () => {
    await signedIn();
    addToBasket(steam);
    addToBasket(psn);
    window.dispatchEvent(new Event('pagehide'));
    // No timer, no lock: the request leaves during the event.
    expect(patches()).toHaveLength(1);
    expect(patches()[0]?.keepalive).toBe(true);
    const { flush_id: flushId } = patchBody(0);
    expect(readQueue().inflight?.flush_id).toBe(flushId);

    // The answer never reaches the page; the next one sends the same batch with the same id.
    stop?.();
    stop = startBasketSync();
    await vi.advanceTimersByTimeAsync(0);
    expect(patchBody(1).flush_id).toBe(flushId);
    expect(server.lines.get(1)).toBe(1);
    expect(server.lines.get(2)).toBe(1);
    expect(readQueue().inflight).toBeNull();
  });
});

describe('basket sync: failures', () => {
  it('keeps a failed batch and its flush id, retries with a growing delay, and sends later changes after it', async () => {
    await signedIn({ 1: 1 });
    server.fail('PATCH /api/basket', { status: 503, body: { message: 'Down' } }, { status: 503, body: {} });
    addToBasket(steam);
    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS);
    expect(patches()).toHaveLength(1);
    const { flush_id: flushId } = patchBody(0);
    expect(readQueue().inflight).toEqual({ flush_id: flushId, products: [{ id: 1, type: 'increase', count: 1 }] });

    // A change made while the batch waits goes to the next batch, not into the failed one.
    addToBasket(psn);
    expect(readQueue().pending).toEqual([{ id: 2, type: 'increase', count: 1 }]);
    expect(getBasket().map((item) => [item.id, item.pivot.quantity])).toEqual([
      [1, 2],
      [2, 1],
    ]);

    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS);
    expect(patches()).toHaveLength(2);
    expect(patchBody(1)).toEqual(patchBody(0));
    // The second failure doubles the delay.
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS * 2 - 1);
    expect(patches()).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(patches()).toHaveLength(4);
    expect(patchBody(2)).toEqual(patchBody(0));
    expect(patchBody(3).flush_id).not.toBe(flushId);
    expect(patchBody(3).products).toEqual([{ id: 2, type: 'increase', count: 1 }]);

    // Nothing lost, nothing doubled.
    expect(Object.fromEntries(server.lines)).toEqual({ 1: 2, 2: 1 });
    expect(getBasket().map((item) => [item.id, item.pivot.quantity])).toEqual([
      [1, 2],
      [2, 1],
    ]);
    expect(readQueue()).toEqual({ merge: null, inflight: null, pending: [], queued: 0 });
  });

  it('sends a batch whose answer was lost again with the same id, and the server applies it once', async () => {
    await signedIn({ 1: 1 });
    server.fail('PATCH /api/basket', 'lose');
    addToBasket(steam);
    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS);
    expect(server.lines.get(1)).toBe(2);
    await vi.advanceTimersByTimeAsync(RETRY_FIRST_MS);
    expect(patches()).toHaveLength(2);
    expect(patchBody(1).flush_id).toBe(patchBody(0).flush_id);
    expect(server.lines.get(1)).toBe(2);
    expect(getBasket()[0]?.pivot.quantity).toBe(2);
  });

  it('drops a batch the server refuses for good, after reading the server basket again', async () => {
    await signedIn({ 1: 1 });
    server.fail('PATCH /api/basket', {
      status: 422,
      body: { message: 'Invalid', errors: { 'products.0.id': ['validation.invalidValue'] } },
    });
    addToBasket(psn);
    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS);
    expect(server.callsTo('GET /api/basket')).toHaveLength(2);
    expect(readQueue().inflight).toBeNull();
    expect(getBasket().map((item) => [item.id, item.pivot.quantity])).toEqual([[1, 1]]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(patches()).toHaveLength(1);
  });

  it('sends the rest of a batch again without the changes the server refused', async () => {
    await signedIn({ 1: 1 });
    server.fail('PATCH /api/basket', {
      status: 422,
      body: { message: 'Invalid', errors: { 'products.1.id': ['validation.invalidValue'] } },
    });
    addToBasket(steam);
    addToBasket(psn);
    addToBasket(xbox);
    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS);
    expect(patches()).toHaveLength(2);
    expect(patchBody(1).flush_id).not.toBe(patchBody(0).flush_id);
    expect(patchBody(1).products).toEqual([
      { id: 1, type: 'increase', count: 1 },
      { id: 3, type: 'increase', count: 1 },
    ]);
    expect(Object.fromEntries(server.lines)).toEqual({ 1: 2, 3: 1 });
    expect(getBasket().map((item) => [item.id, item.pivot.quantity])).toEqual([
      [1, 2],
      [3, 1],
    ]);
    expect(readQueue().inflight).toBeNull();
  });

  it('ends the session on 401, which clears the stored basket', async () => {
    await signedIn({ 1: 1 });
    server.fail('PATCH /api/basket', { status: 401, body: { message: 'Unauthenticated' } });
    addToBasket(steam);
    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS);
    expect(getSession().token).toBeNull();
    expect(localStorage.getItem(BASKET_STORAGE_KEY)).toBeNull();
    expect(localStorage.getItem(BASKET_QUEUE_STORAGE_KEY)).toBeNull();
  });

  it('shows the lines the server capped, and what they hold', async () => {
    await signedIn({ 1: 2 });
    server.stock.set(1, 2);
    renderPanel();
    fireEvent.click(within(line('Steam 50')).getByRole('button', { name: 'One more Steam 50' }));
    await vi.advanceTimersByTimeAsync(BASKET_FLUSH_IDLE_MS);
    expect(within(line('Steam 50')).getByTestId('line-quantity')).toHaveTextContent('2');
    expect(screen.getByTestId('capped-notes')).toHaveTextContent('Steam 50: only 2 in stock.');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss the note' }));
    expect(screen.queryByTestId('capped-notes')).toBeNull();
  });
});

describe('basket sync: one sender across tabs', () => {
  it('waits while another tab holds the lock, trying again every 200 ms', async () => {
    await signedIn();
    const otherTab = { owner: 'other-tab', expires: Date.now() + 30_000 };
    localStorage.setItem('basket send list lock', JSON.stringify(otherTab));
    addToBasket(steam);
    const flushed = flushBasket();
    await vi.advanceTimersByTimeAsync(BASKET_LOCK_RETRY_MS * 3);
    expect(patches()).toHaveLength(0);
    localStorage.removeItem('basket send list lock');
    await vi.advanceTimersByTimeAsync(BASKET_LOCK_RETRY_MS);
    expect(patches()).toHaveLength(1);
    await expect(flushed).resolves.toBe(true);
  });

  it('takes a lock whose tab died once it has expired', async () => {
    await signedIn();
    localStorage.setItem('basket send list lock', JSON.stringify({ owner: 'gone', expires: Date.now() - 1 }));
    addToBasket(steam);
    await expect(flushBasket()).resolves.toBe(true);
    expect(patches()).toHaveLength(1);
    expect(localStorage.getItem('basket send list lock')).toBeNull();
  });

  it('uses the Web Locks API where the browser has it', async () => {
    const request = vi.fn(async (_name: string, _options: LockOptions, callback: (lock: Lock | null) => unknown) =>
      callback({ name: 'basket send list', mode: 'exclusive' } as Lock),
    );
    vi.stubGlobal('navigator', { ...navigator, locks: { request } });
    await signedIn();
    addToBasket(steam);
    await expect(flushBasket()).resolves.toBe(true);
    expect(request).toHaveBeenCalledWith('basket send list', { ifAvailable: true }, expect.any(Function));
    expect(patches()).toHaveLength(1);
  });

  it("shows another tab's changes, and reads the server basket again on focus", async () => {
    await signedIn({ 1: 1 });
    renderPanel();
    const otherTabCopy = {
      ...getBasketState(),
      lines: getBasket().map((item) => ({ ...item, pivot: { quantity: 4 } })),
    };
    localStorage.setItem(BASKET_STORAGE_KEY, JSON.stringify(otherTabCopy));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: BASKET_STORAGE_KEY }));
    });
    expect(within(line('Steam 50')).getByTestId('line-quantity')).toHaveTextContent('4');

    server.lines.set(2, 3);
    await act(async () => {
      window.dispatchEvent(new Event('focus'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(within(line('PSN 20')).getByTestId('line-quantity')).toHaveTextContent('3');
    expect(server.callsTo('GET /api/basket')).toHaveLength(2);
  });
});
