import Fastify from 'fastify';
import pg from 'pg';
import { HINTS_SQL, listingSql } from './queries.ts';

/**
 * The baseline: a bare Fastify route per benchmarked call, each running the equivalent single SQL
 * query through pg and sending the rows as they come. No validation, no mapping, no plugins.
 */
const databaseUrl = process.env.BENCH_DATABASE_URL;
const port = Number(process.env.BENCH_PORT);
if (!databaseUrl || !port) throw new Error('BENCH_DATABASE_URL and BENCH_PORT are required');

const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const app = Fastify({ logger: false });

app.get<{ Params: { slug: string }; Querystring: Record<string, string> }>('/categories/:slug', async (request) => {
  const q = request.query;
  const limit = 24;
  const offset = (Number(q.page ?? 1) - 1) * limit;
  const { rows } = await pool.query(listingSql(q.sort), [
    request.params.slug,
    Number(q.minPrice ?? 0) * 100,
    Number(q.maxPrice ?? 999_999) * 100,
    (q.currency ?? '').split(',').filter(Boolean),
    (q.country ?? '').split(',').filter(Boolean),
    limit,
    offset,
  ]);
  return { products: rows };
});

app.get<{ Params: { query: string } }>('/hints/:query', async (request) => {
  const { rows } = await pool.query(HINTS_SQL, [request.params.query]);
  return { hintsByName: rows };
});

/**
 * The floor: a fixed body of the listing's size, no database. What one Node process serves on this
 * machine under the same load generator, so the latency figures can be read against it.
 */
let floorBody = '';
app.get('/floor', async (_request, reply) => reply.type('application/json').send(floorBody));

await app.listen({ host: '127.0.0.1', port });
const sample = await app.inject({ method: 'GET', url: '/categories/steam' });
floorBody = sample.body;
process.send?.('ready');
process.on('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
