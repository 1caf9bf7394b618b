import {
  CategoriesResponseSchema,
  CategoryListingResponseSchema,
  CountriesQuerySchema,
  CountriesResponseSchema,
  CurrenciesResponseSchema,
  MessageErrorSchema,
  OkResponseSchema,
  PagingQuerySchema,
  PRODUCT_LISTS,
  ProductDetailQuerySchema,
  ProductDetailSchema,
  ProductFilterQuerySchema,
  ProductIdParamsSchema,
  ProductListQuerySchema,
  ProductListResponseSchema,
  ProductSummarySchema,
  ReviewsResponseSchema,
  SimilarProductsResponseSchema,
  SlugParamsSchema,
  StockNotificationRequestSchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const errors = { 404: MessageErrorSchema, 422: ValidationErrorSchema, 429: MessageErrorSchema };

/** SPEC.md section 7: categories, listings, products, reviews, countries and currencies. */
export default async function catalogueRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { catalogue } = app.services;
  const config = { rateLimit: app.rateLimitPreset('read') };
  const tags = ['catalogue'];

  app.get(
    '/categories',
    { config, schema: { tags, response: { 200: CategoriesResponseSchema, 429: MessageErrorSchema } } },
    () => catalogue.listCategories(),
  );

  app.get(
    '/categories/:id',
    {
      config,
      schema: {
        tags,
        params: SlugParamsSchema,
        querystring: ProductFilterQuerySchema,
        response: { 200: CategoryListingResponseSchema, ...errors },
      },
    },
    (request) => catalogue.getCategoryListing(request.params.id, request.query),
  );

  for (const list of PRODUCT_LISTS) {
    app.get(
      `/${list}`,
      {
        config,
        schema: { tags, querystring: ProductListQuerySchema, response: { 200: ProductListResponseSchema, ...errors } },
      },
      (request) => catalogue.listProducts(list, request.query),
    );
  }

  app.get(
    '/products/:id',
    {
      config,
      schema: {
        tags,
        params: ProductIdParamsSchema,
        querystring: ProductDetailQuerySchema,
        response: { 200: ProductDetailSchema, ...errors },
      },
    },
    (request) => catalogue.getProduct(request.params.id, request.query.lang),
  );

  app.post(
    '/products/:id/stock-notifications',
    {
      config: { rateLimit: app.rateLimitPreset('stockNotify') },
      schema: {
        tags,
        params: ProductIdParamsSchema,
        body: StockNotificationRequestSchema,
        response: { 200: OkResponseSchema, 409: MessageErrorSchema, ...errors },
      },
    },
    async (request) => {
      const { email, lang } = request.body;
      await app.services.stockNotifications.subscribe(request.params.id, email, lang);
      return { ok: true as const, message: 'We will write once when it is back in stock.' };
    },
  );

  app.get(
    '/products/for-basket/:id',
    { config, schema: { tags, params: ProductIdParamsSchema, response: { 200: ProductSummarySchema, ...errors } } },
    (request) => catalogue.getProductForBasket(request.params.id),
  );

  app.get(
    '/products/:id/similar-products',
    {
      config,
      schema: { tags, params: ProductIdParamsSchema, response: { 200: SimilarProductsResponseSchema, ...errors } },
    },
    async (request) => ({ products: await catalogue.getSimilarProducts(request.params.id) }),
  );

  app.get(
    '/products/feedbacks/:id',
    {
      config,
      schema: {
        tags: ['reviews'],
        params: ProductIdParamsSchema,
        querystring: PagingQuerySchema,
        response: { 200: ReviewsResponseSchema, ...errors },
      },
    },
    (request) => catalogue.listReviews(request.params.id, request.query),
  );

  app.get(
    '/countries',
    {
      config,
      schema: { tags, querystring: CountriesQuerySchema, response: { 200: CountriesResponseSchema, ...errors } },
    },
    (request) => catalogue.listCountries(request.query.category),
  );

  app.get(
    '/currencies',
    { config, schema: { tags, response: { 200: CurrenciesResponseSchema, 429: MessageErrorSchema } } },
    () => catalogue.listCurrencies(),
  );
}
