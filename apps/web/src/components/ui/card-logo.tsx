import type { CardType } from '@store/contract';

/**
 * The four card brand logos. They are images under /cards, not inline SVG in a script: the footer shows
 * them on every page, and as files they cost the first page load nothing but four small requests after
 * it, cached like any image.
 */
const BRANDS: Record<CardType, { file: string; name: string }> = {
  Visa: { file: 'visa', name: 'Visa' },
  MasterCard: { file: 'mastercard', name: 'Mastercard' },
  Mir: { file: 'mir', name: 'Mir' },
  AmericanExpress: { file: 'amex', name: 'American Express' },
};

export const CARD_TYPES = Object.keys(BRANDS) as CardType[];

export function CardLogo({ type, width = 48 }: { type: CardType; width?: number }) {
  const brand = BRANDS[type];
  return (
    <img
      src={`/cards/${brand.file}.svg`}
      alt={brand.name}
      title={brand.name}
      width={width}
      height={Math.round((width * 30) / 48)}
      loading="lazy"
      decoding="async"
    />
  );
}
