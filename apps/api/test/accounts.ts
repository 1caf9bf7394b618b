import { createHmac, randomBytes } from 'node:crypto';
import { type EmailTemplate, type User, ValidationErrorSchema } from '@store/contract';
import type { DevMailbox } from '@store/core';
import type { PrismaClient } from '@store/db';
import { expect } from 'vitest';
import type { App } from '../src/app.ts';

export interface CallOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** One JSON call as the web app makes it, with its headers (docs/api.md, "Conventions"). */
export async function call(
  app: App,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: CallOptions = {},
) {
  const response = await app.inject({
    method,
    url,
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    ...(options.body === undefined
      ? {}
      : { payload: typeof options.body === 'string' ? options.body : JSON.stringify(options.body) }),
  });
  const body = response.body ? response.json() : undefined;
  return { status: response.statusCode, body, headers: response.headers };
}

let counter = 0;

/** A name and address no other test of this run uses. */
export function uniqueCustomer() {
  counter += 1;
  const tag = `${randomBytes(3).toString('hex')}${counter}`;
  return { name: `User${tag}`.slice(0, 16), email: `customer.${tag}@example.com` };
}

export const PASSWORD = 'Secret123';

export async function registerUser(app: App, overrides: { name?: string; email?: string; password?: string } = {}) {
  const customer = { ...uniqueCustomer(), ...overrides };
  const password = overrides.password ?? PASSWORD;
  const { status, body } = await call(app, 'POST', '/api/register', {
    body: { ...customer, password, password_confirmation: password },
  });
  if (status !== 201) throw new Error(`register failed: ${status} ${JSON.stringify(body)}`);
  return { token: body.token as string, user: body.user as User, email: customer.email, password };
}

/**
 * The token of the newest email of this template to this address, read from the outbox row as the
 * mailer would read it. Where jobs run in the process the email may already be sent, and a sent row
 * keeps no link: then the link is read from the message the mailer delivered into `mailbox`.
 */
export async function emailedToken(
  db: PrismaClient,
  to: string,
  template: EmailTemplate,
  mailbox?: Pick<DevMailbox, 'get'>,
) {
  const row = await db.outboundEmail.findFirst({
    where: { toAddress: to, template },
    orderBy: { createdAt: 'desc' },
  });
  if (!row) throw new Error(`no ${template} email to ${to}`);
  const stored = (row.data as { link?: string }).link;
  const link = stored ?? LINK.exec(mailbox?.get(row.id)?.text ?? '')?.[0];
  const token = link && /([A-Za-z0-9_-]{43})$/.exec(link)?.[1];
  if (!link || !token) throw new Error(`no token in the ${template} email to ${to}`);
  return { token, link, row };
}

/** A link in a message's text that ends with a token of 43 base64url characters. */
const LINK = /https?:\/\/[^\s"<>]+\/[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/;

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A hand-made HS256 token, to try what the server must refuse (other key, issuer, expiry...). */
export function handMadeJwt(
  secret: string,
  claims: Record<string, unknown>,
  header: object = { alg: 'HS256', typ: 'JWT' },
) {
  const signingInput = `${base64url(header)}.${base64url(claims)}`;
  const signature = createHmac('sha256', secret).update(signingInput).digest('base64url');
  return `${signingInput}.${signature}`;
}

/** A 422 in the shape of docs/api.md, "Errors", with this key among the field's errors. */
export function expectFieldError(response: { status: number; body: unknown }, field: string, key: string) {
  expect(response.status).toBe(422);
  const body = ValidationErrorSchema.parse(response.body);
  expect(body.errors[field]).toContain(key);
}
