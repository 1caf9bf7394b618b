import { describe, expect, it } from 'vitest';
import { devCodeKey } from '../code-cipher.ts';
import { loadCliEnv } from './env.ts';

describe('loadCliEnv', () => {
  it('falls back to the development key outside production, and says so', () => {
    expect(loadCliEnv({}, { needsCodeKey: true })).toMatchObject({ codeKey: devCodeKey(), usesDevCodeKey: true });
  });

  it('uses the configured key', () => {
    const key = 'a1'.repeat(32);
    expect(loadCliEnv({ CODE_ENCRYPTION_KEY: key }, { needsCodeKey: true })).toMatchObject({
      codeKey: key,
      usesDevCodeKey: false,
    });
  });

  it('requires a key in production only where codes are encrypted', () => {
    expect(() => loadCliEnv({ NODE_ENV: 'production' }, { needsCodeKey: true })).toThrow(
      /CODE_ENCRYPTION_KEY: must be set in production/,
    );
    expect(loadCliEnv({ NODE_ENV: 'production' }).NODE_ENV).toBe('production');
  });

  it('lists every problem at once and treats empty values as unset', () => {
    expect(() => loadCliEnv({ DATABASE_URL: 'not a url', CODE_ENCRYPTION_KEY: 'short' })).toThrow(
      /DATABASE_URL[\s\S]*CODE_ENCRYPTION_KEY: must be 64 hex characters/,
    );
    expect(loadCliEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
