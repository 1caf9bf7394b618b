import { TEXT_CUT } from '@store/contract';

/** Cuts text to `max` characters with an ellipsis. */
export function cut(text: string, max: number = TEXT_CUT): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}

/**
 * Cover text "10 USD" is shown as a large "10" and a smaller "USD": split at the first space, but for
 * a face value grouped by spaces ("1 000 INR", "13 000 RP"), which stays whole.
 */
export function splitCoverText(text: string | null | undefined): { first: string; rest: string } | null {
  const trimmed = text?.trim();
  if (!trimmed) return null;
  const end = /^\d{1,3}(?:\s\d{3})+(?=\s|$)/.exec(trimmed)?.[0].length ?? trimmed.search(/\s/);
  if (end === -1) return { first: trimmed, rest: '' };
  return { first: trimmed.slice(0, end), rest: trimmed.slice(end).trim() };
}
