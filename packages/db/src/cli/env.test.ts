import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { devCodeKey } from '../code-cipher.ts';
import { loadLocalSecrets } from '../local-secrets.ts';
import { loadCliEnv } from './env.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'store-cli-env-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('loadCliEnv', () => {
  it('uses the data folder’s own key where none is configured, as the store on that folder does', () => {
    const env = loadCliEnv({ DATA_DIR: dataDir }, { needsCodeKey: true });
    expect(env).toMatchObject({ codeKey: loadLocalSecrets(dataDir).CODE_ENCRYPTION_KEY, usesDevCodeKey: false });
    expect(env.codeKey).not.toBe(devCodeKey());
  });

  it('uses the development key in tests only, and says so', () => {
    expect(loadCliEnv({ NODE_ENV: 'test' }, { needsCodeKey: true })).toMatchObject({
      codeKey: devCodeKey(),
      usesDevCodeKey: true,
    });
    expect(() => loadCliEnv({ CODE_ENCRYPTION_KEY: devCodeKey(), DATA_DIR: dataDir }, { needsCodeKey: true })).toThrow(
      /CODE_ENCRYPTION_KEY: is the development key/,
    );
  });

  it('uses the configured key', () => {
    const key = 'a1'.repeat(32);
    expect(loadCliEnv({ CODE_ENCRYPTION_KEY: key, DATA_DIR: dataDir }, { needsCodeKey: true })).toMatchObject({
      codeKey: key,
      usesDevCodeKey: false,
    });
  });

  it('requires a key in production and with DATABASE_URL, only where codes are encrypted', () => {
    expect(() => loadCliEnv({ NODE_ENV: 'production' }, { needsCodeKey: true })).toThrow(
      /CODE_ENCRYPTION_KEY: must be set in production/,
    );
    expect(() => loadCliEnv({ DATABASE_URL: 'postgresql://u@h:5432/d' }, { needsCodeKey: true })).toThrow(
      /CODE_ENCRYPTION_KEY: must be set with DATABASE_URL/,
    );
    expect(loadCliEnv({ NODE_ENV: 'production' }).NODE_ENV).toBe('production');
    expect(loadCliEnv({ DATABASE_URL: 'postgresql://u@h:5432/d' })).not.toHaveProperty('codeKey');
  });

  it('lists every problem at once and treats empty values as unset', () => {
    expect(() => loadCliEnv({ DATABASE_URL: 'not a url', CODE_ENCRYPTION_KEY: 'short' })).toThrow(
      /DATABASE_URL[\s\S]*CODE_ENCRYPTION_KEY: must be 64 hex characters/,
    );
    expect(loadCliEnv({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });
});
