import * as z from 'zod/mini';

/**
 * Error bodies (docs/api.md, "Errors"). Field errors carry message keys (`validation.nameTooShort`),
 * which the client translates; `message` is a readable English default.
 */
export const ValidationErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())),
});
export type ValidationErrorBody = z.infer<typeof ValidationErrorSchema>;

export const MessageErrorSchema = z.object({
  message: z.string(),
  code: z.optional(z.string()),
  requestId: z.optional(z.string()),
});
export type MessageErrorBody = z.infer<typeof MessageErrorSchema>;

/** Message keys the server puts in `errors`; each has a translation in every locale catalogue. */
export const ErrorKeys = {
  requiredField: 'validation.requiredField',
  invalidValue: 'validation.invalidValue',
  notANumber: 'validation.notANumber',
  tooLong: 'validation.tooLong',
  tooShort: 'validation.tooShort',
  tooSmall: 'validation.tooSmall',
  tooLarge: 'validation.tooLarge',
  unknownOption: 'validation.unknownOption',
  minAboveMax: 'validation.minAboveMax',
  nameTooShort: 'validation.nameTooShort',
  nameTooLong: 'validation.nameTooLong',
  onlyLatinAndNumbers: 'validation.onlyLatinAndNumbers',
  invalidEmailFormat: 'validation.invalidEmailFormat',
  invalidCredentials: 'invalidCredentials',
  accountBlocked: 'validation.accountBlocked',
  emailTaken: 'validation.emailTaken',
  emailNotFound: 'validation.emailNotFound',
  passwordInvalid: 'validation.passwordInvalid',
  passwordTooShort: 'validation.passwordTooShort',
  passwordsDoNotMatch: 'validation.passwordsDoNotMatch',
  wrongPassword: 'validation.wrongPassword',
  tokenInvalid: 'validation.tokenInvalid',
  sameEmail: 'validation.sameEmail',
  reviewExists: 'validation.reviewExists',
  duplicateValue: 'validation.duplicateValue',
  invalidPromoCode: 'validation.invalidPromoCode',
  invalidCharacters: 'validation.invalidCharacters',
  outOfStock: 'validation.outOfStock',
  tooManyHeld: 'validation.tooManyHeld',
  emptyBasket: 'validation.emptyBasket',
  insufficientFunds: 'validation.insufficientFunds',
  balanceOwed: 'validation.balanceOwed',
  orderNotPayable: 'validation.orderNotPayable',
  invalidCardNumber: 'validation.invalidCardNumber',
  amountMismatch: 'validation.amountMismatch',
  currencyMismatch: 'validation.currencyMismatch',
  foreignOrigin: 'validation.foreignOrigin',
} as const;
export type ErrorKey = (typeof ErrorKeys)[keyof typeof ErrorKeys];

/** Readable English defaults for the keys, used by the server in `message`. */
export const ErrorTexts: Record<ErrorKey, string> = {
  'validation.requiredField': 'This field is required.',
  'validation.invalidValue': 'This value is not valid.',
  'validation.notANumber': 'This value must be a whole number.',
  'validation.tooLong': 'This value is too long.',
  'validation.tooShort': 'This value is too short.',
  'validation.tooSmall': 'This value is too small.',
  'validation.tooLarge': 'This value is too large.',
  'validation.unknownOption': 'This option is not one of the allowed values.',
  'validation.minAboveMax': 'The minimum must not be above the maximum.',
  'validation.nameTooShort': 'The name is too short.',
  'validation.nameTooLong': 'The name is too long.',
  'validation.onlyLatinAndNumbers': 'Only Latin letters and digits are allowed.',
  'validation.invalidEmailFormat': 'The email address is not valid.',
  invalidCredentials: 'Incorrect username or password.',
  'validation.accountBlocked': 'This account is blocked. Write to support to find out why.',
  'validation.emailTaken': 'E-mail já existe',
  'validation.emailNotFound': 'Email not found.',
  'validation.passwordInvalid': 'Only letters and digits are allowed in the password.',
  'validation.passwordTooShort': 'The password is too short.',
  'validation.passwordsDoNotMatch': 'Passwords do not match.',
  'validation.wrongPassword': 'The current password is not correct.',
  'validation.tokenInvalid': 'This link is not valid or has expired.',
  'validation.sameEmail': 'This is already your email address.',
  'validation.reviewExists': 'You have already reviewed this product.',
  'validation.duplicateValue': 'This value appears more than once.',
  'validation.invalidPromoCode': 'Invalid promo code.',
  'validation.invalidCharacters': 'This value contains characters that are not allowed.',
  'validation.outOfStock': 'There are not enough codes of this product in stock.',
  'validation.tooManyHeld':
    'Your unpaid orders hold as many codes as one customer may: pay for them, or wait for them to end.',
  'validation.emptyBasket': 'Your basket is empty.',
  'validation.insufficientFunds': 'Your balance is too low for this order.',
  'validation.balanceOwed':
    'Your account owes money for a payment that was given back: top up to settle it before paying from the balance.',
  'validation.orderNotPayable': 'This order can no longer be paid.',
  'validation.invalidCardNumber': 'This card number is not valid.',
  'validation.amountMismatch': 'This amount is not the order’s total.',
  'validation.currencyMismatch': 'This currency is not the order’s.',
  'validation.foreignOrigin': 'This address must be on the store’s own site.',
};

export function isErrorKey(value: string): value is ErrorKey {
  return Object.hasOwn(ErrorTexts, value);
}
