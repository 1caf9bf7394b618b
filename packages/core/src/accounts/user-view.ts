import type { User } from '@store/contract';
import { int8ToNumber, type User as UserRow } from '@store/db';
import { minorToDisplay } from '../shared/money.ts';

/** The contract's User from a database row; the password hash never leaves core. */
export function toUserView(user: UserRow): User {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    verified: user.emailVerifiedAt !== null,
    activated: user.activatedAt !== null,
    balance: minorToDisplay(int8ToNumber(user.balanceMinor)),
    balance_minor: int8ToNumber(user.balanceMinor),
    owed_minor: int8ToNumber(user.owedMinor),
    locale: user.locale,
    created_at: user.createdAt.toISOString(),
  };
}
