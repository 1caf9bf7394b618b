import type { CardType } from '@store/contract';
import creditCardType from 'credit-card-type';

/** credit-card-type's ids of the four brands the store shows a logo for (docs/payments.md, "The card"). */
const BRANDS: Record<string, CardType> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  mir: 'Mir',
  'american-express': 'AmericanExpress',
};

/**
 * The brand of a card from its first digits (looked up after the first 8: docs/payments.md, "The card"), by
 * credit-card-type's ranges, which follow the networks' published changes (Mastercard's 2-series,
 * Mir's 2200-2204) better than a hand-kept table would. The library's best match decides; a brand
 * outside the four (UnionPay, JCB, Elo...) is null, as is an unknown prefix.
 */
export function detectCardType(digits: string): CardType | null {
  const [best] = creditCardType(digits);
  return (best && BRANDS[best.type]) ?? null;
}
