import type { BasketChange, BasketMergeBody } from '@store/contract';
import { BASKET_LINE_MAX } from '@store/contract';
import { BASKET_QUEUE_STORAGE_KEY } from '../../lib/storage-keys.ts';

export { BASKET_QUEUE_STORAGE_KEY };

/**
 * A signed-in customer's basket changes wait in local storage under "basket send list" until they are
 * sent with PATCH /basket. Every tab of the shop shares it, and one tab at a time sends it (the lock in
 * basket-sync.ts). Three parts:
 * - `merge`: the guest basket adopted at login, sent once with POST /basket/merge before any change;
 * - `inflight`: the batch being sent, with the flush id it keeps until the server has answered, so a
 *   retry (this tab's, or another tab's after this one closed) sends the same id and the server
 *   applies the batch once;
 * - `pending`: changes made since, folded by product; they become the next batch. `queued` counts
 *   the changes behind them, for the flush at BASKET_FLUSH_MAX_CHANGES.
 */
export interface BasketQueue {
  merge: BasketMergeBody | null;
  inflight: { flush_id: string; products: BasketChange[] } | null;
  pending: BasketChange[];
  queued: number;
}

// Checked by hand rather than with the contract's schemas: this module is in the first page load,
// and the server checks every request anyway.
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const isId = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
const isChange = (value: unknown): value is BasketChange =>
  isObject(value) &&
  isCount(value.id) &&
  (value.type === 'increase' || value.type === 'decrease') &&
  isCount(value.count);
const isMergeLine = (value: unknown) => isObject(value) && isCount(value.id) && isCount(value.quantity);

function parseQueue(value: unknown): BasketQueue | null {
  if (!isObject(value) || !Array.isArray(value.pending) || !value.pending.every(isChange)) return null;
  const { merge, inflight } = value;
  const mergeOk =
    merge === null ||
    (isObject(merge) && isId(merge.merge_id) && Array.isArray(merge.products) && merge.products.every(isMergeLine));
  const inflightOk =
    inflight === null ||
    (isObject(inflight) &&
      isId(inflight.flush_id) &&
      Array.isArray(inflight.products) &&
      inflight.products.every(isChange));
  if (!mergeOk || !inflightOk) return null;
  return {
    merge: merge as BasketQueue['merge'],
    inflight: inflight as BasketQueue['inflight'],
    pending: value.pending,
    queued: Number.isInteger(value.queued) ? (value.queued as number) : value.pending.length,
  };
}

const EMPTY: BasketQueue = { merge: null, inflight: null, pending: [], queued: 0 };
let cache: { raw: string | null; queue: BasketQueue } | null = null;
const listeners = new Set<() => void>();

function readRaw(): string | null {
  try {
    return localStorage.getItem(BASKET_QUEUE_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The queue as stored; a damaged entry reads as empty rather than blocking the basket for good. */
export function readQueue(): BasketQueue {
  const raw = readRaw();
  if (cache && cache.raw === raw) return cache.queue;
  let queue = EMPTY;
  if (raw) {
    try {
      queue = parseQueue(JSON.parse(raw)) ?? EMPTY;
    } catch {
      queue = EMPTY;
    }
  }
  cache = { raw, queue };
  return queue;
}

export function writeQueue(queue: BasketQueue) {
  const empty = !queue.merge && !queue.inflight && queue.pending.length === 0;
  try {
    if (empty) localStorage.removeItem(BASKET_QUEUE_STORAGE_KEY);
    else localStorage.setItem(BASKET_QUEUE_STORAGE_KEY, JSON.stringify(queue));
  } catch {
    // Blocked storage: the queue lives as long as the page.
  }
  cache = { raw: readRaw(), queue: empty ? EMPTY : queue };
  for (const listener of listeners) listener();
}

export const isQueueEmpty = (queue: BasketQueue) => !queue.merge && !queue.inflight && queue.pending.length === 0;

const signed = (change: BasketChange) => (change.type === 'increase' ? change.count : -change.count);

/**
 * Folds a change of `delta` units into the pending changes of product `id`: one entry per product,
 * the net of everything since the last batch (a + then a − cancel out).
 */
export function foldChange(pending: readonly BasketChange[], id: number, delta: number): BasketChange[] {
  const current = pending.find((change) => change.id === id);
  // Local quantities stay within 0..BASKET_LINE_MAX, so a net beyond it only comes from a server cap.
  const net = Math.max(-BASKET_LINE_MAX, Math.min(BASKET_LINE_MAX, (current ? signed(current) : 0) + delta));
  if (net === 0) return pending.filter((change) => change.id !== id);
  const change: BasketChange = { id, type: net > 0 ? 'increase' : 'decrease', count: Math.abs(net) };
  return current ? pending.map((item) => (item.id === id ? change : item)) : [...pending, change];
}

/** Queues the changes of one user action (the effective delta per product, after local caps). */
export function enqueueChanges(deltas: readonly { id: number; delta: number }[]) {
  const moved = deltas.filter(({ delta }) => delta !== 0);
  if (moved.length === 0) return;
  const queue = readQueue();
  const pending = moved.reduce((list, { id, delta }) => foldChange(list, id, delta), queue.pending);
  writeQueue({ ...queue, pending, queued: queue.queued + moved.length });
}

export function subscribeQueue(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key === BASKET_QUEUE_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}
