import { describe, expect, it } from 'vitest';
import { ARGON2_PARAMS, hashPassword, verifyNothing, verifyPassword } from './password-hashing.ts';

describe('password hashing', () => {
  it("uses argon2id with OWASP's parameters: 19 MiB, two passes, one lane", async () => {
    expect(ARGON2_PARAMS).toEqual({ algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const hash = await hashPassword('Secret123');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  });

  it('salts every hash and verifies only the right password, in every allowed script', async () => {
    for (const password of ['Secret123', 'ПарольСекрет1', 'पासवर्डसुरक्षित1']) {
      const [one, two] = await Promise.all([hashPassword(password), hashPassword(password)]);
      expect(one).not.toBe(two);
      expect(await verifyPassword(one, password)).toBe(true);
      expect(await verifyPassword(one, `${password}x`)).toBe(false);
    }
  });

  it('treats an unreadable stored hash as a wrong password, and the dummy check as a failure', async () => {
    expect(await verifyPassword('not-a-hash', 'Secret123')).toBe(false);
    expect(await verifyNothing('Secret123')).toBe(false);
  });
});
