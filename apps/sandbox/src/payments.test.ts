import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InvalidTransitionError, type NewPayment, PaymentBook } from './payments.ts';

const TTL_MS = 30 * 60_000;
const START = new Date('2026-11-23T12:00:00.000Z');

const qr = (extra: Partial<NewPayment> = {}): NewPayment => ({
  orderId: 'order-1',
  method: 'qr',
  channel: 'api',
  amountMinor: 10_000,
  currency: 'BRL',
  description: 'Steam 100',
  callbackUrl: 'http://127.0.0.1:9/cb',
  returnUrl: null,
  ...extra,
});

let events: Array<{ type: string; status: string; reason: string | null; at: number }>;
let book: PaymentBook;

beforeEach(() => {
  // The book's timers and its clock both run on the fake time: nothing here waits for real.
  vi.useFakeTimers({ now: START });
  events = [];
  book = new PaymentBook(
    (event) =>
      events.push({
        type: event.type,
        status: event.payment.status,
        reason: event.payment.failureReason,
        at: Date.now() - START.getTime(),
      }),
    { clock: () => new Date(), initTtlMs: TTL_MS },
  );
});

afterEach(() => {
  book.close();
  vi.useRealTimers();
});

describe('PaymentBook: expiry', () => {
  it('fails a waiting payment at the merchant’s expires_at when that comes before the TTL', () => {
    const payment = book.create(qr({ expiresAt: new Date(START.getTime() + 5 * 60_000) }));
    expect(payment.expiresAt).toEqual(new Date(START.getTime() + 5 * 60_000));
    vi.advanceTimersByTime(5 * 60_000 - 1);
    expect(payment.status).toBe('init');
    vi.advanceTimersByTime(1);
    expect(payment).toMatchObject({ status: 'failed', failureReason: 'expired' });
    expect(events).toEqual([{ type: 'payment.failed', status: 'failed', reason: 'expired', at: 5 * 60_000 }]);
  });

  it('keeps its own TTL when the merchant’s expires_at is later, or none', () => {
    const later = book.create(qr({ expiresAt: new Date(START.getTime() + 2 * TTL_MS) }));
    const unlimited = book.create(qr());
    for (const payment of [later, unlimited]) expect(payment.expiresAt).toEqual(new Date(START.getTime() + TTL_MS));
    vi.advanceTimersByTime(TTL_MS - 1);
    expect([later.status, unlimited.status]).toEqual(['init', 'init']);
    vi.advanceTimersByTime(1);
    expect([later.failureReason, unlimited.failureReason]).toEqual(['expired', 'expired']);
    expect(events.map((event) => event.at)).toEqual([TTL_MS, TTL_MS]);
  });

  it('fails a payment read past its expiry even when its timer has not run', () => {
    const payment = book.create(qr({ expiresAt: new Date(START.getTime() + 60_000) }));
    // The clock moves without the timers: a process suspended, or too busy to run them.
    vi.setSystemTime(START.getTime() + 60_000);
    expect(book.get(payment.id)).toMatchObject({ status: 'failed', failureReason: 'expired' });
    expect(events).toHaveLength(1);
    vi.advanceTimersByTime(TTL_MS);
    expect(events).toHaveLength(1);
  });

  it('leaves a decided payment alone', () => {
    const payment = book.create(qr({ expiresAt: new Date(START.getTime() + 60_000) }));
    book.transition(payment, 'succeeded');
    vi.advanceTimersByTime(TTL_MS);
    expect(book.get(payment.id)?.status).toBe('succeeded');
    expect(events.map((event) => event.type)).toEqual(['payment.succeeded']);
  });
});

describe('PaymentBook: giving money back', () => {
  it('refuses a payment that did not succeed, and more than is left', () => {
    const waiting = book.create(qr());
    expect(() => book.chargeBack(waiting, 100)).toThrow(InvalidTransitionError);
    expect(() => book.refund(waiting, 100)).toThrow(InvalidTransitionError);
    const paid = book.create(qr());
    book.transition(paid, 'succeeded');
    book.refund(paid, 4_000);
    book.chargeBack(paid, 5_000);
    expect(() => book.chargeBack(paid, 1_001)).toThrow(RangeError);
    expect(() => book.refund(paid, 1_001)).toThrow(RangeError);
    expect(() => book.chargeBack(paid, 0)).toThrow(RangeError);
    expect(paid).toMatchObject({ status: 'succeeded', refundedMinor: 4_000, chargedBackMinor: 5_000, version: 4 });
    expect(paid.chargebacks.map((chargeback) => chargeback.amountMinor)).toEqual([5_000]);
  });
});
