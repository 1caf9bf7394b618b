import * as z from 'zod/mini';

/**
 * A customer's list answered a page at a time (the profile's purchases and its order history): the
 * rows under their own `key`, the page, how many pages and how many rows in all.
 */
export function profilePageOf<const Key extends string, Item extends z.core.SomeType>(key: Key, item: Item) {
  const rows = { [key]: z.array(item) } as { [K in Key]: z.ZodMiniArray<Item> };
  return z.object({ ...rows, page: z.int(), pages: z.int(), total: z.int() });
}
