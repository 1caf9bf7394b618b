import { randomUUID } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { JWT_AUDIENCE, JWT_ISSUER } from '../src/plugins/auth.ts';
import { handMadeJwt } from './accounts.ts';

// The bad-input sweep's generators: what to send to a route, derived from the route as the app
// registered it (method, URL, zod schemas) and mixed with values that are bad for any route.

/** One request of the sweep, and what it must show besides "no 5xx, no hang, no stack trace". */
export interface SweepCase {
  /** What the case tries, for the failure report. */
  label: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  /** Send it with a valid bearer token of a real user (a fresh session each time). */
  signedIn: boolean;
  /** A further check of the answer: a problem description, or undefined when it is fine. */
  check?: (response: { status: number; body: string; signedIn: boolean }) => string | undefined;
}

/** A route as the app registered it. */
export interface SweptRoute {
  method: string;
  url: string;
  schema?: { body?: unknown; querystring?: unknown; params?: unknown };
  /** It runs the app's authenticate hook, or its OpenAPI entry says it wants a bearer token. */
  authenticated: boolean;
  /**
   * A console route (/api/admin/*): its token is a staff member's, so the customer's token the sweep
   * signs in with is refused there (401), as it must be; the console's routes test their own input.
   */
  staffOnly: boolean;
}

/** One entry per method and URL, from what the app's onRoute hook saw. */
export function routeList(routes: RouteOptions[], authenticate: unknown): SweptRoute[] {
  const seen = new Map<string, SweptRoute>();
  for (const route of routes) {
    const authenticated =
      [route.onRequest ?? []].flat().includes(authenticate as never) ||
      Boolean(route.schema && 'security' in route.schema);
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      const schema = route.schema as SweptRoute['schema'];
      const staffOnly = route.url.startsWith('/api/admin/');
      if (!seen.has(key)) seen.set(key, { method, url: route.url, schema, authenticated, staffOnly });
    }
  }
  return [...seen.values()].sort((a, b) => `${a.url} ${a.method}`.localeCompare(`${b.url} ${b.method}`));
}

// ---------------------------------------------------------------------------------------------
// Reading zod schemas (classic and mini share zod's core: `_zod.def` and Standard Schema's validate).

interface ZodDef {
  type: string;
  shape?: Record<string, unknown>;
  in?: unknown;
  out?: unknown;
  innerType?: unknown;
  element?: unknown;
  options?: unknown[];
  entries?: Record<string, string | number>;
  values?: unknown[];
}

const defOf = (schema: unknown): ZodDef | undefined => (schema as { _zod?: { def?: ZodDef } } | undefined)?._zod?.def;

/** The fields of an object schema, through pipes, optionals and defaults. */
export function shapeOf(schema: unknown): Record<string, unknown> | undefined {
  const def = defOf(schema);
  switch (def?.type) {
    case 'object':
      return def.shape;
    case 'pipe':
      return shapeOf(def.in);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      return shapeOf(def.innerType);
    default:
      return undefined;
  }
}

/** Whether the schema takes the value as it is. */
export function accepts(schema: unknown, value: unknown): boolean {
  const standard = (schema as { '~standard'?: { validate(value: unknown): unknown } } | undefined)?.['~standard'];
  if (!standard) return true;
  const result = standard.validate(value) as { issues?: unknown } | Promise<unknown>;
  return !(result instanceof Promise) && !result.issues;
}

/** The enum options and literals a schema names, the likeliest valid values of a field. */
function namedValues(schema: unknown, depth = 0): unknown[] {
  const def = defOf(schema);
  if (!def || depth > 6) return [];
  if (def.type === 'enum' && def.entries) return Object.values(def.entries);
  if (def.type === 'literal' && def.values) return def.values;
  const inner = [def.in, def.out, def.innerType, ...(def.options ?? [])].filter(Boolean);
  return inner.flatMap((schema) => namedValues(schema, depth + 1));
}

/** Values of the store that many fields take: the first one a field accepts is its valid sample. */
export interface SampleContext {
  productId: number;
  password: string;
}

function candidates(context: SampleContext): unknown[] {
  return [
    context.password,
    'sweep.user@example.com',
    'SweepUser1',
    'A'.repeat(43),
    '0b6f3c1e-7a53-4c43-9e0f-6f1f2b4f9d21',
    'steam',
    'A fine card that arrived at once.',
    context.productId,
    5,
    1,
    String(context.productId),
    '1',
    true,
  ];
}

/**
 * A value the schema accepts, built from its shape (objects field by field, arrays of one element)
 * or picked from the context's candidates; optional fields are left out when nothing fits.
 */
export function sampleOf(schema: unknown, context: SampleContext, depth = 0): unknown {
  const def = defOf(schema);
  const shape = shapeOf(schema);
  if (shape && depth < 4) {
    const sample: Record<string, unknown> = {};
    for (const [field, fieldSchema] of Object.entries(shape)) {
      const value = sampleOf(fieldSchema, context, depth + 1);
      if (value !== undefined) sample[field] = value;
    }
    return sample;
  }
  if (def?.type === 'array' && depth < 4) return [sampleOf(def.element, context, depth + 1)];
  const fits = [...namedValues(schema), ...candidates(context)].find((value) => accepts(schema, value));
  if (fits !== undefined) return fits;
  return accepts(schema, undefined) ? undefined : candidates(context)[0];
}

/** Dotted paths to the leaves of a sample (`products.0.id`), where bad values are put. */
export function leafPaths(value: unknown, path: string[] = []): string[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leafPaths(item, [...path, String(index)]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...path, key]));
  }
  return path.length > 0 ? [path] : [];
}

const PLACEHOLDER = 'sweep-placeholder-7f3a9c';

/** The sample as JSON text, with the value at `path` replaced by raw JSON text (or left out). */
export function jsonWith(sample: unknown, path: string[], raw: string | undefined): string {
  const copy = structuredClone(sample) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = path[path.length - 1] as string;
  if (raw === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
    return JSON.stringify(copy);
  }
  node[last] = PLACEHOLDER;
  return JSON.stringify(copy).replace(`"${PLACEHOLDER}"`, () => raw);
}

// ---------------------------------------------------------------------------------------------
// Bad values

const nested = (depth: number, open: string, close: string, inner = '1') =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

/** Raw JSON text put in place of one field: wrong types, bad text, odd numbers, hostile objects. */
export const BAD_JSON_VALUES: string[] = [
  '"\\u0000"',
  '"a\\u0000b"',
  '"\\ud800"',
  '"x\\udc00y"',
  '"\\u001b[2J"',
  '"\\u007f\\u0085"',
  '"\\u202eevil"',
  '"zero\\u200bwidth"',
  '"😀"',
  '""',
  JSON.stringify('x'.repeat(10_000)),
  '-1',
  '0',
  '1.5',
  '1e308',
  '1e999',
  '9007199254740993',
  '2147483648',
  '"1"',
  '"1.5"',
  '"1e3"',
  '"NaN"',
  'true',
  '[]',
  '{}',
  '{"$gt":""}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  nested(2_000, '[', ']'),
  nested(1_000, '{"a":', '}'),
];

/** Whole bodies sent with a JSON content type, whatever the route expects. */
export const BAD_JSON_BODIES: Array<[string, string | Buffer]> = [
  ['not JSON', 'this is not json'],
  ['truncated JSON', '{"a":'],
  ['a lone brace', '{'],
  ['trailing garbage', '{}x'],
  ['single quotes', "{'a':1}"],
  ['NaN', 'NaN'],
  ['an empty array', '[]'],
  ['an array of objects', '[{},{}]'],
  ['a string', '"text"'],
  ['a number', '42'],
  ['a huge number', '1e999'],
  ['true', 'true'],
  ['null', 'null'],
  ['an empty object', '{}'],
  ['a byte-order mark', '\uFEFF{}'],
  ['arrays nested 10,000 deep', nested(10_000, '[', ']')],
  ['objects nested 5,000 deep', nested(5_000, '{"a":', '}')],
  ['5,000 keys', JSON.stringify(Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])))],
  ['a string of 60,000 characters', JSON.stringify({ a: 'x'.repeat(60_000) })],
  ['over the body limit', JSON.stringify({ a: 'x'.repeat(70_000) })],
  ['a duplicated key', '{"a":1,"a":2}'],
  ['__proto__ at the top', '{"__proto__":{"polluted":true}}'],
  ['constructor.prototype at the top', '{"constructor":{"prototype":{"polluted":true}}}'],
  ['a NUL key', '{"\\u0000":1}'],
  ['a lone surrogate key', '{"\\ud800":1}'],
  ['NUL and a lone surrogate in values', '{"a":"\\u0000","b":"\\udfff","c":["\\u0000"]}'],
  ['bytes that are not UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d])],
  ['a raw NUL byte', Buffer.from('{"a":"x\u0000y"}')],
];

/** Content types of a request with a body, each sent with a JSON object. */
export const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=sweep',
  'application/xml',
  'application/octet-stream',
  'application/vnd.api+json',
  'application/jsonx',
  'application/json; charset=utf-16',
  'application/json; charset=nonsense',
  'application/json;charset=UTF-8',
  'application/json; charset="utf-8"',
  'APPLICATION/JSON',
  'application/json, text/plain',
  '*/*',
  'nonsense',
];

/** Path parameter values, written as they appear in the URL. */
export const BAD_PATH_VALUES = [
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  '%',
  '%2e%2e',
  '%2F',
  'a%2Fb',
  '%20',
  '%0D%0Aset-cookie:x',
  '%1B',
  '-1',
  '0',
  '1.5',
  '99999999999999999999',
  'NaN',
  '%201',
  '__proto__',
  'constructor',
  'null',
  '%3Cscript%3E',
  "'%20OR%201=1--",
  '%F0%9F%98%80',
  '%E2%80%AE',
  '%D0%96'.repeat(300),
  'x'.repeat(2_049),
];

/** Query values of one field, as they appear in the URL. */
export const BAD_QUERY_VALUES = [
  '',
  '%00',
  'a%00b',
  '%E0%A4%A',
  '%ED%A0%80',
  '%',
  '%1B',
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  'NaN',
  'Infinity',
  'true',
  '%5B%5D',
  '%F0%9F%98%80',
  'x'.repeat(600),
  `${'AB,'.repeat(300)}`,
];

/** Whole query strings, appended to any route. */
export const BAD_QUERIES = [
  'a=1&a=2',
  'a[]=1&a[]=2',
  'a[b]=1',
  'a.b=1',
  `${'x=1&'.repeat(2_000)}`,
  `q=${'x'.repeat(8_000)}`,
  '%00=1',
  'a=%00',
  'a=%E0%A4%A',
  'a=%',
  '__proto__=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  '&&&',
  '=',
  '?',
  'page=1&page=2&sort=popular&sort=sale',
];

/** Headers with odd or outsized values, each sent on its own. */
export const BAD_HEADERS: Array<[string, string]> = [
  ['x-requested-with', 'x'.repeat(16_000)],
  ['user-agent', 'x'.repeat(16_000)],
  ['user-agent', 'Mozilla/5.0 \u00ff\u00fe'],
  ['accept', 'application/xml'],
  ['accept', '*/*;q=nonsense, text/html;q=2'],
  ['accept-encoding', 'br;q=abc, gzip;q=2, *;q=-1'],
  ['accept-encoding', 'identity;q=0, *;q=0'],
  ['accept-language', 'x'.repeat(4_000)],
  ['x-forwarded-for', 'junk, 999.1.1.1, ::ffff:bad'],
  ['x-request-id', 'x'.repeat(4_000)],
  ['origin', 'https://evil.example'],
  ['host', 'evil.example'],
  ['host', ''],
  ['range', 'bytes=abc-'],
  ['range', 'bytes=0-1,2-3,4-5'],
  ['if-none-match', '*'],
  ['if-modified-since', 'not a date'],
  ['expect', '100-continue'],
  ['content-encoding', 'identity'],
  ['content-type', 'application/json; charset=utf-16'],
];

/**
 * Authorization values that must not sign anyone in: malformed, forged (another key, `alg: none`),
 * expired, for another issuer, a user or session that does not exist, a revoked session, other schemes.
 */
export function badAuthorizations(options: { jwtSecret: string; userId: string; revokedToken: string }): string[] {
  const { jwtSecret, userId, revokedToken } = options;
  const claims = (extra: object) => ({
    sub: userId,
    sid: randomUUID(),
    iss: JWT_ISSUER,
    aud: JWT_AUDIENCE,
    exp: Math.floor(Date.now() / 1000) + 3_600,
    ...extra,
  });
  return [
    'Bearer',
    'Bearer ',
    'Bearer x.y.z',
    'Bearer a.b',
    'Bearer eyJhbGciOiJIUzI1NiJ9.e30.',
    `Bearer ${handMadeJwt('another-secret-of-at-least-32-characters!', claims({}))}`,
    `Bearer ${handMadeJwt('', claims({}), { alg: 'none', typ: 'JWT' })}`,
    `Bearer ${handMadeJwt(jwtSecret, claims({ exp: 1 }))}`,
    `Bearer ${handMadeJwt(jwtSecret, claims({ iss: 'someone-else' }))}`,
    `Bearer ${handMadeJwt(jwtSecret, claims({ sid: 'not-a-uuid' }))}`,
    `Bearer ${handMadeJwt(jwtSecret, claims({ sub: randomUUID() }))}`,
    `Bearer ${handMadeJwt(jwtSecret, claims({ sub: { $ne: null }, sid: ['x'] }))}`,
    `Bearer ${revokedToken}`,
    `Bearer ${revokedToken} ${revokedToken}`,
    `Basic ${Buffer.from('user:pass').toString('base64')}`,
    'Token abc',
    `Bearer ${'a'.repeat(8_000)}`,
    'Bearer \u00ff\u00fe',
  ];
}
