import * as z from 'zod/mini';
import { ErrorKeys } from './errors.ts';

/**
 * Characters no text the store accepts may hold: the control characters (Unicode's Cc) but tab,
 * line feed and carriage return, and UTF-16 surrogates that are not half of a pair. PostgreSQL
 * cannot store NUL, a lone surrogate has no UTF-8 form, and a control character in an address or
 * name would end up in a mail header; none of them is something a person types. With the `u` flag a
 * surrogate range matches only unpaired halves: a pair is read as the one code point it encodes.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this pattern finds.
const FORBIDDEN_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uD800-\uDFFF]/u;

export function hasForbiddenCharacters(value: string): boolean {
  return FORBIDDEN_CHARACTERS.test(value);
}

/** The check every free-text field carries: `z.string().check(cleanText())`. */
export const cleanText = () =>
  z.refine<string>((value) => !hasForbiddenCharacters(value), { error: ErrorKeys.invalidCharacters });
