import { TEXT_CUT } from '@store/contract';

/** Cuts text to `max` characters with an ellipsis (SPEC.md section 9). */
export function cut(text: string, max: number = TEXT_CUT): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

/**
 * Cover text "10 USD" is shown as a large "10" and a smaller "USD". A number grouped by spaces or
 * marks ("1 000 INR", "13 000 RP", "1,000 VP") stays whole in the large part; text that does not
 * start with a number is split at its first space.
 */
export function splitCoverText(text: string | null | undefined): { first: string; rest: string } | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  const number = /^\d{1,3}(?:[\s\u00a0\u202f.,]\d{3})+(?=\s|$)|^\d+(?:[.,]\d+)?(?=\s|$)/.exec(trimmed)?.[0];
  if (number) return { first: number, rest: trimmed.slice(number.length).trim() };
  const space = trimmed.search(/\s/);
  if (space === -1) return { first: trimmed, rest: '' };
  return { first: trimmed.slice(0, space), rest: trimmed.slice(space).trim() };
}
