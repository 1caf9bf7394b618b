import creditCardType from 'credit-card-type';

/**
 * Test cards: what the sandbox does with each number (README "Test cards"). Any other Luhn-valid
 * number succeeds; a Luhn-invalid one is refused before anything is created (422).
 */
export type CardScenario =
  | 'succeed'
  | 'decline'
  | 'insufficient_funds'
  | '3ds_challenge'
  | '3ds_redirect'
  | '3ds_then_decline';

export const TEST_CARDS: Record<string, { scenario: CardScenario; description: string }> = {
  '4242424242424242': { scenario: 'succeed', description: 'Visa, succeeds' },
  '4000000000000002': { scenario: 'decline', description: 'declined (card_declined)' },
  '4000000000009995': { scenario: 'insufficient_funds', description: 'declined for insufficient funds' },
  '4000000000003220': { scenario: '3ds_challenge', description: 'asks for a 3-D Secure challenge (3DS)' },
  '4000002760003184': { scenario: '3ds_redirect', description: 'answers 3DS_REDIRECT to the challenge page' },
  '4000008400001629': { scenario: '3ds_then_decline', description: 'passes 3-D Secure, then is declined' },
};

/** The Luhn (mod 10) check digit test of ISO/IEC 7812. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function scenarioFor(digits: string): CardScenario {
  return TEST_CARDS[digits]?.scenario ?? 'succeed';
}

/** The network's name as credit-card-type knows it (visa, mastercard, mir, american-express...). */
export function cardBrand(digits: string): string {
  return creditCardType(digits)[0]?.type ?? 'unknown';
}

/** A card is good through the last day of its expiry month. */
export function isExpired(expMonth: number, expYear: number, now: Date): boolean {
  const year = now.getUTCFullYear();
  return expYear < year || (expYear === year && expMonth < now.getUTCMonth() + 1);
}

/** Strips the spaces of a masked number: "4242 4242 4242 4242". */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}
