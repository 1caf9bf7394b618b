import {
  LangQuerySchema,
  MessageErrorSchema,
  ProductFilterQuerySchema,
  SearchHintsResponseSchema,
  SearchParamsSchema,
  SearchResponseSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const errors = { 422: ValidationErrorSchema, 429: MessageErrorSchema };

/** Search hints (by name and by article) and filtered search results (docs/api.md, "Catalogue and search"). */
export default async function searchRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { catalogue } = app.services;
  const config = { rateLimit: app.rateLimitPreset('search') };
  const tags = ['search'];

  app.get(
    '/search/hints/:query',
    {
      config,
      schema: {
        tags,
        params: SearchParamsSchema,
        querystring: LangQuerySchema,
        response: { 200: SearchHintsResponseSchema, ...errors },
      },
    },
    (request) => catalogue.searchHints(request.params.query, request.query.lang),
  );

  app.get(
    '/search/products/:query/filter',
    {
      config,
      schema: {
        tags,
        params: SearchParamsSchema,
        querystring: ProductFilterQuerySchema,
        response: { 200: SearchResponseSchema, ...errors },
      },
    },
    (request) => catalogue.searchProducts(request.params.query, request.query),
  );
}
