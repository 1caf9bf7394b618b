import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  createDevMailbox,
  createInProcessQueue,
  createJobHandlers,
  createOutboxMailer,
  silentLogger,
} from '@store/core';
import { createCodeCipher, createDatabase, devCodeKey } from '@store/db';
import { seedDemo } from '@store/db/seed';
import { createTestDatabase, type TestDatabase } from '@store/db/testing';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { PASSWORD, registerUser } from '../test/accounts.ts';
import {
  BAD_HEADERS,
  BAD_JSON_BODIES,
  BAD_JSON_VALUES,
  BAD_PATH_VALUES,
  BAD_QUERIES,
  BAD_QUERY_VALUES,
  badAuthorizations,
  CONTENT_TYPES,
  jsonWith,
  leafPaths,
  routeList,
  type SampleContext,
  type SweepCase,
  type SweptRoute,
  sampleOf,
  shapeOf,
} from '../test/bad-input.ts';
import { type App, buildApp } from './app.ts';
import { loadEnv } from './env.ts';
import { SANDBOX_PREFIX } from './plugins/payments-sandbox.ts';

/**
 * The bad-input sweep: every route the app registers (found by the app's own onRoute, so a route
 * added tomorrow is swept tomorrow) gets malformed bodies, queries, path parameters, headers and
 * methods, anonymously and with a valid token of a real user. Any 5xx, any hang (see
 * HANG_AFTER_ANSWERS), any body showing a stack trace or internal error text, any 4xx not in the error
 * shapes of docs/api.md, "Errors", and any error logged by the app fails it.
 */

/**
 * When an answer counts as a hang. Wall time alone cannot tell: on a machine whose two cores other
 * test runs share, and on embedded PGlite, whose queries run on the event loop, every request may
 * wait seconds for the CPU. An answer still missing while HANG_AFTER_ANSWERS requests sent after it
 * have been answered, and at least HANG_MIN_MS after it was sent, is stuck, however busy the machine;
 * HANG_MS bounds the case where all are. The floor keeps answers slow on purpose (a password hashed
 * for a registration or a login) from counting.
 */
const HANG_AFTER_ANSWERS = 500;
const HANG_MIN_MS = 5_000;
const HANG_MS = 30_000;
const CONCURRENCY = 8;

/** The web app sends these on every call (docs/api.md, "Conventions"). */
const SPEC_HEADERS = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'];

/** What a response body must never show: stack frames, file paths, driver and database errors. */
const INTERNALS = [
  /\bat [\w$.<>[\]]+ \(/,
  /\bat (Object|async|new|process)\b/,
  /node_modules/,
  /prisma/i,
  /\b\w*Error:/,
  /\b(Type|Reference|Syntax|Range|Serialization|Validation)Error\b/,
  /\.(ts|js|mjs|cjs):\d+/,
  /ECONN\w+|EPIPE/,
  /invalid byte sequence|violates \w+ constraint|relation "|column "|syntax error at/,
];

// ---------------------------------------------------------------------------------------------
// The cases

/** The route's URL with each parameter replaced: by `values[name]` or by a value its schema takes. */
function urlOf(route: SweptRoute, context: SampleContext, values: Record<string, string> = {}): string {
  const valid = (route.schema?.params ? sampleOf(route.schema.params, context) : {}) as Record<string, unknown>;
  const url = route.url.replace(/:(\w+)|\*/g, (match, name: string | undefined) => {
    const key = name ?? match;
    return values[key] ?? encodeURIComponent(String(valid[key] ?? 'x'));
  });
  return url.startsWith('/') ? url : `/${url}`;
}

const paramNames = (url: string) => [...url.matchAll(/:(\w+)|\*/g)].map((match) => match[1] ?? '*');

/**
 * Every case for every route. A route that authenticates gets each case anonymously (where the
 * token check must stop it) and signed in (where its own parsing must); a route that reads no
 * token gets the few cases a client sends signed in as well. The HEAD twin Fastify adds to a GET
 * runs the same handler, so it gets the cases that reach that handler differently only.
 */
function buildCases(routes: SweptRoute[], context: SampleContext, badAuthorizations: string[]): SweepCase[] {
  const cases: SweepCase[] = [];

  for (const route of routes) {
    const { method } = route;
    const url = urlOf(route, context);
    const takesBody = BODY_METHODS.has(method);
    const headTwin = method === 'HEAD' && routes.some((other) => other.method === 'GET' && other.url === route.url);
    const bodySample = route.schema?.body ? sampleOf(route.schema.body, context) : undefined;
    const validJson = JSON.stringify(bodySample ?? {});
    const withQuery = (query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;
    const add = (base: Omit<SweepCase, 'signedIn'>, signedInToo = route.authenticated) => {
      cases.push({ ...base, signedIn: false });
      if (signedInToo) cases.push({ ...base, signedIn: true });
    };

    // As the original client calls it: JSON content type and no body, also with Content-Length: 0.
    for (const extra of [{}, { 'content-length': '0' }] as Array<Record<string, string>>) {
      add(
        {
          label: `the web app's headers, no body ${JSON.stringify(extra)}`,
          method,
          url,
          headers: { ...SPEC_HEADERS, ...extra },
          ...('content-length' in extra ? { payload: '' } : {}),
          check: ({ status, body, signedIn }) => {
            if (status === 400 || status === 415) return `refused a call as the original client sends it: ${status}`;
            if (signedIn && route.authenticated && !route.staffOnly && status === 401) {
              return 'refused the valid token of a real user';
            }
            if (status === 422 && route.schema?.body && 'body' in (JSON.parse(body).errors ?? {})) {
              return 'a missing body was not reported field by field';
            }
            return undefined;
          },
        },
        true,
      );
    }

    for (const name of paramNames(route.url)) {
      for (const value of BAD_PATH_VALUES) {
        add({
          label: `${name} = ${value.slice(0, 30)}`,
          method,
          url: urlOf(route, context, { [name]: value }),
          headers: SPEC_HEADERS,
          ...(takesBody ? { payload: validJson } : {}),
        });
      }
    }

    for (const query of BAD_QUERIES) {
      add({ label: `query ${query.slice(0, 40)}`, method, url: withQuery(query), headers: SPEC_HEADERS });
    }

    const payload = takesBody ? { payload: validJson } : {};
    for (const authorization of badAuthorizations) {
      cases.push({
        label: `authorization ${authorization.slice(0, 40)}`,
        method,
        url,
        headers: { ...SPEC_HEADERS, authorization },
        ...payload,
        signedIn: false,
        check: ({ status }) =>
          route.authenticated && status !== 401 ? `let a bad token through: ${status}` : undefined,
      });
    }
    if (headTwin) continue;

    for (const field of Object.keys(shapeOf(route.schema?.querystring) ?? {})) {
      for (const value of BAD_QUERY_VALUES) {
        add({
          label: `?${field}=${value.slice(0, 30)}`,
          method,
          url: withQuery(`${field}=${value}`),
          headers: SPEC_HEADERS,
        });
      }
      for (const query of [`${field}=1&${field}=2`, `${field}[]=1`, `${field}[x]=1`, field]) {
        add({ label: `?${query}`, method, url: withQuery(query), headers: SPEC_HEADERS });
      }
    }

    for (const [name, value] of BAD_HEADERS) {
      add({
        label: `header ${name}: ${value.slice(0, 30)}`,
        method,
        url,
        headers: { ...SPEC_HEADERS, [name]: value },
        ...payload,
      });
    }

    if (!takesBody) {
      add({ label: `a body on ${method}`, method, url, headers: SPEC_HEADERS, payload: '{"a":"\\u0000"}' });
      continue;
    }
    add({ label: 'a valid body', method, url, headers: SPEC_HEADERS, payload: validJson }, true);
    for (const [label, payload] of BAD_JSON_BODIES) add({ label, method, url, headers: SPEC_HEADERS, payload });
    for (const type of CONTENT_TYPES) {
      add({ label: `content type ${type}`, method, url, headers: { 'content-type': type }, payload: validJson });
    }
    if (!bodySample || typeof bodySample !== 'object') continue;
    const extra = { isAdmin: true, role: 'admin', balance: 1e9, id: 1, userId: randomUUID(), verified: true };
    add({
      label: 'extra fields',
      method,
      url,
      headers: SPEC_HEADERS,
      payload: JSON.stringify({ ...bodySample, ...extra }),
    });
    const paths = leafPaths(bodySample);
    for (const path of paths) {
      const field = path.join('.');
      add({
        label: `${field} left out`,
        method,
        url,
        headers: SPEC_HEADERS,
        payload: jsonWith(bodySample, path, undefined),
      });
      for (const raw of BAD_JSON_VALUES) {
        add({
          label: `${field} = ${raw.slice(0, 40)}`,
          method,
          url,
          headers: SPEC_HEADERS,
          payload: jsonWith(bodySample, path, raw),
        });
      }
    }
    for (const raw of ['"\\u0000"', '"\\ud800"', 'null', '[]', '1e308', '{}']) {
      const payload = paths.reduce((json, path) => jsonWith(JSON.parse(json), path, raw), JSON.stringify(bodySample));
      add({ label: `every field = ${raw}`, method, url, headers: SPEC_HEADERS, payload });
    }
  }

  // Wrong methods: every method the app has no route for at each path.
  const methodsByUrl = new Map<string, Set<string>>();
  for (const route of routes) methodsByUrl.set(route.url, (methodsByUrl.get(route.url) ?? new Set()).add(route.method));
  for (const [pattern, methods] of methodsByUrl) {
    const url = urlOf(routes.find((route) => route.url === pattern) as SweptRoute, context);
    for (const method of ALL_METHODS.filter((candidate) => !methods.has(candidate))) {
      const base = { label: 'a method the path does not take', method, url, headers: SPEC_HEADERS };
      const payload = BODY_METHODS.has(method) ? { payload: '{}' } : {};
      cases.push({ ...base, ...payload, signedIn: false }, { ...base, ...payload, signedIn: true });
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------------------------
// Running them

interface Outcome {
  requests: number;
  statuses: Record<string, number>;
  failures: string[];
  ms: number;
  slowest: { ms: number; where: string };
}

interface SweepSetup {
  app: App;
  database: TestDatabase;
  routes: SweptRoute[];
  context: SampleContext;
  userId: string;
  jwtSecret: string;
}

async function runSweep({ app, database, routes, context, userId, jwtSecret }: SweepSetup): Promise<Outcome> {
  const expiresAt = new Date(Date.now() + 3_600_000);
  const { id: revokedSession } = await database.prisma.session.create({
    data: { userId, expiresAt, revokedAt: new Date() },
    select: { id: true },
  });
  const revokedToken = app.signSessionToken({ userId, sessionId: revokedSession });
  const cases = buildCases(routes, context, badAuthorizations({ jwtSecret, userId, revokedToken }));

  // A fresh session for each signed-in request: a swept POST /logout must not sign out the rest. A
  // swept DELETE /profile that sends the right password deletes its account, so each of those has an
  // account of its own (the same password's hash).
  const signedIn = cases.filter((sweepCase) => sweepCase.signedIn);
  const deletesAccount = (sweepCase: SweepCase) =>
    sweepCase.method === 'DELETE' && sweepCase.url.split('?')[0] === '/api/profile';
  const { passwordHash } = await database.prisma.user.findUniqueOrThrow({ where: { id: userId } });
  const owners = signedIn.map((sweepCase) => (deletesAccount(sweepCase) ? randomUUID() : userId));
  await database.prisma.user.createMany({
    data: owners
      .filter((owner) => owner !== userId)
      .map((id) => ({ id, email: `sweep.${id}@example.com`, name: 'SweepOwn', passwordHash })),
  });
  const sessions = await database.prisma.session.createManyAndReturn({
    data: owners.map((owner) => ({ userId: owner, expiresAt })),
    select: { id: true, userId: true },
  });
  const tokenOf = new Map(
    signedIn.map((sweepCase, index) => {
      const session = sessions[index] as { id: string; userId: string };
      return [sweepCase, app.signSessionToken({ userId: session.userId, sessionId: session.id })];
    }),
  );

  const outcome: Outcome = { requests: 0, statuses: {}, failures: [], ms: 0, slowest: { ms: 0, where: '' } };
  const started = performance.now();
  let next = 0;
  let answered = 0;
  const waiting = new Set<{ since: number; sentAt: number; hang: () => void }>();
  const worker = async () => {
    for (;;) {
      // Requests reach a server through I/O, one event-loop turn each. An inject answered without
      // any (a validation error, a cached page, a PGlite query) would let this loop run on in
      // microtasks and starve the other workers' streams and timers, which would look like hangs.
      await new Promise((resolve) => setImmediate(resolve));
      const sweepCase = cases[next++];
      if (!sweepCase) return;
      const headers = { ...sweepCase.headers };
      if (sweepCase.signedIn) headers.authorization = `Bearer ${tokenOf.get(sweepCase)}`;
      const sent = performance.now();
      let timer: NodeJS.Timeout | undefined;
      let watch: { since: number; sentAt: number; hang: () => void } | undefined;
      const response = await Promise.race([
        app.inject({
          method: sweepCase.method as HTTPMethods,
          url: sweepCase.url,
          headers,
          ...(sweepCase.payload === undefined ? {} : { payload: sweepCase.payload }),
        }),
        new Promise<'hang'>((resolve) => {
          timer = setTimeout(() => resolve('hang'), HANG_MS);
          watch = { since: answered, sentAt: sent, hang: () => resolve('hang') };
          waiting.add(watch);
        }),
      ]);
      clearTimeout(timer);
      if (watch) waiting.delete(watch);
      answered += 1;
      const now = performance.now();
      for (const other of waiting) {
        if (answered - other.since >= HANG_AFTER_ANSWERS && now - other.sentAt >= HANG_MIN_MS) other.hang();
      }
      outcome.requests += 1;
      const where = `${sweepCase.method} ${sweepCase.url.slice(0, 100)} [${sweepCase.label}]${sweepCase.signedIn ? ' signed in' : ''}`;
      if (response === 'hang') {
        outcome.failures.push(`${where}: no answer after ${HANG_AFTER_ANSWERS} later requests or ${HANG_MS} ms`);
        continue;
      }
      const ms = Math.round(performance.now() - sent);
      if (ms > outcome.slowest.ms) outcome.slowest = { ms, where };
      const status = response.statusCode;
      outcome.statuses[status] = (outcome.statuses[status] ?? 0) + 1;
      const type = String(response.headers['content-type'] ?? '');
      for (const problem of problemsOf(sweepCase, status, type, response.body)) {
        outcome.failures.push(`${where}: ${problem}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  outcome.ms = Math.round(performance.now() - started);
  return outcome;
}

function problemsOf(sweepCase: SweepCase, status: number, type: string, body: string): string[] {
  const problems: string[] = [];
  if (status >= 500) problems.push(`answered ${status}: ${body.slice(0, 200)}`);
  const isJson = type.includes('json');
  if (isJson || type.startsWith('text/plain') || status >= 400) {
    const leak = INTERNALS.find((pattern) => pattern.test(body));
    if (leak) problems.push(`shows internals (${leak}): ${body.slice(0, 200)}`);
  }
  if (status >= 400 && status < 500 && sweepCase.method !== 'HEAD' && !isSandboxPage(sweepCase, type)) {
    const shape = errorShapeProblem(status, isJson, body);
    if (shape) problems.push(shape);
  }
  if (status < 500) {
    const problem = sweepCase.check?.({ status, body, signedIn: sweepCase.signedIn });
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * The embedded sandbox plays the payment provider, another party: its pages answer a browser's form
 * posts with HTML error pages and its CORS preflights with bare statuses, as a real provider's
 * would; the store's error shapes (docs/api.md, "Errors") are not theirs. Its JSON answers are still
 * held to them.
 */
function isSandboxPage(sweepCase: SweepCase, type: string): boolean {
  return sweepCase.url.startsWith(`${SANDBOX_PREFIX}/`) && !type.includes('json');
}

/** docs/api.md, "Errors": `{ message }`, and on a 422 `{ message, errors: { field: [key] } }`. */
function errorShapeProblem(status: number, isJson: boolean, body: string): string | undefined {
  if (!isJson) return `answered ${status} without a JSON body: ${body.slice(0, 100)}`;
  const parsed = JSON.parse(body) as { message?: unknown; errors?: unknown };
  if (typeof parsed.message !== 'string' || parsed.message === '') return `answered ${status} without a message`;
  if (status === 422) {
    const errors = parsed.errors as Record<string, unknown> | undefined;
    const wellFormed =
      typeof errors === 'object' &&
      errors !== null &&
      Object.keys(errors).length > 0 &&
      Object.values(errors).every((keys) => Array.isArray(keys) && keys.every((key) => typeof key === 'string'));
    if (!wellFormed) return `answered 422 without per-field errors: ${body.slice(0, 100)}`;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Both run modes

async function sweepMode(open: () => Promise<TestDatabase>) {
  const database = await open();
  await seedDemo(database.prisma, { cipher: createCodeCipher(devCodeKey()) });
  const errorLog: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      errorLog.push(String(chunk).slice(0, 500));
      done();
    },
  });
  const queue = createInProcessQueue(
    createJobHandlers({
      sql: database.sql,
      logger: silentLogger,
      mailer: createOutboxMailer(createDevMailbox(), silentLogger),
    }),
    silentLogger,
  );
  const registered: RouteOptions[] = [];
  const env = loadEnv({ NODE_ENV: 'test', WEB_DIST: '/nonexistent', RATE_LIMIT_SCALE: '100000' });
  const app = await buildApp({
    env,
    database,
    queue,
    // Only errors: the error handler logs every unexpected failure at this level.
    logger: { level: 'error', stream: logStream },
    onRoute: (route) => registered.push(route),
  });
  try {
    await app.ready();
    const routes = routeList(registered, app.authenticate);
    const { user } = await registerUser(app, { password: PASSWORD });
    const product = await database.prisma.product.findFirstOrThrow({
      where: { isActive: true },
      orderBy: { id: 'asc' },
    });
    const context = { productId: product.id, password: PASSWORD };
    const outcome = await runSweep({ app, database, routes, context, userId: user.id, jwtSecret: env.JWT_SECRET });
    return { outcome, errorLog, routes };
  } finally {
    await app.close();
    await queue.close();
    await database.cleanup();
  }
}

const MODES: Array<{ name: string; open: () => Promise<TestDatabase> }> = [
  { name: 'embedded PGlite', open: openPglite },
];
if (process.env.DATABASE_URL) MODES.unshift({ name: 'PostgreSQL', open: () => createTestDatabase() });
else process.stderr.write('\n*** DATABASE_URL is not set: the bad-input sweep runs on embedded PGlite only. ***\n\n');

async function openPglite(): Promise<TestDatabase> {
  const database = await createDatabase({ dataDir: 'memory://' });
  return { ...database, url: undefined, cleanup: () => database.close() };
}

describe('bad-input sweep of every route', () => {
  for (const mode of MODES) {
    it(`never answers 5xx, hangs or shows internals (${mode.name})`, { timeout: 300_000 }, async () => {
      const { outcome, errorLog, routes } = await sweepMode(mode.open);
      const statuses = Object.entries(outcome.statuses)
        .map(([status, count]) => `${status}:${count}`)
        .join(' ');
      console.log(
        `bad-input sweep (${mode.name}): ${outcome.requests} requests to ${routes.length} routes in ${outcome.ms} ms; ${outcome.failures.length} failures; statuses ${statuses}; slowest ${outcome.slowest.ms} ms: ${outcome.slowest.where}`,
      );

      // The routes come from the app itself; these prove the discovery works, not a hand list.
      const names = routes.map((route) => `${route.method} ${route.url}`);
      for (const known of [
        'POST /api/login',
        'POST /api/logout',
        'GET /api/categories/:id',
        'PATCH /api/password-reset/:token',
      ]) {
        expect(names).toContain(known);
      }
      expect(outcome.failures.slice(0, 40)).toEqual([]);
      expect(errorLog.slice(0, 5)).toEqual([]);
      expect(outcome.requests).toBeGreaterThan(routes.length * 50);
    });
  }
});
