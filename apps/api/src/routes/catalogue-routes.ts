import {
  CategoriesResponseSchema,
  CategoryListingResponseSchema,
  CountriesQuerySchema,
  CountriesResponseSchema,
  CurrenciesResponseSchema,
  MessageErrorSchema,
  PRODUCT_LISTS,
  ProductDetailQuerySchema,
  ProductDetailSchema,
  ProductFilterQuerySchema,
  ProductIdParamsSchema,
  ProductListQuerySchema,
  ProductListResponseSchema,
  ProductSummarySchema,
  ReviewsQuerySchema,
  ReviewsResponseSchema,
  SimilarProductsResponseSchema,
  SlugParamsSchema,
  StockNotificationConfirmedSchema,
  StockNotificationRequestSchema,
  StockNotificationResponseSchema,
  TokenBodySchema,
  ValidationErrorSchema,
} from '@store/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

const errors = { 404: MessageErrorSchema, 422: ValidationErrorSchema, 429: MessageErrorSchema };

/**
 * Categories, listings, products, reviews, countries and currencies (docs/api.md, "Catalogue and
 * search").
 */
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

  /** A guest asks too; a bearer token, when sent, must be a live session's, as anywhere else. */
  async function customerIfSignedIn(request: FastifyRequest, reply: FastifyReply) {
    if (request.headers.authorization) await app.authenticate(request, reply);
  }

  app.post(
    '/products/:id/stock-notifications',
    {
      onRequest: customerIfSignedIn,
      config: { rateLimit: app.rateLimitPreset('stockNotify') },
      schema: {
        tags,
        summary: 'Tell me when it is back: a guest, or another address than the account’s own, confirms by email',
        params: ProductIdParamsSchema,
        body: StockNotificationRequestSchema,
        response: { 200: StockNotificationResponseSchema, 401: MessageErrorSchema, 409: MessageErrorSchema, ...errors },
      },
    },
    async (request) => {
      const { email, lang } = request.body;
      const userId = request.headers.authorization ? request.user.userId : undefined;
      const { confirmByEmail } = await app.services.stockNotifications.subscribe(request.params.id, email, lang, {
        userId,
      });
      return {
        ok: true as const,
        message: confirmByEmail
          ? 'Check your email: follow its link to confirm, and we will write once when it is back in stock.'
          : 'We will write once when it is back in stock.',
        confirm_by_email: confirmByEmail,
      };
    },
  );

  app.post(
    '/stock-notifications/confirm',
    {
      config: { rateLimit: app.rateLimitPreset('emailVerify') },
      schema: {
        tags,
        summary: 'Confirms a back-in-stock request by the token of its emailed link',
        body: TokenBodySchema,
        response: { 200: StockNotificationConfirmedSchema, 409: MessageErrorSchema, ...errors },
      },
    },
    async (request) => {
      const { locale } = await app.services.stockNotifications.confirm(request.body.token);
      return { ok: true as const, message: 'Confirmed: we will write once when it is back in stock.', lang: locale };
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
        querystring: ReviewsQuerySchema,
        response: { 200: ReviewsResponseSchema, ...errors },
      },
    },
    (request) => app.services.reviews.listReviews(request.params.id, request.query),
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
