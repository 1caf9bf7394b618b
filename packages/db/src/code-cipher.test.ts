import { describe, expect, it } from 'vitest';
import { createCodeCipher, devCodeKey } from './code-cipher.ts';

const cipher = createCodeCipher('ab'.repeat(32));

describe('code cipher', () => {
  it('round-trips a code and never stores it in the clear', () => {
    const stored = cipher.encrypt('ABCDE-FGHIJ-KLMNO');
    expect(cipher.decrypt(stored)).toBe('ABCDE-FGHIJ-KLMNO');
    expect(Buffer.from(stored).toString('latin1')).not.toContain('ABCDE');
  });

  it('stores version | 12-byte IV | ciphertext | 16-byte tag', () => {
    const stored = cipher.encrypt('ABCDE-FGHIJ-KLMNO');
    expect(stored[0]).toBe(1);
    expect(stored.length).toBe(1 + 12 + 'ABCDE-FGHIJ-KLMNO'.length + 16);
  });

  it.each([
    ['the version', 0],
    ['the IV', 5],
    ['the tag', -1],
  ])('refuses a code whose %s was changed', (_part, index) => {
    const stored = cipher.encrypt('ABCDE-FGHIJ-KLMNO');
    const at = index < 0 ? stored.length + index : index;
    stored[at] = (stored[at] ?? 0) ^ 0x80;
    expect(() => cipher.decrypt(stored)).toThrow();
  });

  it('refuses bytes too short to be a code', () => {
    expect(() => cipher.decrypt(new Uint8Array(20))).toThrow(/known version/);
  });

  it('uses a fresh IV each time', () => {
    expect(Buffer.from(cipher.encrypt('SAME')).equals(Buffer.from(cipher.encrypt('SAME')))).toBe(false);
  });

  it('detects tampering', () => {
    const stored = cipher.encrypt('ABCDE-FGHIJ-KLMNO');
    stored[20] = (stored[20] ?? 0) ^ 1;
    expect(() => cipher.decrypt(stored)).toThrow();
  });

  it('does not decrypt under another key', () => {
    const other = createCodeCipher('cd'.repeat(32));
    expect(() => other.decrypt(cipher.encrypt('CODE-1'))).toThrow();
  });

  it('gives a stable digest that ignores case and surrounding space', () => {
    expect(cipher.digest('abc-123')).toBe(cipher.digest(' ABC-123 '));
    expect(cipher.digest('ABC-123')).not.toBe(cipher.digest('ABC-124'));
    expect(cipher.digest('ABC-123')).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each(['', 'short', 'zz'.repeat(32), 'ab'.repeat(31)])('rejects the key %j', (key) => {
    expect(() => createCodeCipher(key)).toThrow(/64 hex characters/);
  });

  it('has a development key of the right shape', () => {
    expect(devCodeKey()).toMatch(/^[0-9a-f]{64}$/);
  });
});
