import * as z from 'zod/mini';

// What every page may need to read about the signed-in customer, so, like the catalogue, in
// zod/mini: the session check runs on the first page a visitor opens.

/**
 * The signed-in customer (docs/api.md, "Accounts and profile"), plus what the profile shows. Balance is
 * in the store currency.
 */
export const UserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  verified: z.boolean(),
  activated: z.boolean(),
  balance: z.number(),
  balance_minor: z.int(),
  /**
   * What the customer owes the store, in minor units: a top-up the provider gave back after it was
   * spent. Spending from the balance waits until a top-up has paid it. Absent is nothing owed.
   */
  owed_minor: z.optional(z.int()),
  locale: z.string(),
  created_at: z.string(),
});
export type User = z.infer<typeof UserSchema>;

/** POST /login and POST /register. */
export const AuthResponseSchema = z.object({ token: z.string(), user: UserSchema });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** GET /user and every call that changes the user. */
export const UserResponseSchema = z.object({ user: UserSchema });
export type UserResponse = z.infer<typeof UserResponseSchema>;

export const BalanceResponseSchema = z.object({
  balance: z.number(),
  balance_minor: z.int(),
  owed_minor: z.optional(z.int()),
});
export type BalanceResponse = z.infer<typeof BalanceResponseSchema>;

/** Calls whose answer is only that they worked (a mail was queued, a password was set). */
export const OkResponseSchema = z.object({ ok: z.literal(true), message: z.string() });
export type OkResponse = z.infer<typeof OkResponseSchema>;
