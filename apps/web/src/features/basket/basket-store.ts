import { BASKET_ADD_QUANTITY, BASKET_LINE_MAX, type ProductSummary, ProductSummarySchema } from '@store/contract';
import * as z from 'zod/mini';
import { newRequestId } from '../../lib/request-id.ts';
import { getSession, subscribeSession } from '../../lib/session-store.ts';
import { BASKET_STORAGE_KEY } from '../../lib/storage-keys.ts';

export { BASKET_STORAGE_KEY };

/** A basket line (docs/orders.md, "The basket"): the product fields the basket shows, and `pivot.quantity`. */
export const BasketLineSchema = z.extend(
  z.pick(ProductSummarySchema, {
    id: true,
    name: true,
    price: true,
    price_minor: true,
    currency: true,
    category: true,
    cover_path: true,
    cover_text: true,
    country_icon: true,
  }),
  {
    /** The region the code activates in; a line stored before lines named it has none. */
    country: z.optional(ProductSummarySchema.shape.country),
    pivot: z.object({ quantity: z.int().check(z.positive()) }),
    /** The server's limit for the line (stock and the per-line maximum), once it has said. */
    max_quantity: z.optional(z.int()),
  },
);
export type BasketLine = z.infer<typeof BasketLineSchema>;
/** A product as the basket keeps it, without a quantity. */
export type BasketProduct = Omit<BasketLine, 'pivot'>;

/**
 * A line the server set lower than asked for, shown to the customer as a short note. The reason is
 * checked where it is shown: importing the contract's basket schemas here would put every one of
 * them in the first page load.
 */
const CappedNoteSchema = z.object({
  id: z.int(),
  name: z.string(),
  quantity: z.int(),
  reason: z.string(),
});
export type CappedNote = z.infer<typeof CappedNoteSchema>;

/**
 * What "basket" holds: a guest's basket (owner null), or the signed-in customer's copy of the server
 * basket with their queued changes applied (owner: the user id). A guest basket carries the id its
 * merge will be sent with, renewed on every change: the same copy sent twice (a retried login, two
 * tabs logging in at once) is merged once; a changed copy is a new merge.
 */
export interface StoredBasket {
  owner: string | null;
  merge_id: string | null;
  lines: BasketLine[];
  capped: CappedNote[];
}

const dropDamaged = <T>(schema: z.ZodMiniType<T>) =>
  z.pipe(
    z.array(z.unknown()),
    z.transform((items: unknown[]) =>
      items.flatMap((item) => {
        const parsed = schema.safeParse(item);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
  );

const StoredBasketSchema = z.object({
  owner: z.nullable(z.string()),
  merge_id: z.nullable(z.string()),
  lines: dropDamaged(BasketLineSchema),
  capped: z.optional(dropDamaged(CappedNoteSchema)),
});

const EMPTY_LINES: BasketLine[] = [];
const NOTHING: StoredBasket = { owner: null, merge_id: null, lines: EMPTY_LINES, capped: [] };
let cache: { raw: string | null; owner: string | null; state: StoredBasket } | null = null;
const listeners = new Set<() => void>();

/** Whose basket this page shows: the signed-in user's id, or null for a guest. */
export const currentOwner = (): string | null => getSession().user?.id ?? null;

function readRaw(): string | null {
  try {
    return localStorage.getItem(BASKET_STORAGE_KEY);
  } catch {
    return null;
  }
}

/**
 * The stored basket of whoever is signed in now. A copy that belongs to someone else (a session
 * that ended without clearing it) reads as empty: it is never shown to, or merged for, another person.
 */
export function getBasketState(): StoredBasket {
  const raw = readRaw();
  const owner = currentOwner();
  if (cache && cache.raw === raw && cache.owner === owner) return cache.state;
  const stored = parseStored(raw);
  const state = stored && stored.owner === owner ? stored : NOTHING;
  cache = { raw, owner, state };
  return state;
}

function parseStored(raw: string | null): StoredBasket | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    // The first releases stored a guest's lines as a bare list.
    const parsed = StoredBasketSchema.safeParse(
      Array.isArray(value) ? { owner: null, merge_id: null, lines: value } : value,
    );
    return parsed.success ? { ...parsed.data, capped: parsed.data.capped ?? [] } : null;
  } catch {
    return null;
  }
}

/** The stored basket whoever it belongs to: at login, a guest's copy is adopted from here. */
export const readStoredBasket = (): StoredBasket | null => parseStored(readRaw());

/** The lines of the current basket; damaged or foreign entries are dropped rather than crashing the page. */
export const getBasket = (): BasketLine[] => getBasketState().lines;

export function saveBasketState(state: StoredBasket) {
  const empty = state.lines.length === 0 && state.capped.length === 0;
  try {
    // An empty guest basket leaves nothing behind; a customer's empty copy still says whose it is.
    if (empty && state.owner === null) localStorage.removeItem(BASKET_STORAGE_KEY);
    else localStorage.setItem(BASKET_STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or blocked: the basket still works for this page view through the cache.
  }
  cache = { raw: readRaw(), owner: state.owner, state };
  for (const listener of listeners) listener();
}

export function subscribeBasket(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    // Another tab changed the basket.
    if (event.key === null || event.key === BASKET_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  // Logging in or out changes whose basket is shown.
  const unsubscribeSession = subscribeSession(listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
    unsubscribeSession();
  };
}

const lineMax = (line: { max_quantity?: number | undefined }) =>
  Math.min(BASKET_LINE_MAX, line.max_quantity ?? BASKET_LINE_MAX);

/**
 * Sets the quantity of products in one step: the lines update at once (count and total right away) and,
 * for a customer, each product's change is queued for the server. A quantity of 0 or less removes the
 * line; none goes above the line's limit.
 */
function setQuantities(targets: readonly { product: BasketProduct; quantity: number }[]) {
  const state = getBasketState();
  const owner = currentOwner();
  let lines = state.lines;
  const deltas: { id: number; delta: number }[] = [];
  for (const { product, quantity } of targets) {
    const existing = lines.find((line) => line.id === product.id);
    const before = existing?.pivot.quantity ?? 0;
    const after = Math.max(0, Math.min(Math.trunc(quantity), lineMax(existing ?? product)));
    if (after === before) continue;
    deltas.push({ id: product.id, delta: after - before });
    if (after === 0) lines = lines.filter((line) => line.id !== product.id);
    else if (existing)
      lines = lines.map((line) => (line.id === product.id ? { ...line, pivot: { quantity: after } } : line));
    else lines = [...lines, { ...product, pivot: { quantity: after } }];
  }
  if (deltas.length === 0) return;
  saveBasketState({ owner, merge_id: owner === null ? newRequestId() : null, lines, capped: state.capped });
  if (owner === null) return;
  if (enqueue) enqueue(deltas);
  else void import('./basket-queue.ts').then((queue) => queue.enqueueChanges(deltas));
}

type BasketDeltas = readonly { id: number; delta: number }[];

/**
 * Queues a signed-in customer's changes for the server (basket-queue.ts). The queue is no part of the
 * first download, which a guest's basket never needs: the basket's sync, loaded once somebody is
 * signed in, hands its enqueue over here; a change made before it has loaded loads the queue itself.
 */
let enqueue: ((deltas: BasketDeltas) => void) | undefined;

export function queueChangesWith(next: (deltas: BasketDeltas) => void) {
  enqueue = next;
}

const quantityOf = (id: number) => getBasket().find((line) => line.id === id)?.pivot.quantity ?? 0;

const basketProduct = (product: ProductSummary): BasketProduct => ({
  id: product.id,
  name: product.name,
  price: product.price,
  price_minor: product.price_minor,
  currency: product.currency,
  category: product.category,
  cover_path: product.cover_path,
  cover_text: product.cover_text,
  country_icon: product.country_icon,
  country: product.country,
});

/** Adds units of a product (one per Buy click). */
export function addToBasket(product: ProductSummary, quantity: number = BASKET_ADD_QUANTITY) {
  setQuantities([{ product: basketProduct(product), quantity: quantityOf(product.id) + quantity }]);
}

/** + and − on a line. */
export function changeLineQuantity(line: BasketLine, delta: number) {
  setQuantities([{ product: line, quantity: quantityOf(line.id) + delta }]);
}

export function removeLine(line: BasketLine) {
  setQuantities([{ product: line, quantity: 0 }]);
}

/** Delete-all decreases every line by its whole quantity. */
export function clearBasket() {
  setQuantities(getBasket().map((line) => ({ product: line, quantity: 0 })));
}

export function dismissCappedNotes() {
  const state = getBasketState();
  if (state.capped.length > 0) saveBasketState({ ...state, capped: [] });
}

export const basketCount = (lines: readonly BasketLine[]) => lines.reduce((sum, line) => sum + line.pivot.quantity, 0);

/** Integer minor units: money is never added as floats. */
export const basketTotalMinor = (lines: readonly BasketLine[]) =>
  lines.reduce((sum, line) => sum + line.price_minor * line.pivot.quantity, 0);
