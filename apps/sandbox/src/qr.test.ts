import { type PaymentProvider, type QrPaymentRequest, ValidationError } from '@store/core';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MERCHANT, DEFAULT_PAYMENT_TTL_MS } from './options.ts';
import {
  buildSandbox,
  createViaApi,
  form,
  heading,
  htmlLang,
  PUBLIC_URL,
  pathOf,
  providerFor,
  type Receiver,
  STORE_ORIGIN,
  startSandboxWithProvider,
  type TestSandbox,
} from './test-support.ts';

/**
 * CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF), as the BR Code manual defines field 63.
 * Written here only to check the sandbox's codes independently of the library that makes them, and
 * itself checked against the manual's published example first.
 */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** EMV TLV: two-digit id, two-digit length, value. */
function tlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    fields.set(id, text.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  expect(at).toBe(text.length);
  return fields;
}

/** The example static PIX code of the Banco Central's "Manual de Padrões para Iniciação do Pix". */
const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
  '5913Fulano de Tal6008BRASILIA62070503***63041D3D';

function decodeQr(base64Png: string): string | undefined {
  const png = PNG.sync.read(Buffer.from(base64Png, 'base64'));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}

let sandbox: TestSandbox;
let receiver: Receiver;
let provider: PaymentProvider;
let key = 0;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ sandbox, receiver, provider, close } = await startSandboxWithProvider());
});

afterAll(() => close());

const createQr = (overrides: Partial<QrPaymentRequest> = {}) =>
  provider.createPayment({
    method: 'qr',
    scheme: 'pix',
    orderId: `order-q${++key}`,
    amountMinor: 12_345,
    currency: 'BRL',
    description: 'Steam gift card',
    payer: { personalId: '12345678909', firstName: 'Ana' },
    returnUrl: `${STORE_ORIGIN}/?paymentConfirmOrder=order-q${key}`,
    idempotencyKey: `qr-${key}`,
    ...overrides,
  });

describe('PIX BR Code', () => {
  it('the CRC check reproduces the published example', () => {
    expect(crc16(BCB_EXAMPLE.slice(0, -4))).toBe('1D3D');
    expect(tlv(BCB_EXAMPLE).get('63')).toBe('1D3D');
  });

  it('is a merchant-presented EMV code with the amount, the key, the txid and a valid CRC', async () => {
    const qr = await createQr();
    const fields = tlv(qr.payload);
    expect(fields.get('00')).toBe('01');
    const account = tlv(fields.get('26') ?? '');
    expect(account.get('00')).toBe('br.gov.bcb.pix');
    expect(account.get('01')).toBe(DEFAULT_MERCHANT.pixKey);
    expect(fields.get('52')).toBe('0000');
    expect(fields.get('53')).toBe('986');
    expect(fields.get('54')).toBe('123.45');
    expect(fields.get('58')).toBe('BR');
    expect(fields.get('59')).toBe(DEFAULT_MERCHANT.name);
    expect(fields.get('60')).toBe(DEFAULT_MERCHANT.city);
    const txid = tlv(fields.get('62') ?? '').get('05');
    expect(txid).toMatch(/^[0-9a-f]{24}$/);
    expect(qr.providerPaymentId).toContain(txid);
    expect(qr.payload.slice(-8, -4)).toBe('6304');
    expect(fields.get('63')).toBe(crc16(qr.payload.slice(0, -4)));
  });

  it('comes as a PNG whose QR code decodes to the payload', async () => {
    const qr = await createQr();
    expect(qr.image.media_type).toBe('image/png');
    expect(decodeQr(qr.image.content)).toBe(qr.payload);
    expect(qr.payLink).toBe(`${PUBLIC_URL}/qr/${qr.providerPaymentId}`);
    expect(qr.expiresAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('is refused for another currency than BRL', async () => {
    const error = await createQr({ currency: 'RUB' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).errors).toHaveProperty('currency');
  });
});

describe('SBP', () => {
  it('puts the pay link in the QR code', async () => {
    const qr = await createQr({ scheme: 'sbp', currency: 'RUB' });
    expect(qr.payload).toBe(qr.payLink);
    expect(decodeQr(qr.image.content)).toBe(qr.payLink);
  });
});

describe('the pay link', () => {
  it('opens a page to confirm, which pays the payment and calls back', async () => {
    const qr = await createQr();
    const page = await sandbox.app.inject({ method: 'GET', url: pathOf(qr.payLink) });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`src="data:image/png;base64,${qr.image.content}"`);
    const confirmed = await sandbox.app.inject({
      method: 'POST',
      url: pathOf(qr.payLink),
      ...form({ decision: 'confirm' }),
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toContain(`${STORE_ORIGIN}/?paymentConfirmOrder=`);
    expect((await provider.getPayment(qr.providerPaymentId)).status).toBe('succeeded');
    await receiver.waitFor(1);
    expect(receiver.received.map((callback) => JSON.parse(callback.body).data.id)).toContain(qr.providerPaymentId);
  });

  it('or to refuse, which fails it; a later answer changes nothing', async () => {
    const qr = await createQr();
    await sandbox.app.inject({ method: 'POST', url: pathOf(qr.payLink), ...form({ decision: 'refuse' }) });
    await sandbox.app.inject({ method: 'POST', url: pathOf(qr.payLink), ...form({ decision: 'confirm' }) });
    expect(await provider.getPayment(qr.providerPaymentId)).toMatchObject({
      status: 'failed',
      failureReason: 'refused_by_payer',
    });
  });
});

describe('expiry', () => {
  it('fails a QR payment nobody paid in time, with a callback', async () => {
    const quick = await buildSandbox({ paymentTtlMs: 150 });
    const quickProvider = providerFor(quick, receiver);
    try {
      const qr = await quickProvider.createPayment({
        method: 'qr',
        scheme: 'sbp',
        orderId: 'order-expiring',
        amountMinor: 100,
        currency: 'RUB',
        description: 'x',
        idempotencyKey: 'expiring',
      });
      const start = Date.now();
      while ((await quickProvider.getPayment(qr.providerPaymentId)).status === 'init' && Date.now() - start < 5_000) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await quickProvider.getPayment(qr.providerPaymentId)).toMatchObject({
        status: 'failed',
        failureReason: 'expired',
      });
      const failedEvent = async () =>
        receiver.received
          .map((callback) => JSON.parse(callback.body))
          .find((event) => event.data.id === qr.providerPaymentId);
      while (!(await failedEvent()) && Date.now() - start < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await failedEvent()).toMatchObject({ type: 'payment.failed', data: { failure_reason: 'expired' } });
    } finally {
      await quick.close();
    }
  });
});

describe('expiry: the order’s own', () => {
  const inMs = (ms: number) => new Date(Date.now() + ms);

  it('ends the QR at the order’s expiry when that comes first, else at the sandbox’s own', async () => {
    const orderExpiry = inMs(5 * 60_000);
    const early = await createQr({ expiresAt: orderExpiry });
    expect(early.expiresAt).toEqual(orderExpiry);

    const late = await createQr({ scheme: 'sbp', currency: 'RUB', expiresAt: inMs(2 * DEFAULT_PAYMENT_TTL_MS) });
    const { createdAt } = await provider.getPayment(late.providerPaymentId);
    expect(late.expiresAt).toEqual(new Date(createdAt.getTime() + DEFAULT_PAYMENT_TTL_MS));
  });

  it('refuses an expires_at in the past, under 30 seconds ahead, or not a date', async () => {
    for (const expiresAt of [inMs(-60_000), inMs(20_000)]) {
      const error = await createQr({ expiresAt }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors).toHaveProperty('expiresAt');
    }
    const body = {
      method: 'qr',
      scheme: 'sbp',
      order_id: 'order-too-soon',
      amount_minor: 100,
      currency: 'RUB',
      description: 'x',
      callback_url: receiver.url,
    };
    const soon = await createViaApi(sandbox, { ...body, expires_at: inMs(10_000).toISOString() });
    expect(soon.statusCode).toBe(422);
    expect(soon.json()).toEqual({
      message: 'The payment would expire before it could be paid.',
      errors: { expires_at: ['too_soon'] },
    });
    for (const garbage of ['tomorrow', '2099-01-01', 1_900_000_000_000]) {
      const refused = await createViaApi(sandbox, { ...body, expires_at: garbage });
      expect(refused.json().errors, String(garbage)).toEqual({ expires_at: ['invalid'] });
    }
    // Any offset is the same moment.
    const offset = await createViaApi(sandbox, { ...body, expires_at: '2099-01-01T03:00:00+03:00' });
    expect(offset.statusCode).toBe(201);
    expect(offset.json().next_action.expires_at).toBe(
      new Date(new Date(offset.json().payment.created_at).getTime() + DEFAULT_PAYMENT_TTL_MS).toISOString(),
    );
    expect(await provider.listPayments('order-too-soon')).toHaveLength(1);
  });

  it('the pay link refuses to pay once the order’s expiry has passed, and a callback says so', async () => {
    let now = Date.now();
    const timed = await buildSandbox({ clock: () => new Date(now) });
    try {
      const created = await createViaApi(timed, {
        method: 'qr',
        scheme: 'sbp',
        order_id: 'order-expiring-early',
        amount_minor: 100,
        currency: 'RUB',
        description: 'x',
        callback_url: receiver.url,
        expires_at: new Date(now + 60_000).toISOString(),
      });
      expect(created.json().next_action.expires_at).toBe(new Date(now + 60_000).toISOString());
      const id: string = created.json().payment.id;
      const link = pathOf(created.json().next_action.pay_link);

      now += 59_000;
      expect((await timed.app.inject({ method: 'GET', url: link })).body).toContain('value="confirm"');
      now += 1_000;
      const page = await timed.app.inject({ method: 'GET', url: link });
      expect(page.body).not.toContain('value="confirm"');
      await timed.app.inject({ method: 'POST', url: link, ...form({ decision: 'confirm' }) });
      const read = await timed.app.inject({
        method: 'GET',
        url: `/sandbox/api/v1/payments/${id}`,
        headers: { authorization: `Bearer ${timed.options.apiKey}` },
      });
      expect(read.json()).toMatchObject({ status: 'failed', failure_reason: 'expired', version: 2 });

      const start = Date.now();
      const callbacks = () =>
        receiver.received.map((callback) => JSON.parse(callback.body)).filter((event) => event.data.id === id);
      while (callbacks().length === 0 && Date.now() - start < 5_000)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(callbacks()).toMatchObject([
        { type: 'payment.failed', data: { status: 'failed', failure_reason: 'expired' } },
      ]);
    } finally {
      await timed.close();
    }
  });

  it('a retry under the same Idempotency-Key gets the first answer, however close the expiry is by then', async () => {
    let now = Date.now();
    const timed = await buildSandbox({ clock: () => new Date(now) });
    try {
      const create = {
        method: 'POST' as const,
        url: '/sandbox/api/v1/payments',
        headers: { authorization: `Bearer ${timed.options.apiKey}`, 'idempotency-key': 'late-retry' },
        payload: {
          method: 'qr',
          scheme: 'sbp',
          order_id: 'order-late-retry',
          amount_minor: 100,
          currency: 'RUB',
          description: 'x',
          callback_url: receiver.url,
          expires_at: new Date(now + 40_000).toISOString(),
        },
      };
      const first = await timed.app.inject(create);
      expect(first.statusCode).toBe(201);
      now += 15_000;
      const retry = await timed.app.inject(create);
      expect(retry.statusCode).toBe(201);
      expect(retry.json().payment.id).toBe(first.json().payment.id);
      const fresh = await timed.app.inject({ ...create, headers: { ...create.headers, 'idempotency-key': 'new' } });
      expect(fresh.json().errors).toEqual({ expires_at: ['too_soon'] });
    } finally {
      await timed.close();
    }
  });
});

describe('the pay link: the language', () => {
  async function createPix(extra: Record<string, unknown> = {}) {
    const created = await createViaApi(sandbox, {
      method: 'qr',
      scheme: 'pix',
      order_id: `order-q${++key}`,
      amount_minor: 12_345,
      currency: 'BRL',
      description: 'Steam gift card',
      callback_url: receiver.url,
      return_url: `${STORE_ORIGIN}/?paymentConfirmOrder=order-q${key}`,
      ...extra,
    });
    expect(created.statusCode).toBe(201);
    return pathOf(created.json().next_action.pay_link);
  }
  const open = (url: string, headers: Record<string, string> = {}) =>
    sandbox.app.inject({ method: 'GET', url, headers });

  it('shows the confirm page and its answer in the payment’s language', async () => {
    const link = await createPix({ language: 'pt-BR' });
    const page = await open(`${link}?lang=ru`, { 'accept-language': 'hi' });
    expect(htmlLang(page.body)).toBe('pt-BR');
    expect(heading(page.body)).toBe('Pagar com PIX');
    for (const text of [
      'R$\u00a0123,45',
      'Código PIX copia e cola:',
      'Confirmar o pagamento',
      'alt="QR code do pagamento"',
    ]) {
      expect(page.body).toContain(text);
    }
    // The amount as Brazil writes it (the PIX code itself keeps its own "123.45").
    expect(page.body).toContain('<p class="amount">R$\u00a0123,45</p>');
    for (const english of ['Pay with PIX', 'Confirm the payment', 'Refuse', 'This page stands in']) {
      expect(page.body).not.toContain(english);
    }
    const confirmed = await sandbox.app.inject({ method: 'POST', url: link, ...form({ decision: 'confirm' }) });
    expect(htmlLang(confirmed.body)).toBe('pt-BR');
    expect(heading(confirmed.body)).toBe('Pagamento confirmado');
    expect(confirmed.body).toContain('Voltar para a loja');
  });

  it('without one, takes lang, then Accept-Language, then English', async () => {
    const link = await createPix();
    const ru = await open(`${link}?lang=ru`, { 'accept-language': 'hi' });
    expect(htmlLang(ru.body)).toBe('ru');
    expect(ru.body).toContain('Подтвердить платёж');
    expect(ru.body).toContain('123,45\u00a0R$');
    expect(new URL(firstAction(ru.body)).searchParams.get('lang')).toBe('ru');
    const hi = await open(link, { 'accept-language': 'de;q=1, hi-IN;q=0.9, ru;q=0.8' });
    expect(htmlLang(hi.body)).toBe('hi');
    expect(hi.body).toContain('भुगतान की पुष्टि करें');
    const en = await open(link, { 'accept-language': 'de' });
    expect(htmlLang(en.body)).toBe('en');
    expect(en.body).toContain('Confirm the payment');
  });

  it('names SBP to a Russian reader, and refuses a bad answer in the page’s language', async () => {
    const created = await createViaApi(sandbox, {
      method: 'qr',
      scheme: 'sbp',
      order_id: `order-q${++key}`,
      amount_minor: 50_000,
      currency: 'RUB',
      description: 'Top-up',
      callback_url: receiver.url,
      language: 'ru',
    });
    const link = pathOf(created.json().next_action.pay_link);
    const page = await open(link);
    expect(heading(page.body)).toBe('Оплата через СБП');
    expect(page.body).toContain('500,00\u00a0₽');
    const refused = await sandbox.app.inject({ method: 'POST', url: link, ...form({ decision: 'maybe' }) });
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('Подтвердите или отклоните платёж.');
  });

  it('takes a payment whose language it does not speak', async () => {
    const link = await createPix({ language: 'es' });
    expect(htmlLang((await open(link, { 'accept-language': 'pt-BR' })).body)).toBe('pt-BR');
  });
});

function firstAction(html: string): string {
  return /<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '';
}
