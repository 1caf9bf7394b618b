/**
 * The sandbox's harness for the provider contract suite: the real sandbox (apps/sandbox) served on
 * a loopback port, the store's sandbox adapter pointed at it, and a loopback receiver for its
 * callbacks. The customer's part is played on the sandbox's own pages: the 3-D Secure challenge and
 * the bank's confirm page behind a QR code.
 *
 * The suite runs in BRL, on the card and PIX: the sandbox charges UPI only in INR, and its widget
 * and hosted page are forms a browser fills (their end-to-end tests cover them).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { Webhook } from 'standardwebhooks';
// The sandbox is an app of this repository, not a dependency of core: its plugin is served here
// from its source, as the store's API mounts it.
import { sandboxPlugin } from '../../../../../apps/sandbox/src/plugin.ts';
import type { CreatePaymentRequest, PaymentResultByMethod, ProviderPaymentMethod } from '../provider.ts';
import { createSandboxPaymentProvider } from '../sandbox-provider.ts';
import type { CallbackDelivery, CustomerOutcome, ProviderContractHarness } from './harness.ts';

/** The sandbox's test card that asks for a 3-D Secure challenge: the customer's answer decides it. */
const CHALLENGE_CARD = '4000000000003220';
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

interface Received {
  rawBody: string;
  headers: IncomingHttpHeaders;
}

/** The hidden inputs and action of the first form of a page. */
function firstForm(html: string): { action: string; fields: Record<string, string> } {
  const decode = (text: string) =>
    text
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error('no form on the page');
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[input[1] ?? ''] = decode(input[2] ?? '');
  }
  return { action: decode(form[1] ?? ''), fields };
}

async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
}

export async function createSandboxHarness(): Promise<ProviderContractHarness> {
  const received: Received[] = [];
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ rawBody: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.statusCode = 200;
      response.setHeader('content-type', 'application/json');
      response.end('{"received":true,"duplicate":false}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const storeUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const callbackUrl = `${storeUrl}/api/payments/callback/sandbox`;

  const apiKey = randomBytes(24).toString('hex');
  const webhookSecrets = [newSecret()];
  const app = Fastify({ logger: false });
  // The prefix's URL is known once the port is: the plugin reads it per request.
  const options = {
    publicUrl: '',
    apiKey,
    webhookSecrets,
    storeOrigins: [storeUrl],
    widgetCallbackUrl: callbackUrl,
    delivery: { baseDelayMs: 10, maxDelayMs: 50, maxAttempts: 3, timeoutMs: 2_000 },
  };
  const address = await (async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app.server.address() as AddressInfo;
  })().catch(async (error: unknown) => {
    receiver.close();
    throw error;
  });
  await app.close();
  // Listening first tells the port; the sandbox is then registered on a fresh app at that port.
  const sandboxUrl = `http://127.0.0.1:${address.port}/sandbox`;
  const sandbox = Fastify({ logger: false });
  await sandbox.register(sandboxPlugin, { prefix: '/sandbox', ...options, publicUrl: sandboxUrl });
  await sandbox.listen({ port: address.port, host: '127.0.0.1' });

  const provider = createSandboxPaymentProvider({
    apiUrl: sandboxUrl,
    publicUrl: sandboxUrl,
    apiKey,
    webhookSecrets,
    callbackUrl,
  });

  /** Every callback the sandbox has to send is sent (or given up). */
  async function deliveriesSettled(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const response = await fetch(`${sandboxUrl}/admin/deliveries`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      const { deliveries } = (await response.json()) as { deliveries: Array<{ state: string }> };
      if (deliveries.every((delivery) => delivery.state !== 'pending')) return;
      if (Date.now() > deadline) throw new Error('the sandbox still has callbacks to send after 10 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async function challenge(created: PaymentResultByMethod['card'], outcome: CustomerOutcome) {
    if (created.outcome.status !== '3DS')
      throw new Error(`expected a 3-D Secure challenge, got ${created.outcome.status}`);
    const { redirectUrl, PaReq, MD, TermUrl } = created.outcome;
    const acs = await postForm(redirectUrl, { PaReq, MD, TermUrl });
    const asked = firstForm(await acs.text());
    const answered = await postForm(asked.action, {
      ...asked.fields,
      outcome: outcome === 'succeed' ? 'pass' : 'fail',
    });
    if (answered.status !== 200) throw new Error(`the challenge answered ${answered.status}`);
    const term = firstForm(await answered.text());
    const done = await postForm(term.action, term.fields);
    if (done.status !== 303) throw new Error(`the 3-D Secure return answered ${done.status}`);
  }

  return {
    name: 'sandbox',
    provider,
    methods: ['card', 'qr'],
    currency: 'BRL',
    request<M extends ProviderPaymentMethod>(
      method: M,
      { orderId, amountMinor }: { orderId: string; amountMinor: number; threeDs?: boolean },
    ): Extract<CreatePaymentRequest, { method: M }> {
      const base = { orderId, amountMinor, currency: 'BRL', description: `Order ${orderId}` };
      const returnUrl = `${storeUrl}/?paymentConfirmOrder=${orderId}`;
      const key = `${orderId}-${randomBytes(6).toString('hex')}`;
      let request: CreatePaymentRequest;
      switch (method) {
        case 'card':
          // Every card payment here is challenged: the customer's answer, not the card, decides it.
          request = {
            ...base,
            method: 'card',
            card: { number: CHALLENGE_CARD, expMonth: 12, expYear: 2099, cvc: '123' },
            browser: { ip: '203.0.113.7' },
            returnUrl,
            idempotencyKey: key,
          };
          break;
        case 'qr':
          request = { ...base, method: 'qr', scheme: 'pix', returnUrl, idempotencyKey: key };
          break;
        default:
          throw new Error(`the sandbox harness does not play ${method}`);
      }
      return request as Extract<CreatePaymentRequest, { method: M }>;
    },
    async completeAsCustomer(method, created, outcome) {
      if (method === 'card') {
        await challenge(created as PaymentResultByMethod['card'], outcome);
      } else if (method === 'qr') {
        const qr = created as PaymentResultByMethod['qr'];
        const page = await postForm(qr.payLink, { decision: outcome === 'succeed' ? 'confirm' : 'refuse' });
        if (page.status !== 200) throw new Error(`the bank's page answered ${page.status}`);
      } else {
        throw new Error(`the sandbox harness does not play ${method}`);
      }
      const id = created.providerPaymentId;
      if (!id) throw new Error(`${method} has no provider payment id`);
      return id;
    },
    async callbacks(providerPaymentId) {
      await deliveriesSettled();
      return received
        .filter(
          (callback) => (JSON.parse(callback.rawBody) as { data?: { id?: string } }).data?.id === providerPaymentId,
        )
        .map((callback) => ({ rawBody: callback.rawBody, headers: { ...callback.headers } }));
    },
    signWithWrongSecret(delivery: CallbackDelivery): CallbackDelivery {
      const id = String(delivery.headers['webhook-id']);
      const at = new Date(Number(delivery.headers['webhook-timestamp']) * 1000);
      return {
        rawBody: delivery.rawBody,
        headers: { ...delivery.headers, 'webhook-signature': new Webhook(newSecret()).sign(id, at, delivery.rawBody) },
      };
    },
    async close() {
      await sandbox.close();
      await new Promise<void>((resolve) => {
        receiver.closeAllConnections();
        receiver.close(() => resolve());
      });
    },
  };
}
