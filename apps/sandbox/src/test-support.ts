import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandboxPaymentProvider, type SandboxPaymentProvider } from '@store/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { DEV_SANDBOX_API_KEY } from './dev-secrets.ts';
import type { SandboxOptions } from './options.ts';
import { sandboxPlugin } from './plugin.ts';

// Helpers for the sandbox's tests (not part of the plugin): an app built around it, a fetch that
// reaches it through `inject`, and a real HTTP receiver for its callbacks.

export const STORE_ORIGIN = 'http://store.test';
export const PUBLIC_URL = 'http://sandbox.test/sandbox';
export const API_KEY = DEV_SANDBOX_API_KEY;

export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface TestSandbox {
  app: FastifyInstance;
  options: SandboxOptions;
  /** A fetch for the store's adapter: absolute sandbox URLs answered by `app.inject`. */
  fetch: typeof fetch;
  logs: string[];
  close(): Promise<void>;
}

export async function buildSandbox(overrides: Partial<SandboxOptions> = {}): Promise<TestSandbox> {
  const logs: string[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => logs.push(line) } },
  });
  const options: SandboxOptions = {
    publicUrl: PUBLIC_URL,
    apiKey: API_KEY,
    webhookSecrets: [newSecret()],
    storeOrigins: [STORE_ORIGIN],
    widgetCallbackUrl: 'http://127.0.0.1:9/unused',
    delivery: { baseDelayMs: 20, maxDelayMs: 200, maxAttempts: 5, timeoutMs: 2_000 },
    ...overrides,
  };
  await app.register(sandboxPlugin, { prefix: '/sandbox', ...options });
  await app.ready();
  const injectFetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    const response = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: init?.headers as Record<string, string>,
      payload: init?.body as string | undefined,
    });
    return new Response(response.statusCode === 204 ? null : response.body, {
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
    });
  };
  return { app, options, fetch: injectFetch, logs, close: () => app.close() };
}

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Receiver {
  url: string;
  received: ReceivedCallback[];
  /** The status to answer the nth request (0-based) with; 200 by default. */
  respondWith(status: (index: number) => number): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedCallback[]>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 and a random port, recording every callback it gets. */
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedCallback[] = [];
  let statusFor = (_index: number) => 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const index = received.length;
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      response.statusCode = statusFor(index);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    received,
    respondWith(status) {
      statusFor = status;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const start = Date.now();
      while (received.length < count) {
        if (Date.now() - start > timeoutMs) throw new Error(`expected ${count} callbacks, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The hidden inputs and action of the first form of a page. */
export function firstForm(html: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no form on the page');
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[input[1] ?? ''] = decodeEntities(input[2] ?? '');
  }
  return { action: decodeEntities(form[1] ?? ''), fields };
}

export function decodeEntities(text: string): string {
  return text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
}

/** The `lang` of a page's `<html>`. */
export function htmlLang(html: string): string | undefined {
  return /<html lang="([^"]*)">/.exec(html)?.[1];
}

/** The text of a page's first `<h1>`. */
export function heading(html: string): string | undefined {
  return /<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1];
}

/** POST /api/v1/payments as the store's server calls it, for fields the store's adapter does not send. */
export function createViaApi(sandbox: TestSandbox, body: Record<string, unknown>) {
  return sandbox.app.inject({
    method: 'POST',
    url: '/sandbox/api/v1/payments',
    headers: { authorization: `Bearer ${API_KEY}` },
    payload: body,
  });
}

/** The path of an absolute sandbox URL, for `inject`. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

export const form = (fields: Record<string, string>, headers: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  payload: new URLSearchParams(fields).toString(),
});

/** The store's adapter over `sandbox`, sending its payments' callbacks to `receiver`. */
export function providerFor(sandbox: TestSandbox, receiver: Receiver): SandboxPaymentProvider {
  return createSandboxPaymentProvider({
    apiUrl: PUBLIC_URL,
    publicUrl: PUBLIC_URL,
    apiKey: API_KEY,
    webhookSecrets: sandbox.options.webhookSecrets,
    callbackUrl: receiver.url,
    fetch: sandbox.fetch,
  });
}

/** A callback receiver, a sandbox and the store's adapter over both, for one test file. */
export async function startSandboxWithProvider() {
  const receiver = await startReceiver();
  const sandbox = await buildSandbox();
  return {
    receiver,
    sandbox,
    provider: providerFor(sandbox, receiver),
    async close() {
      await sandbox.close();
      await receiver.close();
    },
  };
}
