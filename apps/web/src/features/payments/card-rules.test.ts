import { describe, expect, it, vi } from 'vitest';
import {
  acceptCvv,
  type CardFormState,
  canSubmitCardForm,
  cardTypePrefix,
  createCardTypeLookup,
  isCardNumberComplete,
  isTopUpValid,
  maskCardNumber,
  maskCvv,
  maskExpiry,
  maskTopUp,
  parseExpiry,
} from './card-rules.ts';

describe('card number', () => {
  it('masks 4+4+4+up to 7 digits, dropping anything else', () => {
    expect(maskCardNumber('')).toBe('');
    expect(maskCardNumber('4')).toBe('4');
    expect(maskCardNumber('42424')).toBe('4242 4');
    expect(maskCardNumber('4242-4242 4242.4242')).toBe('4242 4242 4242 4242');
    expect(maskCardNumber('1234567890123456789')).toBe('1234 5678 9012 3456789');
    expect(maskCardNumber('12345678901234567890123')).toBe('1234 5678 9012 3456789');
    expect(maskCardNumber('abc')).toBe('');
  });

  it('is accepted at 16 digits only', () => {
    expect(isCardNumberComplete('4242 4242 4242 424')).toBe(false);
    expect(isCardNumberComplete('4242 4242 4242 4242')).toBe(true);
    expect(isCardNumberComplete('4242 4242 4242 42424')).toBe(false);
  });

  it('names the lookup prefix from the 8th digit on', () => {
    expect(cardTypePrefix('4242 424')).toBeNull();
    expect(cardTypePrefix('4000 0027')).toBe('40000027');
    expect(cardTypePrefix('4000 0027 6000 3184')).toBe('40000027');
  });

  it('looks the type up once per prefix, and again after a failure', async () => {
    const fetchType = vi.fn(async (prefix: string) => (prefix.startsWith('4') ? ('Visa' as const) : null));
    const lookup = createCardTypeLookup(fetchType);
    await expect(lookup('42424242')).resolves.toBe('Visa');
    await expect(lookup('42424242')).resolves.toBe('Visa');
    await expect(lookup('22000000')).resolves.toBeNull();
    await expect(lookup('42424242')).resolves.toBe('Visa');
    expect(fetchType.mock.calls).toEqual([['42424242'], ['22000000']]);

    const failing = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce('Mir');
    const retrying = createCardTypeLookup(failing);
    await expect(retrying('22000000')).rejects.toThrow('offline');
    await expect(retrying('22000000')).resolves.toBe('Mir');
    expect(failing).toHaveBeenCalledTimes(2);
  });
});

describe('expiry', () => {
  it('masks MM/YY while typing', () => {
    expect(maskExpiry('1')).toBe('1');
    expect(maskExpiry('12')).toBe('12');
    expect(maskExpiry('123')).toBe('12/3');
    expect(maskExpiry('12/34')).toBe('12/34');
    expect(maskExpiry('12345')).toBe('12/34');
    expect(maskExpiry('ab')).toBe('');
  });

  it('is accepted only with all five characters, month 1 to 12, year 00 to 99, padded', () => {
    expect(parseExpiry('01/00')).toEqual({ month: '01', year: '00' });
    expect(parseExpiry('12/99')).toEqual({ month: '12', year: '99' });
    expect(parseExpiry('00/30')).toBeNull();
    expect(parseExpiry('13/30')).toBeNull();
    expect(parseExpiry('1/30')).toBeNull();
    expect(parseExpiry('12/3')).toBeNull();
    expect(parseExpiry('12')).toBeNull();
    expect(parseExpiry('')).toBeNull();
  });
});

describe('cvv', () => {
  it('takes digits only, at most 3', () => {
    expect(maskCvv('1a2b3c4')).toBe('123');
  });

  it('is exactly 3 digits from 100 to 999, otherwise cleared', () => {
    expect(acceptCvv('100')).toBe('100');
    expect(acceptCvv('999')).toBe('999');
    expect(acceptCvv('099')).toBe('');
    expect(acceptCvv('000')).toBe('');
    expect(acceptCvv('12')).toBe('');
    expect(acceptCvv('1234')).toBe('');
    expect(acceptCvv('')).toBe('');
  });
});

describe('top-up amount', () => {
  it('takes digits only, at most 7 characters', () => {
    expect(maskTopUp('12a34')).toBe('1234');
    expect(maskTopUp('123456789')).toBe('1234567');
  });

  it('is at least 100', () => {
    expect(isTopUpValid('99')).toBe(false);
    expect(isTopUpValid('100')).toBe(true);
    expect(isTopUpValid('9999999')).toBe(true);
    expect(isTopUpValid('')).toBe(false);
  });
});

describe('submit enabling', () => {
  const ready: CardFormState = {
    number: '4242 4242 4242 4242',
    expiry: '12/30',
    cvv: '123',
    consentOffer: true,
    consentRefund: true,
    paymentDataReady: true,
    topUp: false,
    amount: '',
  };

  it('is enabled when every card field is filled, both consents ticked and the payment data arrived', () => {
    expect(canSubmitCardForm(ready)).toBe(true);
  });

  it.each([
    ['a short number', { number: '4242 4242 4242 424' }],
    ['no expiry', { expiry: '12/3' }],
    ['a bad month', { expiry: '13/30' }],
    ['a short cvv', { cvv: '12' }],
    ['a cvv under 100', { cvv: '099' }],
    ['the offer consent missing', { consentOffer: false }],
    ['the non-refund consent missing', { consentRefund: false }],
    ['no payment data yet', { paymentDataReady: false }],
    ['a top-up without an amount', { topUp: true, amount: '' }],
    ['a top-up under 100', { topUp: true, amount: '99' }],
  ])('is disabled with %s', (_, change) => {
    expect(canSubmitCardForm({ ...ready, ...change })).toBe(false);
  });

  it('is enabled for a top-up of at least 100', () => {
    expect(canSubmitCardForm({ ...ready, topUp: true, amount: '100' })).toBe(true);
  });
});
