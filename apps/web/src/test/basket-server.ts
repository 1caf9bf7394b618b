import {
  BASKET_LINE_MAX,
  type BasketChange,
  type BasketResponse,
  type CappedLine,
  type ProductSummary,
  type PromoResult,
  STORE_DISPLAY_RATE,
} from '@store/contract';
import { productFixture, userFixture } from './fixtures.ts';

type Reply = { status: number; body: unknown; headers?: Record<string, string> };

export interface RecordedCall {
  method: string;
  path: string;
  search: string;
  body: unknown;
  keepalive: boolean;
  headers: Record<string, string>;
}

/**
 * An in-memory stand-in for the basket API, behaving as the contract says: PATCH applies a flush id
 * once, merge applies a merge id once, quantities are capped at BASKET_LINE_MAX (or a product's
 * stock), every answer is the whole basket. Failures can be queued per `METHOD /path`; `lose` makes
 * the server apply a request and then drop the connection, as a lost answer does.
 */
export function fakeBasketServer(catalogue: ProductSummary[], initial: Record<number, number> = {}) {
  const lines = new Map<number, number>(Object.entries(initial).map(([id, quantity]) => [Number(id), quantity]));
  const applied = new Set<string>();
  const stock = new Map<number, number>();
  const failures = new Map<string, (Reply | 'lose')[]>();
  const calls: RecordedCall[] = [];
  let promo: Reply = { status: 422, body: { message: 'Invalid', errors: { code: ['validation.invalidPromoCode'] } } };

  const product = (id: number) => catalogue.find((item) => item.id === id) ?? productFixture({ id });
  const limit = (id: number) => Math.min(BASKET_LINE_MAX, stock.get(id) ?? BASKET_LINE_MAX);

  function basket(capped: CappedLine[] = []): BasketResponse {
    const products = [...lines].map(([id, quantity]) => {
      const item = product(id);
      return {
        id: item.id,
        article: item.article,
        name: item.name,
        price: item.price,
        price_minor: item.price_minor,
        currency: item.currency,
        category: item.category,
        cover_path: item.cover_path,
        cover_text: item.cover_text,
        country_icon: item.country_icon,
        country: item.country,
        in_stock: item.in_stock,
        pivot: { quantity },
        max_quantity: limit(id),
      };
    });
    const totalMinor = products.reduce((sum, line) => sum + line.price_minor * line.pivot.quantity, 0);
    return {
      products,
      total_minor: totalMinor,
      total: totalMinor / 100,
      currency: 'BRL',
      capped,
      display: STORE_DISPLAY_RATE,
    };
  }

  function set(id: number, requested: number, capped: CappedLine[]) {
    const quantity = Math.min(requested, limit(id));
    if (quantity <= 0) lines.delete(id);
    else lines.set(id, quantity);
    if (quantity < requested) capped.push({ id, requested, quantity, reason: 'stock' });
  }

  function patch(body: { flush_id: string; products: BasketChange[] }): Reply {
    const capped: CappedLine[] = [];
    if (!applied.has(body.flush_id)) {
      applied.add(body.flush_id);
      for (const change of body.products) {
        const delta = change.type === 'increase' ? change.count : -change.count;
        set(change.id, (lines.get(change.id) ?? 0) + delta, capped);
      }
    }
    return { status: 200, body: basket(capped) };
  }

  function merge(body: { merge_id: string; products: { id: number; quantity: number }[] }): Reply {
    const capped: CappedLine[] = [];
    if (!applied.has(body.merge_id)) {
      applied.add(body.merge_id);
      for (const line of body.products) set(line.id, (lines.get(line.id) ?? 0) + line.quantity, capped);
    }
    return { status: 200, body: basket(capped) };
  }

  const routes: Record<string, (body: never) => Reply> = {
    'GET /api/basket': () => ({ status: 200, body: basket() }),
    'PATCH /api/basket': patch,
    'POST /api/basket/merge': merge,
    'POST /api/promocode/': () => promo,
    'GET /api/categories': () => ({ status: 200, body: [] }),
    'POST /api/login': () => ({ status: 200, body: { token: 'tok', user: userFixture() } }),
    'POST /api/logout': () => ({ status: 204, body: null }),
  };

  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    const body: unknown = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({
      method,
      path: url.pathname,
      search: url.search,
      body,
      keepalive: init.keepalive === true,
      headers: (init.headers ?? {}) as Record<string, string>,
    });
    const key = `${method} ${url.pathname}`;
    const failure = failures.get(key)?.shift();
    const route = routes[key];
    if (failure === 'lose') {
      route?.(body as never);
      throw new TypeError('Failed to fetch');
    }
    const reply = failure ?? route?.(body as never) ?? { status: 404, body: { message: 'Not found' } };
    return new Response(reply.status === 204 ? null : JSON.stringify(reply.body), {
      status: reply.status,
      headers: { 'content-type': 'application/json', ...reply.headers },
    });
  };

  return {
    fetchMock,
    calls,
    lines,
    stock,
    /** The requests to `METHOD /path` so far. */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key),
    /** The next requests to `METHOD /path` get these answers instead (or `lose`). */
    fail: (key: string, ...replies: (Reply | 'lose')[]) =>
      failures.set(key, [...(failures.get(key) ?? []), ...replies]),
    answerPromo: (reply: Reply) => {
      promo = reply;
    },
  };
}

export function promoResult(overrides: Partial<PromoResult> = {}): PromoResult {
  return {
    code: 'WELCOME10',
    price: 100,
    priceWithDiscount: 90,
    discount: 10,
    price_minor: 10_000,
    price_with_discount_minor: 9_000,
    discount_minor: 1_000,
    currency: 'BRL',
    applies_to: [1],
    ...overrides,
  };
}
