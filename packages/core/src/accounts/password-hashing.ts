import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';

// The package declares its algorithms as a const enum, which isolated modules cannot read.
const ARGON2ID: Algorithm = 2;

/** OWASP's argon2id recommendation: 19 MiB of memory, two passes, one lane. */
export const ARGON2_PARAMS = {
  algorithm: ARGON2ID,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_PARAMS);
}

/** False for a wrong password and for a stored hash that cannot be parsed. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the time of a real verification when there is no account to verify against, so the answer
 * time of a login does not tell whether an address has an account. Always false.
 */
export async function verifyNothing(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64url'));
  await verifyPassword(await dummyHash, password);
  return false;
}

/** The password functions the account service uses; tests pass one that counts its calls. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  verifyNothing(password: string): Promise<false>;
}

export const argon2Hasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword, verifyNothing };
