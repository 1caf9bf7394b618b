import {
  BASKET_FLUSH_IDLE_MS,
  BASKET_FLUSH_MAX_CHANGES,
  BASKET_LOCK_RETRY_MS,
  type BasketChange,
  type BasketResponse,
} from '@store/contract';
import { ApiError } from '../../lib/api-client.ts';
import { newRequestId } from '../../lib/request-id.ts';
import { clearSession, getToken } from '../../lib/session-store.ts';
import { getServerBasket } from './api/get-basket.ts';
import { mergeBasket } from './api/merge-basket.ts';
import { patchBasket } from './api/update-basket.ts';
import {
  type BasketQueue,
  enqueueChanges,
  isQueueEmpty,
  readQueue,
  subscribeQueue,
  writeQueue,
} from './basket-queue.ts';
import {
  type BasketLine,
  type CappedNote,
  currentOwner,
  getBasketState,
  queueChangesWith,
  readStoredBasket,
  saveBasketState,
} from './basket-store.ts';

// From here on, a change to the basket is queued at once, in the same step as the lines it changes.
queueChangesWith(enqueueChanges);

/**
 * The signed-in customer's basket sync. Changes are applied to the stored basket at once and queued
 * (basket-queue.ts); this module sends the queue:
 * - after BASKET_FLUSH_IDLE_MS without a new change, at once when BASKET_FLUSH_MAX_CHANGES are
 *   queued, when the page is hidden and when it is left (keepalive requests, which outlive the page);
 * - from one tab at a time: the Web Locks API where the browser has it, else a lock in local storage
 *   that expires, tried again every BASKET_LOCK_RETRY_MS while another tab holds it;
 * - a batch keeps its flush id until the server has answered, so a retry never applies it twice; a
 *   failed batch is kept and tried again with a growing delay; a batch the server refuses (422) goes
 *   again without the changes it named, or, when it named none, is dropped after the server basket
 *   has been read again (it would be refused however often it was sent);
 * - every answer is the whole server basket, which replaces the stored lines (with the changes the
 *   server has not seen yet applied on top). Other tabs see it through the storage event, and the
 *   server basket is read again when the window gets the focus.
 */

const LOCK_NAME = 'basket send list';
const STORAGE_LOCK_KEY = 'basket send list lock';
/** A request that hangs is given up after this long, so one stuck tab cannot hold the lock. */
export const REQUEST_TIMEOUT_MS = 15_000;
/** Longer than any request; a tab that died holding the storage lock frees it by expiry. */
const STORAGE_LOCK_TTL_MS = 2 * REQUEST_TIMEOUT_MS;
export const RETRY_FIRST_MS = 1_000;
export const RETRY_MAX_MS = 60_000;

type Outcome = 'sent' | 'failed' | 'busy';

const tabId = newRequestId();
let idleTimer: ReturnType<typeof setTimeout> | undefined;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
let retryDelay = 0;
let sending = false;
let refreshing: Promise<void> | null = null;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// The lock: one sender across the tabs of this browser.

interface StorageLock {
  owner: string;
  expires: number;
}

function readStorageLock(): StorageLock | null {
  try {
    const lock: unknown = JSON.parse(localStorage.getItem(STORAGE_LOCK_KEY) ?? 'null');
    if (lock && typeof lock === 'object' && 'owner' in lock && 'expires' in lock) return lock as StorageLock;
  } catch {
    // A damaged lock is no lock.
  }
  return null;
}

function takeStorageLock(): boolean {
  const now = Date.now();
  const held = readStorageLock();
  if (held && held.owner !== tabId && held.expires > now) return false;
  try {
    localStorage.setItem(STORAGE_LOCK_KEY, JSON.stringify({ owner: tabId, expires: now + STORAGE_LOCK_TTL_MS }));
  } catch {
    // Storage blocked: this page is the only one that can see the queue anyway.
    return true;
  }
  // Two tabs can both find it free; the later write wins and the earlier one backs off here. The
  // flush id covers what is left: the same batch sent twice is applied once.
  return readStorageLock()?.owner === tabId;
}

function releaseStorageLock() {
  try {
    if (readStorageLock()?.owner === tabId) localStorage.removeItem(STORAGE_LOCK_KEY);
  } catch {
    // Nothing to release.
  }
}

async function withLock(task: () => Promise<Outcome>): Promise<Outcome> {
  if (sending) return 'busy';
  sending = true;
  try {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    if (locks) {
      return await locks.request(LOCK_NAME, { ifAvailable: true }, (lock) => (lock ? task() : 'busy'));
    }
    if (!takeStorageLock()) return 'busy';
    try {
      return await task();
    } finally {
      releaseStorageLock();
    }
  } finally {
    sending = false;
  }
}

// ---------------------------------------------------------------------------------------------
// Applying the server's answer.

const toLine = (item: BasketResponse['products'][number]): BasketLine => ({
  id: item.id,
  name: item.name,
  price: item.price,
  price_minor: item.price_minor,
  currency: item.currency,
  category: item.category,
  cover_path: item.cover_path,
  cover_text: item.cover_text,
  country_icon: item.country_icon,
  country: item.country,
  pivot: { quantity: item.pivot.quantity },
  max_quantity: item.max_quantity,
});

function applyChange(lines: BasketLine[], change: BasketChange, known: Map<number, BasketLine>): BasketLine[] {
  const delta = change.type === 'increase' ? change.count : -change.count;
  const existing = lines.find((line) => line.id === change.id);
  if (existing) {
    const quantity = Math.min(existing.pivot.quantity + delta, existing.max_quantity ?? Number.POSITIVE_INFINITY);
    return quantity <= 0
      ? lines.filter((line) => line.id !== change.id)
      : lines.map((line) => (line.id === change.id ? { ...line, pivot: { quantity } } : line));
  }
  const product = known.get(change.id);
  return product && delta > 0 ? [...lines, { ...product, pivot: { quantity: delta } }] : lines;
}

/**
 * The server basket replaces the stored lines; changes still queued (made since the request left)
 * are applied on top, so nothing the customer did disappears from the screen.
 */
function applyServerBasket(basket: BasketResponse) {
  const owner = currentOwner();
  // The session ended while the request was out: the answer belongs to nobody on this page.
  if (owner === null) return;
  const state = getBasketState();
  const known = new Map(state.lines.map((line) => [line.id, line]));
  const queue = readQueue();
  let lines = basket.products.map(toLine);
  for (const change of [...(queue.inflight?.products ?? []), ...queue.pending]) {
    lines = applyChange(lines, change, known);
  }
  const names = new Map([...state.lines, ...lines].map((line) => [line.id, line.name]));
  const capped: CappedNote[] =
    basket.capped.length > 0
      ? basket.capped.map(({ id, quantity, reason }) => ({ id, name: names.get(id) ?? `#${id}`, quantity, reason }))
      : state.capped;
  saveBasketState({ owner, merge_id: null, lines, capped });
}

// ---------------------------------------------------------------------------------------------
// Sending.

type Failure = 'retry' | 'final' | 'unauthorized';

/**
 * 401: the token is gone, and the session with it. A 4xx other than timeouts and rate limiting
 * (422: an unknown product, a malformed batch) will be refused however often it is sent. Anything
 * else (no network, a timeout, 5xx, 429) may pass later.
 */
function failureOf(error: unknown): Failure {
  if (!(error instanceof ApiError)) return 'retry';
  if (error.status === 401) return 'unauthorized';
  if (error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429) return 'final';
  return 'retry';
}

async function withTimeout<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  try {
    return await request(controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

function scheduleRetry() {
  retryDelay = retryDelay === 0 ? RETRY_FIRST_MS : Math.min(retryDelay * 2, RETRY_MAX_MS);
  clearTimeout(retryTimer);
  retryTimer = setTimeout(() => void flushBasket(), retryDelay);
}

/** The changes of a refused batch the server named (422 on `products.<index>.…`); null when it named none. */
function refusedChanges(error: unknown): Set<number> | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const indexes = new Set<number>();
  for (const field of Object.keys(error.fieldErrors)) {
    const match = /^products\.(\d+)\./.exec(field);
    if (!match) return null;
    indexes.add(Number(match[1]));
  }
  return indexes.size > 0 ? indexes : null;
}

/**
 * Sends one request of the queue and settles it: on success the part is removed (`drop`) and the
 * answer applied. A refusal `repair` can mend (a batch without the changes the server named) is
 * replaced by the mended queue and sent again. A request that can never succeed is dropped, after
 * the server basket has been read again, so the screen shows what the server holds instead of a
 * change it refused; if that read fails, the part is kept for the next attempt.
 */
async function settle(
  send: (signal: AbortSignal) => Promise<BasketResponse>,
  drop: (queue: BasketQueue) => BasketQueue,
  repair: (error: unknown) => BasketQueue | null = () => null,
): Promise<'sent' | 'failed'> {
  try {
    const basket = await withTimeout(send);
    writeQueue(drop(readQueue()));
    applyServerBasket(basket);
    retryDelay = 0;
    return 'sent';
  } catch (error) {
    const failure = failureOf(error);
    if (failure === 'unauthorized') {
      clearSession();
      return 'failed';
    }
    const repaired = failure === 'final' ? repair(error) : null;
    if (repaired) {
      writeQueue(repaired);
      return 'sent';
    }
    if (failure === 'final') {
      try {
        const basket = await withTimeout(getServerBasket);
        writeQueue(drop(readQueue()));
        applyServerBasket(basket);
        return 'sent';
      } catch {
        // Kept for the retry below.
      }
    }
    scheduleRetry();
    return 'failed';
  }
}

/** The guest basket's merge first, then every batch; changes queued meanwhile become the next batch. */
async function sendQueue(keepalive: boolean): Promise<Outcome> {
  const merge = readQueue().merge;
  if (merge) {
    const outcome = await settle(
      (signal) => mergeBasket(merge, { keepalive, signal }),
      (queue) => (queue.merge?.merge_id === merge.merge_id ? { ...queue, merge: null } : queue),
    );
    if (outcome === 'failed') return 'failed';
  }
  for (;;) {
    if (!getToken()) return 'failed';
    let queue = readQueue();
    if (!queue.inflight) {
      if (queue.pending.length === 0) return 'sent';
      queue = { ...queue, inflight: { flush_id: newRequestId(), products: queue.pending }, pending: [], queued: 0 };
      writeQueue(queue);
    }
    const batch = queue.inflight;
    if (!batch) return 'sent';
    const outcome = await settle(
      (signal) => patchBasket({ flush_id: batch.flush_id, products: batch.products }, { keepalive, signal }),
      (current) => (current.inflight?.flush_id === batch.flush_id ? { ...current, inflight: null } : current),
      // A product gone from the shop refuses the whole batch, and the server applied none of it: the
      // other changes go again, as a new batch. Refused changes are not lost silently: the answer to
      // that batch replaces the lines, and the refused product's line leaves the screen with it.
      (error) => {
        const refused = refusedChanges(error);
        const current = readQueue();
        if (!refused || current.inflight?.flush_id !== batch.flush_id) return null;
        const kept = batch.products.filter((_, index) => !refused.has(index));
        return kept.length > 0 ? { ...current, inflight: { flush_id: newRequestId(), products: kept } } : null;
      },
    );
    if (outcome === 'failed') return 'failed';
  }
}

/**
 * Sends everything queued. Resolves true once the queue is empty, false when a request failed (a
 * retry is then scheduled) or the session ended. While another tab sends, waits for it, trying the
 * lock every BASKET_LOCK_RETRY_MS, for as long as that tab may hold it.
 */
export async function flushBasket({ keepalive = false }: { keepalive?: boolean } = {}): Promise<boolean> {
  clearTimeout(idleTimer);
  const deadline = Date.now() + STORAGE_LOCK_TTL_MS;
  for (;;) {
    if (!getToken()) return false;
    if (isQueueEmpty(readQueue())) return true;
    let outcome: Outcome;
    try {
      outcome = await withLock(() => sendQueue(keepalive));
    } catch {
      // The lock itself failed (a browser refusing Web Locks in this context): try again later.
      scheduleRetry();
      return false;
    }
    if (outcome !== 'busy') return outcome === 'sent';
    if (Date.now() >= deadline) return false;
    await delay(BASKET_LOCK_RETRY_MS);
  }
}

/**
 * The server basket again (page load, window focus, after login): what is queued is sent, and its
 * answer is the basket; with nothing queued, GET /basket. Concurrent calls share one.
 */
export function refreshBasket(): Promise<void> {
  refreshing ??= (async () => {
    try {
      if (!getToken()) return;
      if (!isQueueEmpty(readQueue())) {
        await flushBasket();
        return;
      }
      try {
        applyServerBasket(await withTimeout(getServerBasket));
      } catch (error) {
        if (failureOf(error) === 'unauthorized') clearSession();
      }
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * Login and registration: the guest basket becomes the customer's. Its lines stay on screen, and it is
 * queued as one merge, sent before any change, with the merge id the guest copy carries: a second login
 * with the same copy sends the same id and the server adds it once. The guest copy is gone from storage
 * from here on; what remains is the customer's.
 */
export function adoptGuestBasket(owner: string) {
  const stored = readStoredBasket();
  if (!stored || stored.owner === owner) return;
  if (stored.owner === null) {
    if (stored.lines.length > 0) {
      const products = stored.lines.map((line) => ({ id: line.id, quantity: line.pivot.quantity }));
      writeQueue({ ...readQueue(), merge: { merge_id: stored.merge_id ?? newRequestId(), products } });
    }
    saveBasketState({ owner, merge_id: null, lines: stored.lines, capped: [] });
    return;
  }
  // Another customer's copy and queue, left by a session that ended without clearing them: not this
  // customer's, who starts from the server basket.
  writeQueue({ merge: null, inflight: null, pending: [], queued: 0 });
  saveBasketState({ owner, merge_id: null, lines: [], capped: [] });
}

// ---------------------------------------------------------------------------------------------
// Triggers.

function onQueueChanged() {
  const queue = readQueue();
  if (queue.pending.length === 0) return;
  clearTimeout(idleTimer);
  if (queue.queued >= BASKET_FLUSH_MAX_CHANGES) void flushBasket();
  else idleTimer = setTimeout(() => void flushBasket(), BASKET_FLUSH_IDLE_MS);
}

/**
 * The page is going away (closed, reloaded, navigated off): no time for the lock or an answer. The
 * queue is sent with keepalive requests as it stands; the batch is marked in flight with its id, so
 * the next page (or another tab) sends it again with the same id and the server applies it once.
 */
function sendOnPageHide() {
  if (!getToken()) return;
  let queue = readQueue();
  if (queue.merge) void mergeBasket(queue.merge, { keepalive: true }).catch(() => {});
  if (!queue.inflight && queue.pending.length > 0) {
    queue = { ...queue, inflight: { flush_id: newRequestId(), products: queue.pending }, pending: [], queued: 0 };
    writeQueue(queue);
  }
  if (queue.inflight) void patchBasket(queue.inflight, { keepalive: true }).catch(() => {});
}

function onVisibilityChange() {
  if (document.visibilityState === 'hidden') void flushBasket({ keepalive: true });
}

function onFocus() {
  void refreshBasket();
}

/**
 * Starts the sync for the signed-in customer: the guest basket is adopted if it is still there, what
 * an earlier page left queued is sent, and the server basket read. Returns the stop.
 */
export function startBasketSync(): () => void {
  const owner = currentOwner();
  if (owner !== null) adoptGuestBasket(owner);
  const unsubscribe = subscribeQueue(onQueueChanged);
  window.addEventListener('focus', onFocus);
  window.addEventListener('pagehide', sendOnPageHide);
  document.addEventListener('visibilitychange', onVisibilityChange);
  void refreshBasket();
  return () => {
    unsubscribe();
    window.removeEventListener('focus', onFocus);
    window.removeEventListener('pagehide', sendOnPageHide);
    document.removeEventListener('visibilitychange', onVisibilityChange);
    clearTimeout(idleTimer);
    clearTimeout(retryTimer);
    retryDelay = 0;
  };
}
