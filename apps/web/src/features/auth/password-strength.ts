import { PASSWORD_MAX, PASSWORD_PATTERN, PASSWORD_WEAK_MAX } from '@store/contract';

export type PasswordStrength = 'invalid' | 'tooShort' | 'tooLong' | 'weak' | 'medium' | 'strong';

const CLASSES = [/[a-z]/, /[A-Z]/, /\d/, /[\u0400-\u04FF\u0900-\u097F]/];

/**
 * "Too short" for 1 to 7 characters, "too long" above 32. In between, the more kinds of characters
 * (lower and upper case Latin, digits, Cyrillic or Devanagari) and the longer, the stronger. Empty
 * shows nothing. A character the rules refuse (a symbol, a space) grades nothing: the bar says so
 * rather than rate as strong a password the form is about to refuse.
 */
export function passwordStrength(password: string): PasswordStrength | null {
  const length = password.length;
  if (length === 0) return null;
  if (!PASSWORD_PATTERN.test(password)) return 'invalid';
  if (length <= PASSWORD_WEAK_MAX) return 'tooShort';
  if (length > PASSWORD_MAX) return 'tooLong';
  const kinds = CLASSES.filter((pattern) => pattern.test(password)).length;
  if (kinds >= 3 || (kinds === 2 && length >= 12)) return 'strong';
  if (kinds === 2 || length >= 12) return 'medium';
  return 'weak';
}
