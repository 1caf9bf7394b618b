import { BASKET_ADD_QUANTITY, type ProductSummary, ProductSummarySchema } from '@store/contract';
import * as z from 'zod/mini';

/** SPEC.md section 3 "Basket item": the product fields the basket shows, and `pivot.quantity`. */
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
  { pivot: z.object({ quantity: z.int().check(z.positive()) }) },
);
export type BasketLine = z.infer<typeof BasketLineSchema>;

/** SPEC.md section 3: the guest basket lives in local storage under this key. */
export const BASKET_STORAGE_KEY = 'basket';

const BasketSchema = z.pipe(
  z.array(z.unknown()),
  z.transform((items: unknown[]) =>
    items.flatMap((item) => {
      const line = BasketLineSchema.safeParse(item);
      return line.success ? [line.data] : [];
    }),
  ),
);

const EMPTY: BasketLine[] = [];
let cache: { raw: string | null; lines: BasketLine[] } | null = null;
const listeners = new Set<() => void>();

function readRaw(): string | null {
  try {
    return localStorage.getItem(BASKET_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The stored basket; damaged or foreign entries are dropped rather than crashing the page. */
export function getBasket(): BasketLine[] {
  const raw = readRaw();
  if (cache && cache.raw === raw) return cache.lines;
  let lines = EMPTY;
  if (raw) {
    try {
      const parsed = BasketSchema.safeParse(JSON.parse(raw));
      if (parsed.success) lines = parsed.data;
    } catch {
      lines = EMPTY;
    }
  }
  cache = { raw, lines };
  return lines;
}

function save(lines: BasketLine[]) {
  try {
    localStorage.setItem(BASKET_STORAGE_KEY, JSON.stringify(lines));
  } catch {
    // Storage full or blocked: the basket still works for this page view through the cache.
    cache = { raw: readRaw(), lines };
  }
  for (const listener of listeners) listener();
}

export function subscribeBasket(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    // Another tab changed the basket.
    if (event.key === null || event.key === BASKET_STORAGE_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Adds units of a product (one per Buy click, SPEC.md section 9). */
export function addToBasket(product: ProductSummary, quantity: number = BASKET_ADD_QUANTITY): BasketLine[] {
  const lines = getBasket();
  const existing = lines.find((line) => line.id === product.id);
  const next = existing
    ? lines.map((line) =>
        line.id === product.id ? { ...line, pivot: { quantity: line.pivot.quantity + quantity } } : line,
      )
    : [
        ...lines,
        {
          id: product.id,
          name: product.name,
          price: product.price,
          price_minor: product.price_minor,
          currency: product.currency,
          category: product.category,
          cover_path: product.cover_path,
          cover_text: product.cover_text,
          country_icon: product.country_icon,
          pivot: { quantity },
        },
      ];
  save(next);
  return next;
}

export const basketCount = (lines: readonly BasketLine[]) => lines.reduce((sum, line) => sum + line.pivot.quantity, 0);

/** Integer minor units: money is never added as floats. */
export const basketTotalMinor = (lines: readonly BasketLine[]) =>
  lines.reduce((sum, line) => sum + line.price_minor * line.pivot.quantity, 0);
