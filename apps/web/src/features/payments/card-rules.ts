import {
  CARD_NUMBER_DIGITS,
  CARD_NUMBER_MAX_DIGITS,
  CARD_TYPE_LOOKUP_DIGITS,
  type CardType,
  CVV_MAX,
  CVV_MIN,
  TOPUP_MAX_DIGITS,
  TOPUP_MIN,
} from '@store/contract';

// The rules for the store's own card form (docs/payments.md, "The card"), as pure functions the form
// and its tests share.

const digitsOf = (text: string) => text.replace(/\D/g, '');

/** Card number mask 4+4+4+up to 7: what is typed, as digits grouped for reading. */
export function maskCardNumber(input: string): string {
  const digits = digitsOf(input).slice(0, CARD_NUMBER_MAX_DIGITS);
  const groups = [digits.slice(0, 4), digits.slice(4, 8), digits.slice(8, 12), digits.slice(12)];
  return groups.filter(Boolean).join(' ');
}

export const cardNumberDigits = (masked: string) => digitsOf(masked);

/** The number is accepted at 16 digits. */
export const isCardNumberComplete = (masked: string) => cardNumberDigits(masked).length === CARD_NUMBER_DIGITS;

/** The prefix POST /card-type is asked about: the first 8 digits, once they are typed. */
export function cardTypePrefix(masked: string): string | null {
  const digits = cardNumberDigits(masked);
  return digits.length >= CARD_TYPE_LOOKUP_DIGITS ? digits.slice(0, CARD_TYPE_LOOKUP_DIGITS) : null;
}

/**
 * The card type lookup, asked once per prefix: typing on past the 8th digit, or deleting back to
 * it and typing the same digits again, asks nothing new. A failed lookup may be asked again.
 */
export function createCardTypeLookup(fetchType: (prefix: string) => Promise<CardType | null>) {
  const asked = new Map<string, Promise<CardType | null>>();
  return (prefix: string): Promise<CardType | null> => {
    let answer = asked.get(prefix);
    if (!answer) {
      answer = fetchType(prefix);
      answer.catch(() => asked.delete(prefix));
      asked.set(prefix, answer);
    }
    return answer;
  };
}

/** Expiry mask MM/YY while typing: digits only, the slash after the month. */
export function maskExpiry(input: string): string {
  const digits = digitsOf(input).slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

export interface Expiry {
  month: string;
  year: string;
}

/**
 * The expiry (docs/payments.md, "The card"): accepted only when all five characters are there, with a
 * month of 1 to 12 and a year of 00 to 99, both two digits; anything else is no expiry (the form clears
 * it).
 */
export function parseExpiry(masked: string): Expiry | null {
  const match = /^(\d{2})\/(\d{2})$/.exec(masked);
  if (!match) return null;
  const month = Number(match[1]);
  const year = Number(match[2]);
  if (month < 1 || month > 12 || year < 0 || year > 99) return null;
  return { month: String(month).padStart(2, '0'), year: String(year).padStart(2, '0') };
}

/** CVV while typing: digits only, at most 3. */
export const maskCvv = (input: string) => digitsOf(input).slice(0, 3);

/** The CVV (docs/payments.md, "The card"): exactly 3 digits with a value of 100 to 999, otherwise cleared. */
export function acceptCvv(value: string): string {
  if (!/^\d{3}$/.test(value)) return '';
  const number = Number(value);
  return number >= CVV_MIN && number <= CVV_MAX ? value : '';
}

/** Top-up amount while typing: digits only, at most TOPUP_MAX_DIGITS characters. */
export const maskTopUp = (input: string) => digitsOf(input).slice(0, TOPUP_MAX_DIGITS);

/** A top-up of at least TOPUP_MIN (docs/orders.md, "Orders"). */
export const isTopUpValid = (value: string) => /^\d+$/.test(value) && Number(value) >= TOPUP_MIN;

export interface CardFormState {
  number: string;
  expiry: string;
  cvv: string;
  consentOffer: boolean;
  consentRefund: boolean;
  /** The answer to the card type lookup for the number's prefix has arrived. */
  paymentDataReady: boolean;
  /** A top-up asks for its amount; a purchase pays the basket. */
  topUp: boolean;
  amount: string;
}

/**
 * Submit is enabled only when every card field is filled, both consents are ticked, the payment-data
 * answer has arrived and, for a top-up, an amount is entered.
 */
export function canSubmitCardForm(state: CardFormState): boolean {
  return (
    isCardNumberComplete(state.number) &&
    parseExpiry(state.expiry) !== null &&
    acceptCvv(state.cvv) !== '' &&
    state.consentOffer &&
    state.consentRefund &&
    state.paymentDataReady &&
    (!state.topUp || isTopUpValid(state.amount))
  );
}
