import * as z from 'zod/mini';

const ResponseSchema = z.object({
  result: z.object({
    total: z.number().check(z.int()),
    products: z.array(
      z.object({ id: z.number().check(z.int()), name: z.string().check(z.minLength(1)), created_at: z.iso.datetime() }),
    ),
  }),
});

export function parseProducts(body: unknown) {
  return ResponseSchema.parse(body).result.products;
}
