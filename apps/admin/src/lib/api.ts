import { MessageErrorSchema, ValidationErrorSchema } from '@store/contract';
import * as z from 'zod/mini';
import { expire, getToken } from './session.ts';

export const ADMIN_API = '/api/admin';

/** A non-2xx answer of the admin API, in the error shapes of docs/api.md, "Errors". */
export class ApiError extends Error {
  readonly status: number;
  /** 422 only: field name to message keys. */
  readonly fieldErrors: Record<string, string[]>;
  /** The error's own code when the API names one (`totp_invalid`, `refund_exceeds_paid`, …). */
  readonly code: string | null;
  /** 429 and 503: seconds until the server takes the request again. */
  readonly retryAfter: number | null;

  constructor(
    status: number,
    message: string,
    fieldErrors: Record<string, string[]> = {},
    code: string | null = null,
    retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.fieldErrors = fieldErrors;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export type QueryParams = Record<string, string | number | boolean | undefined | null>;

/** `?a=1&b=x`, leaving out unset values. */
export function toSearch(params: QueryParams = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const segment = (value: string | number) => encodeURIComponent(String(value));

export async function readError(response: Response): Promise<ApiError> {
  const retryAfter = Number(response.headers.get('retry-after')) || null;
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // A proxy's HTML error page: the status says enough.
  }
  const validation = ValidationErrorSchema.safeParse(body);
  if (validation.success) {
    return new ApiError(response.status, validation.data.message, validation.data.errors, null, retryAfter);
  }
  const message = MessageErrorSchema.safeParse(body);
  return message.success
    ? new ApiError(response.status, message.data.message, {}, message.data.code ?? null, retryAfter)
    : new ApiError(response.status, response.statusText, {}, null, retryAfter);
}

function headers(json: boolean): Record<string, string> {
  const token = getToken();
  return {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
    ...(json ? { 'Content-Type': 'application/json' } : {}),
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

async function send(path: string, init: RequestInit, signedIn: boolean): Promise<Response> {
  const response = await fetch(`${ADMIN_API}${path}`, init);
  if (!response.ok) {
    const error = await readError(response);
    // A refused staff token (expired, revoked, staff member disabled): back to sign-in, saying so.
    if (error.status === 401 && signedIn) expire();
    throw error;
  }
  return response;
}

/** GETs `path` under /api/admin and parses the answer with the contract's schema. */
export async function adminGet<S extends z.core.$ZodType>(
  path: string,
  schema: S,
  options: { params?: QueryParams; signal?: AbortSignal } = {},
): Promise<z.output<S>> {
  const response = await send(
    `${path}${toSearch(options.params)}`,
    { headers: headers(false), signal: options.signal ?? null },
    getToken() !== null,
  );
  return z.parse(schema, await response.json());
}

/** POST, PATCH or DELETE with a JSON body; the answer is parsed with `schema`, or ignored without one. */
export async function adminSend<S extends z.core.$ZodType>(
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body: unknown,
  schema?: S,
): Promise<z.output<S>> {
  const response = await send(
    path,
    { method, headers: headers(body !== undefined), body: body === undefined ? null : JSON.stringify(body) },
    getToken() !== null,
  );
  if (!schema || response.status === 204) return undefined as z.output<S>;
  return z.parse(schema, await response.json());
}

/** A file answer (the CSV export): fetched with the token, then handed to the browser to save. */
export async function adminDownload(path: string, params: QueryParams, fileName: string): Promise<void> {
  const response = await send(`${path}${toSearch(params)}`, { headers: headers(false) }, getToken() !== null);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
