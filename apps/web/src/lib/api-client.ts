import { MessageErrorSchema, ValidationErrorSchema } from '@store/contract';
import * as z from 'zod/mini';
import { rememberDisplayRate } from './display-rate.ts';
import { getToken } from './session-store.ts';

export const API_BASE = '/api';

/**
 * A non-2xx answer of the API, with the body in the error shapes of docs/api.md, "Errors", when it has
 * one.
 */
export class ApiError extends Error {
  readonly status: number;
  /** 422 only: field name to message keys. */
  readonly fieldErrors: Record<string, string[]>;
  /** The whole error body, for the few calls that answer more than the common shapes (a reason, a code). */
  readonly body: unknown;
  /** 429 only: seconds until the server takes the request again, from its Retry-After header. */
  readonly retryAfter: number | null;

  constructor(
    status: number,
    message: string,
    fieldErrors: Record<string, string[]> = {},
    body: unknown = null,
    retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.body = body;
    this.retryAfter = retryAfter;
  }
}

export const isNotFound = (error: unknown) => error instanceof ApiError && error.status === 404;

/** For a page whose address cannot name anything (a malformed id): shown as the 404 page. */
export const notFound = () => new ApiError(404, 'Not found');

/** Every call says it is XHR, and carries the bearer token when there is one (docs/api.md, "Conventions"). */
function headers(extra: Record<string, string> = {}): Record<string, string> {
  const token = getToken();
  return {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
    ...extra,
  };
}

export type QueryParams = Record<string, string | number | readonly string[] | undefined | null>;

/** Builds `?a=1&b=x,y`, leaving out unset values, as the original client sent filters only when set. */
export function toSearch(params: QueryParams = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) search.set(key, value.join(','));
    } else {
      search.set(key, String(value));
    }
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Encodes one path segment; search text may hold slashes, spaces and any script. */
export const segment = (value: string | number) => encodeURIComponent(String(value));

async function readError(response: Response): Promise<ApiError> {
  // Seconds; this API never sends the HTTP-date form, which (like no header) reads as unknown.
  const retryAfter = Number(response.headers.get('retry-after')) || null;
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page: keep the status, use the status text.
  }
  const validation = ValidationErrorSchema.safeParse(body);
  if (validation.success) {
    return new ApiError(response.status, validation.data.message, validation.data.errors, body, retryAfter);
  }
  const message = MessageErrorSchema.safeParse(body);
  const text = message.success ? message.data.message : response.statusText;
  return new ApiError(response.status, text, {}, body, retryAfter);
}

/**
 * GETs `path` under /api and parses the answer with the contract schema, so a drift between server and
 * client fails loudly at the boundary instead of as `undefined` deep in a component.
 */
export async function apiGet<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  options: { params?: QueryParams; signal?: AbortSignal } = {},
): Promise<z.output<S>> {
  const response = await fetch(`${API_BASE}${path}${toSearch(options.params)}`, {
    headers: headers(),
    signal: options.signal ?? null,
  });
  if (!response.ok) throw await readError(response);
  const data = z.parse(schema, await response.json());
  rememberDisplayRate(options.params?.lang, data);
  return data;
}

/** `keepalive` lets a request outlive the page (a flush as the tab closes). */
export interface SendOptions {
  keepalive?: boolean;
  signal?: AbortSignal;
}

/** POST, PATCH or DELETE with a JSON body; the answer is parsed with `schema`, or ignored without one. */
export async function apiSend<S extends z.core.$ZodType>(
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body: unknown,
  schema: S,
  options?: SendOptions,
): Promise<z.output<S>>;
export async function apiSend(method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<void>;
export async function apiSend(
  method: 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
  schema?: z.core.$ZodType,
  options: SendOptions = {},
): Promise<unknown> {
  const response = await fetch(`${API_BASE}${path}`, {
    method,
    headers: headers({ 'Content-Type': 'application/json' }),
    body: JSON.stringify(body ?? {}),
    ...(options.keepalive ? { keepalive: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (!response.ok) throw await readError(response);
  if (!schema) return undefined;
  return z.parse(schema, await response.json());
}
