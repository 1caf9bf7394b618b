import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCodeCipher, devCodeKey } from './code-cipher.ts';
import { openPglite } from './database.ts';
import { LOCAL_SECRETS_FILE, loadLocalSecrets } from './local-secrets.ts';

const folders: string[] = [];
const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'store-secrets-'));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('loadLocalSecrets', () => {
  it('makes strong secrets on a folder’s first start, readable by the owner only, and reuses them', () => {
    const folder = join(newFolder(), 'pglite');
    const first = loadLocalSecrets(folder);
    expect(first.JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);
    expect(first.CODE_ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(first.CODE_ENCRYPTION_KEY).not.toBe(devCodeKey());
    expect(first.SANDBOX_API_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(Buffer.from(first.PAYMENTS_WEBHOOK_SECRETS.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(new Set(Object.values(first)).size).toBe(4);

    const file = join(folder, LOCAL_SECRETS_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // Nothing half-written is left beside it.
    expect(readdirSync(folder)).toEqual([LOCAL_SECRETS_FILE]);
    expect(loadLocalSecrets(folder)).toEqual(first);
  });

  it('gives every folder secrets of its own', () => {
    const one = loadLocalSecrets(newFolder());
    const other = loadLocalSecrets(newFolder());
    for (const name of Object.keys(one) as Array<keyof typeof one>) expect(other[name]).not.toBe(one[name]);
  });

  it('never replaces a file it cannot read: the codes beside it need its key', () => {
    const folder = newFolder();
    const file = join(folder, LOCAL_SECRETS_FILE);
    writeFileSync(file, '{"JWT_SECRET": "short"}', { mode: 0o600 });
    expect(() => loadLocalSecrets(folder)).toThrow(/holds no valid JWT_SECRET, CODE_ENCRYPTION_KEY/);
    writeFileSync(file, 'not json', { mode: 0o600 });
    expect(() => loadLocalSecrets(folder)).toThrow(/cannot be read/);
    expect(readFileSync(file, 'utf8')).toBe('not json');
  });

  it('keeps the development code key for a database made before stores had their own, and only that key', async () => {
    const folder = newFolder();
    // A store of before: its embedded database, and a code encrypted with the development key.
    const pglite = await openPglite(folder);
    await pglite.exec('CREATE TABLE codes (ciphertext bytea)');
    await pglite.query('INSERT INTO codes VALUES ($1)', [createCodeCipher(devCodeKey()).encrypt('GIFT-0001')]);
    await pglite.close();

    const secrets = loadLocalSecrets(folder);
    expect(secrets.CODE_ENCRYPTION_KEY).toBe(devCodeKey());
    expect(secrets.JWT_SECRET).toMatch(/^[0-9a-f]{64}$/);

    const reopened = await openPglite(folder);
    const { rows } = await reopened.query<{ ciphertext: Uint8Array }>('SELECT ciphertext FROM codes');
    await reopened.close();
    expect(createCodeCipher(secrets.CODE_ENCRYPTION_KEY).decrypt(rows[0]!.ciphertext)).toBe('GIFT-0001');
  });

  it('leaves a folder made now to the embedded database, which starts beside the file', async () => {
    const folder = newFolder();
    const secrets = loadLocalSecrets(folder);
    const pglite = await openPglite(folder);
    expect((await pglite.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pglite.close();
    expect(loadLocalSecrets(folder)).toEqual(secrets);
  });

  it('makes throw-away secrets for an in-memory database', () => {
    expect(loadLocalSecrets('memory://').JWT_SECRET).not.toBe(loadLocalSecrets('memory://').JWT_SECRET);
  });
});
