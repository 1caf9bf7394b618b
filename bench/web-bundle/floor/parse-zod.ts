import { z } from 'zod';

const ResponseSchema = z.object({
  result: z.object({
    total: z.number().int(),
    products: z.array(z.object({ id: z.number().int(), name: z.string().min(1), created_at: z.iso.datetime() })),
  }),
});

export function parseProducts(body: unknown) {
  return ResponseSchema.parse(body).result.products;
}
