import { describe, expect, it } from 'vitest';
import { planRefund } from './refund.ts';

const refundable = { card_minor: 5000, balance_minor: 5000 };

describe('planRefund', () => {
  it('takes all that is left when the whole is refunded', () => {
    expect(
      planRefund({ to: 'card', whole: true, amount: '', reason: 'Code did not work' }, refundable, 'BRL', 3),
    ).toEqual({
      ok: true,
      to: 'card',
      amountMinor: 5000,
      whole: true,
      reason: 'Code did not work',
    });
  });

  it('takes a partial amount up to what is left, and counts one of all that is left as whole', () => {
    expect(
      planRefund({ to: 'balance', whole: false, amount: '12,50', reason: 'goodwill' }, refundable, 'BRL', 3),
    ).toMatchObject({
      ok: true,
      amountMinor: 1250,
      whole: false,
    });
    expect(
      planRefund({ to: 'card', whole: false, amount: '50', reason: 'goodwill' }, refundable, 'BRL', 3),
    ).toMatchObject({
      ok: true,
      amountMinor: 5000,
      whole: true,
    });
  });

  it('refuses an amount above what is left, zero, or not a number', () => {
    const draft = { to: 'card' as const, whole: false, reason: 'goodwill' };
    expect(planRefund({ ...draft, amount: '50,01' }, refundable, 'BRL', 3)).toEqual({
      ok: false,
      field: 'amount',
      key: 'admin.amountTooLarge',
    });
    expect(planRefund({ ...draft, amount: '0' }, refundable, 'BRL', 3)).toMatchObject({
      ok: false,
      key: 'validation.tooSmall',
    });
    expect(planRefund({ ...draft, amount: 'ten' }, refundable, 'BRL', 3)).toMatchObject({
      ok: false,
      key: 'validation.notANumber',
    });
  });

  it('refuses a destination with nothing left, and a missing or short reason', () => {
    expect(
      planRefund(
        { to: 'card', whole: true, amount: '', reason: 'goodwill' },
        { card_minor: 0, balance_minor: 10 },
        'BRL',
        3,
      ),
    ).toEqual({
      ok: false,
      field: 'to',
      key: 'admin.notRefundable',
    });
    expect(planRefund({ to: 'card', whole: true, amount: '', reason: '   ' }, refundable, 'BRL', 3)).toMatchObject({
      ok: false,
      field: 'reason',
      key: 'validation.requiredField',
    });
    expect(planRefund({ to: 'card', whole: true, amount: '', reason: 'ok' }, refundable, 'BRL', 3)).toMatchObject({
      ok: false,
      key: 'validation.tooShort',
    });
  });
});
