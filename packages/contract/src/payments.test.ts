import { describe, expect, it } from 'vitest';
import { ErrorKeys } from './errors.ts';
import {
  CreateQrBodySchema,
  CreateUpiBodySchema,
  DecimalAmountSchema,
  PaymentBodySchema,
  PaymentResponseSchema,
  passesLuhn,
  SbpPaymentBodySchema,
} from './payments.ts';

/** The message keys of a failed parse, by field path. */
function errorsOf(result: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) {
  const errors: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    const field = issue.path.join('.');
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

const card = { card_number: '4242 4242 4242 4242', month: '07', year: '35', cvc: '123' };

// The card rules of docs/payments.md, "The card".
describe('the own card form', () => {
  it('checks the number with Luhn, spaces of the mask allowed', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('2200000000000004')).toBe(true);
    expect(PaymentBodySchema.parse({ type: 'purchase', ...card }).card_number).toBe('4242424242424242');
    for (const number of ['4242 4242 4242 4241', '4242-4242-4242-4242', '42424242', '4'.repeat(20)]) {
      expect(errorsOf(PaymentBodySchema.safeParse({ type: 'purchase', ...card, card_number: number }))).toEqual({
        card_number: [ErrorKeys.invalidCardNumber],
      });
    }
  });

  it('reads MM/YY as the mask pads it, and a four-digit year as it is', () => {
    expect(PaymentBodySchema.parse({ type: 'purchase', ...card })).toMatchObject({ month: 7, year: 2035 });
    expect(PaymentBodySchema.parse({ type: 'purchase', ...card, month: 12, year: 2030 })).toMatchObject({
      month: 12,
      year: 2030,
    });
    expect(errorsOf(PaymentBodySchema.safeParse({ type: 'purchase', ...card, month: '13' }))).toEqual({
      month: [ErrorKeys.tooLarge],
    });
    expect(errorsOf(PaymentBodySchema.safeParse({ type: 'purchase', ...card, month: '0' }))).toEqual({
      month: [ErrorKeys.tooSmall],
    });
  });

  it('takes a CVV of exactly three digits from 100 to 999', () => {
    expect(PaymentBodySchema.parse({ type: 'purchase', ...card, cvc: 100 }).cvc).toBe('100');
    for (const cvc of ['099', '1234', '12a', '']) {
      const errors = errorsOf(PaymentBodySchema.safeParse({ type: 'purchase', ...card, cvc }));
      if (cvc === '') expect(errors).toEqual({ cvc: [ErrorKeys.requiredField] });
      else expect(errors).toEqual({ cvc: [ErrorKeys.invalidValue] });
    }
  });

  it('wants all four card fields or none, and a value for a top-up that names no order', () => {
    expect(errorsOf(PaymentBodySchema.safeParse({ type: 'purchase', card_number: card.card_number }))).toEqual({
      month: [ErrorKeys.requiredField],
      year: [ErrorKeys.requiredField],
      cvc: [ErrorKeys.requiredField],
    });
    expect(errorsOf(PaymentBodySchema.safeParse({ type: 'balance' }))).toEqual({ value: [ErrorKeys.requiredField] });
    expect(PaymentBodySchema.parse({ type: 'balance', value: '150' }).value).toBe(150);
    expect(errorsOf(PaymentBodySchema.safeParse({ type: 'spending' }))).toEqual({ type: [ErrorKeys.unknownOption] });
  });

  it('takes a top-up value only as a whole number within the limits, and any amount with a purchase', () => {
    for (const schema of [PaymentBodySchema, SbpPaymentBodySchema]) {
      expect(errorsOf(schema.safeParse({ type: 'balance', value: 150.5 }))).toEqual({ value: [ErrorKeys.notANumber] });
      expect(errorsOf(schema.safeParse({ type: 'balance', value: 99 }))).toEqual({ value: [ErrorKeys.tooSmall] });
      expect(errorsOf(schema.safeParse({ type: 'balance', value: 10_000_000 }))).toEqual({
        value: [ErrorKeys.tooLarge],
      });
      expect(errorsOf(schema.safeParse({ type: 'balance', value: 'lots' }))).toEqual({ value: [ErrorKeys.notANumber] });
      expect(schema.parse({ type: 'balance', value: 9_999_999 }).value).toBe(9_999_999);
      // The total the page shows: the order's own total is what a purchase is charged.
      expect(schema.parse({ type: 'purchase', value: 26.91 }).value).toBe(26.91);
      expect(schema.parse({ type: 'purchase', value: '0' }).value).toBe(0);
      expect(schema.parse({ type: 'purchase', value: '' }).value).toBeUndefined();
      expect(errorsOf(schema.safeParse({ type: 'purchase', value: -1 }))).toEqual({ value: [ErrorKeys.notANumber] });
      expect(errorsOf(schema.safeParse({ type: 'purchase', value: 1.234 }))).toEqual({ value: [ErrorKeys.notANumber] });
    }
  });
});

describe('QR and UPI', () => {
  it('reads amounts in whole units with up to two decimals into minor units, never through a float', () => {
    expect(DecimalAmountSchema.parse('29.9')).toBe(2_990);
    expect(DecimalAmountSchema.parse(29.9)).toBe(2_990);
    expect(DecimalAmountSchema.parse('0.07')).toBe(7);
    expect(DecimalAmountSchema.safeParse('1e3').success).toBe(false);
    expect(DecimalAmountSchema.safeParse('1.234').success).toBe(false);
  });

  it('takes a CPF of exactly 11 digits, with or without its mask', () => {
    const qr = { amount: '10', currency: 'brl' };
    expect(CreateQrBodySchema.parse({ ...qr, personalId: '123.456.789-09' })).toMatchObject({
      personalId: '12345678909',
      currency: 'BRL',
      amount: 1_000,
    });
    expect(errorsOf(CreateQrBodySchema.safeParse({ ...qr, personalId: '1234567890' }))).toEqual({
      personalId: [ErrorKeys.invalidValue],
    });
  });

  it('names each missing UPI field', () => {
    expect(Object.keys(errorsOf(CreateUpiBodySchema.safeParse({}))).sort()).toEqual(
      [
        'AccountNumber',
        'FirstName',
        'address',
        'cancel_url',
        'currency',
        'decline_url',
        'description',
        'email',
        'phone',
        'success_url',
        'zip',
      ].sort(),
    );
  });
});

describe('the answer of POST /payment', () => {
  // The statuses of docs/payments.md, "The store's payment calls".
  it('is one shape per status the provider may answer', () => {
    const base = { order_id: 'o', payment_id: 'p', card: { brand: 'visa', last4: '4242' } };
    expect(
      PaymentResponseSchema.safeParse({ status: '3DS', ...base, redirectUrl: 'u', PaReq: 'a', MD: 'm', TermUrl: 't' })
        .success,
    ).toBe(true);
    expect(PaymentResponseSchema.safeParse({ status: '3DS', ...base, redirectUrl: 'u' }).success).toBe(false);
    expect(PaymentResponseSchema.safeParse({ status: 'paid', ...base }).success).toBe(false);
  });
});
