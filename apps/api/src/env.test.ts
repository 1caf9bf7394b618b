import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { devCodeKey, LOCAL_SECRETS_FILE, loadLocalSecrets } from '@store/db';
import { loadCliEnv } from '@store/db/cli-env';
import { DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET } from '@store/sandbox/dev-secrets';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv as loadEnvFrom } from './env.ts';

const folders: string[] = [];
/** A data folder of a store of its own. */
const newDataDir = () => {
  const folder = mkdtempSync(join(tmpdir(), 'store-env-'));
  folders.push(folder);
  return folder;
};
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A start on a data folder of this file's, never the repository's. */
const dataDir = newDataDir();
const loadEnv = (source: NodeJS.ProcessEnv) => loadEnvFrom({ DATA_DIR: dataDir, ...source });

/**
 * What an operator following docs/operating.md ("The full stack, safely") generates:
 * `openssl rand -hex 32`.
 */
const randomSecret = () => randomBytes(32).toString('hex');
const productionSecrets = () => ({
  JWT_SECRET: randomSecret(),
  CODE_ENCRYPTION_KEY: randomSecret(),
  PUBLIC_URL: 'https://store.example.com',
  SANDBOX_API_KEY: randomSecret(),
  PAYMENTS_WEBHOOK_SECRETS: `whsec_${randomBytes(32).toString('base64')}`,
});
const production = () => ({ NODE_ENV: 'production', ...productionSecrets() });

describe('loadEnv', () => {
  it('defaults to the embedded mode on port 3000', () => {
    const env = loadEnvFrom({ NODE_ENV: 'test' });
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.DATA_DIR).toMatch(/\.data\/pglite$/);
  });

  it('treats an empty variable as unset', () => {
    expect(loadEnv({ DATABASE_URL: '', REDIS_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('lists every problem at once', () => {
    expect(() => loadEnv({ PORT: 'eighty', DATABASE_URL: 'not a url', LOG_LEVEL: 'loud' })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*LOG_LEVEL|PORT[\s\S]*LOG_LEVEL[\s\S]*DATABASE_URL/,
    );
  });

  it('refuses development secrets in production', () => {
    expect(() => loadEnv({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET[\s\S]*CODE_ENCRYPTION_KEY/);
    expect(() => loadEnv(production())).not.toThrow();
  });

  it('accepts generated secrets in production, every time', () => {
    for (let run = 0; run < 200; run += 1) expect(() => loadEnv(production())).not.toThrow();
    expect(loadEnv({ ...production(), JWT_SECRET: randomBytes(48).toString('base64') }).NODE_ENV).toBe('production');
  });

  it.each([
    ['the old compose file', 'JWT_SECRET', 'change-me-to-a-long-random-string-of-64-chars-0000000000000000'],
    ["the example file's key", 'JWT_SECRET', 'change-me-to-the-output-of-openssl-rand-hex-32'],
    ['the development key', 'CODE_ENCRYPTION_KEY', devCodeKey()],
    ['the development key in capitals', 'CODE_ENCRYPTION_KEY', devCodeKey().toUpperCase()],
    ['the development sandbox key', 'SANDBOX_API_KEY', DEV_SANDBOX_API_KEY],
    ["the example file's sandbox key", 'SANDBOX_API_KEY', 'change-me-to-the-output-of-openssl-rand-hex-32'],
    ['the development webhook secret', 'PAYMENTS_WEBHOOK_SECRETS', DEV_WEBHOOK_SECRET],
    [
      "the example file's webhook secret",
      'PAYMENTS_WEBHOOK_SECRETS',
      'whsec_Y2hhbmdlLW1lLXdlYmhvb2stc2VjcmV0LTAwMDAwMDA=',
    ],
  ])('refuses %s as %s everywhere but in tests: it is published', (_what, name, value) => {
    expect(() => loadEnv({ ...production(), [name]: value })).toThrow(new RegExp(`${name}: is a published default`));
    expect(() => loadEnv({ ...production(), NODE_ENV: 'development', [name]: value })).toThrow(
      new RegExp(`${name}: is published with the repository, for tests only`),
    );
    expect(() => loadEnv({ ...production(), NODE_ENV: 'test', [name]: value })).not.toThrow();
  });

  it.each([
    ['a placeholder', 'JWT_SECRET', 'replace-this-with-a-long-random-string-please-now'],
    ['a word with "secret"', 'JWT_SECRET', 'MySuperSecretKeyForTheStore2024!xyz'],
    ['a word with "password"', 'JWT_SECRET', 'Password1234567890abcdefghijklmnopq'],
    ['one character repeated', 'JWT_SECRET', 'x'.repeat(40)],
    ['a pattern repeated', 'JWT_SECRET', 'abcdefghijklmnop'.repeat(3)],
    ['few distinct characters', 'JWT_SECRET', 'aabbccddeeffgghhaabbccddeeffgghhabcdefgh'],
    ['too short to hold 128 bits', 'JWT_SECRET', randomBytes(16).toString('hex')],
    ['all zeros', 'CODE_ENCRYPTION_KEY', '0'.repeat(64)],
    ['two digits repeated', 'CODE_ENCRYPTION_KEY', 'ab'.repeat(32)],
    ['sixteen digits repeated', 'CODE_ENCRYPTION_KEY', '0123456789abcdef'.repeat(4)],
    ['few distinct digits', 'CODE_ENCRYPTION_KEY', '0123456789'.repeat(6).concat('0123')],
    ['a short webhook secret', 'PAYMENTS_WEBHOOK_SECRETS', `whsec_${randomBytes(12).toString('base64')}`],
    ['zero bytes as a webhook secret', 'PAYMENTS_WEBHOOK_SECRETS', `whsec_${Buffer.alloc(32).toString('base64')}`],
  ])('refuses %s as %s in production', (_what, name, value) => {
    expect(() => loadEnv({ ...production(), [name]: value })).toThrow(new RegExp(`${name}: `));
    // Outside production the same value is the developer's business.
    expect(() => loadEnv({ ...production(), NODE_ENV: 'development', [name]: value })).not.toThrow();
  });

  it('requires PUBLIC_URL in production', () => {
    const { PUBLIC_URL: _, ...rest } = production();
    expect(() => loadEnv(rest)).toThrow(/PUBLIC_URL: must be set in production/);
  });
});

describe('HOST and PUBLIC_URL', () => {
  it('listens on loopback unless HOST says otherwise', () => {
    expect(loadEnv({}).HOST).toBe('127.0.0.1');
    expect(loadEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
  });

  it.each([
    [{}, 'http://localhost:3000'],
    [{ PORT: '4181' }, 'http://localhost:4181'],
    [{ HOST: '0.0.0.0', PORT: '8080' }, 'http://localhost:8080'],
    [{ HOST: '::', PORT: '8080' }, 'http://localhost:8080'],
    [{ HOST: '::1', PORT: '8080' }, 'http://localhost:8080'],
    [{ HOST: '127.0.0.2', PORT: '8080' }, 'http://localhost:8080'],
    [{ HOST: '192.168.1.20', PORT: '8080' }, 'http://192.168.1.20:8080'],
    [{ HOST: 'fd00::20', PORT: '8080' }, 'http://[fd00::20]:8080'],
    [{ HOST: 'store.lan', PORT: '8080' }, 'http://store.lan:8080'],
    [{ PORT: '8080', PUBLIC_URL: 'https://store.example.com' }, 'https://store.example.com'],
  ])('emailed links follow HOST and PORT: %j -> %s', (source, url) => {
    expect(loadEnv(source).PUBLIC_URL).toBe(url);
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['10.0.0.1', ['10.0.0.1']],
    ['10.0.0.0/8, 192.168.0.1 ,fd00::/8,loopback', ['10.0.0.0/8', '192.168.0.1', 'fd00::/8', 'loopback']],
  ])('reads %s as %j', (value, expected) => {
    expect(loadEnv(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(['true', 'yes', '10.0.0.0/33', '10.0.0', 'proxy.internal', '10.0.0.1,', '1.5', '-1', '99'])(
    'refuses %s',
    (value) => {
      expect(() => loadEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY: /);
    },
  );

  it('says why `true` is refused', () => {
    expect(() => loadEnv({ TRUST_PROXY: 'true' })).toThrow(/trust any X-Forwarded-For a client sends/);
  });

  it.each([
    '10.0.0.0/8',
    '10.1.2.3/8',
    '172.16.0.0/12',
    '172.31.255.1',
    '192.168.1.0/24',
    '127.0.0.1',
    '169.254.0.0/16',
    'fc00::/7',
    'fd12:3456::/48',
    '::1',
    'fe80::/10',
    'fe80::1%eth0',
    'fe80::%eth0/64',
    'loopback,linklocal,uniquelocal',
  ])('believes proxies on private, loopback and link-local addresses: %s', (value) => {
    expect(loadEnv({ TRUST_PROXY: value, NODE_ENV: 'production', ...productionSecrets() }).TRUST_PROXY).toEqual(
      value.split(','),
    );
  });

  it.each([
    '0.0.0.0/0',
    '::/0',
    '0.0.0.0/1,128.0.0.0/1',
    '10.0.0.0/7',
    '172.16.0.0/11',
    '10.0.0.0/8,203.0.113.5',
    '8.8.8.0/24',
    '100.64.0.0/10',
    '0.0.0.0',
    '::',
    '2001:db8::/32',
    '::ffff:0:0/96',
    '::ffff:10.0.0.0/104',
    '64:ff9b::/96',
    'fe80::/9',
  ])('refuses %s at start: it covers public addresses', (value) => {
    expect(() => loadEnv({ TRUST_PROXY: value, NODE_ENV: 'production', ...productionSecrets() })).toThrow(
      /TRUST_PROXY: .*covers public addresses, and a client there could write any address into X-Forwarded-For/,
    );
  });

  it('lets no value it takes stop the start, nor believe a client on a public address', async () => {
    const networks = ['10.', '172.20.', '192.168.', '127.', '169.254.', 'fd00::', 'fe80::', '203.0.113.', '2001:db8::'];
    const randomRange = () => {
      const network = networks[randomInt(networks.length)] ?? '';
      const ipv6 = network.includes(':');
      const address = ipv6
        ? `${network}${randomInt(0x10000).toString(16)}`
        : `${network}${Array.from({ length: 4 - network.split('.').length + 1 }, () => randomInt(256)).join('.')}`;
      return randomInt(3) === 0 ? address : `${address}/${randomInt(ipv6 ? 129 : 33)}`;
    };
    const values = Array.from({ length: 300 }, () => Array.from({ length: 1 + randomInt(3) }, randomRange).join(','));
    let taken = 0;
    for (const value of values) {
      let trustProxy: ReturnType<typeof loadEnv>['TRUST_PROXY'];
      try {
        trustProxy = loadEnv({ TRUST_PROXY: value }).TRUST_PROXY;
      } catch (error) {
        expect(String(error)).toMatch(/TRUST_PROXY: /);
        continue;
      }
      taken += 1;
      const app = Fastify({ trustProxy: trustProxy as string[] });
      app.get('/', async (request) => ({ ip: request.ip }));
      await app.ready();
      for (const remoteAddress of ['203.0.113.9', '2001:db8::9', '8.8.8.8']) {
        const response = await app.inject({ url: '/', remoteAddress, headers: { 'x-forwarded-for': '198.51.100.1' } });
        expect(response.json(), value).toEqual({ ip: remoteAddress });
      }
      await app.close();
    }
    expect(taken).toBeGreaterThan(20);
  });
});

describe('loadEnv: payments', () => {
  it('defaults to the sandbox', () => {
    const env = loadEnv({});
    expect(env.PAYMENTS_PROVIDER).toBe('sandbox');
    expect(env.PAYMENTS_WEBHOOK_SECRETS).toHaveLength(1);
    expect(env.PAYMENTS_WEBHOOK_SECRETS[0]).toMatch(/^whsec_/);
  });

  it('takes several webhook secrets for a rotation, and refuses what is not one', () => {
    const secrets = `whsec_${'A'.repeat(44)}, whsec_${'B'.repeat(43)}=`;
    expect(loadEnv({ PAYMENTS_WEBHOOK_SECRETS: secrets }).PAYMENTS_WEBHOOK_SECRETS).toHaveLength(2);
    expect(() => loadEnv({ PAYMENTS_WEBHOOK_SECRETS: 'plain-text-secret' })).toThrow(/PAYMENTS_WEBHOOK_SECRETS/);
    expect(() => loadEnv({ PAYMENTS_PROVIDER: 'paypal' })).toThrow(/PAYMENTS_PROVIDER/);
  });
});

describe('secrets of its own', () => {
  const secretsOf = (env: ReturnType<typeof loadEnvFrom>) => ({
    JWT_SECRET: env.JWT_SECRET,
    CODE_ENCRYPTION_KEY: env.CODE_ENCRYPTION_KEY,
    SANDBOX_API_KEY: env.SANDBOX_API_KEY,
    PAYMENTS_WEBHOOK_SECRETS: env.PAYMENTS_WEBHOOK_SECRETS,
  });
  const published = [DEV_SANDBOX_API_KEY, DEV_WEBHOOK_SECRET, devCodeKey()];

  it('are made on a data folder’s first start, kept there, and the same on every later start', () => {
    const folder = newDataDir();
    const first = secretsOf(loadEnvFrom({ DATA_DIR: folder }));
    for (const value of Object.values(first).flat()) expect(published).not.toContain(value);
    expect(first.JWT_SECRET).not.toBe(secretsOf(loadEnvFrom({ NODE_ENV: 'test' })).JWT_SECRET);
    expect(first).toEqual({
      ...loadLocalSecrets(folder),
      PAYMENTS_WEBHOOK_SECRETS: [loadLocalSecrets(folder).PAYMENTS_WEBHOOK_SECRETS],
    });
    expect(secretsOf(loadEnvFrom({ DATA_DIR: folder, HOST: '0.0.0.0' }))).toEqual(first);
  });

  it('differ between two folders', () => {
    const one = secretsOf(loadEnvFrom({ DATA_DIR: newDataDir() }));
    const other = secretsOf(loadEnvFrom({ DATA_DIR: newDataDir() }));
    for (const name of Object.keys(one) as Array<keyof typeof one>) expect(other[name]).not.toEqual(one[name]);
  });

  it('give way to a configured secret, and are not made at all when every one is configured', () => {
    const folder = newDataDir();
    const own = secretsOf(loadEnvFrom({ DATA_DIR: folder }));
    const jwt = randomSecret();
    expect(secretsOf(loadEnvFrom({ DATA_DIR: folder, JWT_SECRET: jwt }))).toEqual({ ...own, JWT_SECRET: jwt });

    const untouched = newDataDir();
    const { NODE_ENV: _, PUBLIC_URL: __, ...configured } = production();
    loadEnvFrom({ ...configured, DATA_DIR: untouched });
    expect(existsSync(join(untouched, LOCAL_SECRETS_FILE))).toBe(false);
  });

  it('are the published ones in tests, which make nothing', () => {
    const folder = newDataDir();
    expect(secretsOf(loadEnvFrom({ NODE_ENV: 'test', DATA_DIR: folder }))).toMatchObject({
      CODE_ENCRYPTION_KEY: devCodeKey(),
      SANDBOX_API_KEY: DEV_SANDBOX_API_KEY,
      PAYMENTS_WEBHOOK_SECRETS: [DEV_WEBHOOK_SECRET],
    });
    expect(existsSync(join(folder, LOCAL_SECRETS_FILE))).toBe(false);
  });

  it('are the embedded store’s only: the full stack sets all four, a store with a standalone sandbox its two', () => {
    const folder = newDataDir();
    expect(() => loadEnvFrom({ DATA_DIR: folder, DATABASE_URL: 'postgresql://u@h:5432/d' })).toThrow(
      /JWT_SECRET: must be set with DATABASE_URL[\s\S]*CODE_ENCRYPTION_KEY[\s\S]*SANDBOX_API_KEY[\s\S]*PAYMENTS_WEBHOOK_SECRETS/,
    );
    const standalone = () => loadEnvFrom({ DATA_DIR: folder, SANDBOX_URL: 'http://localhost:4010' });
    expect(standalone).toThrow(/SANDBOX_API_KEY: must be set with SANDBOX_URL[\s\S]*PAYMENTS_WEBHOOK_SECRETS/);
    expect(standalone).not.toThrow(/JWT_SECRET|CODE_ENCRYPTION_KEY/);
    expect(existsSync(join(folder, LOCAL_SECRETS_FILE))).toBe(false);
  });

  it('give the command-line tools the store’s code key on the same folder, whichever starts first', () => {
    const storeFirst = newDataDir();
    const key = loadEnvFrom({ DATA_DIR: storeFirst }).CODE_ENCRYPTION_KEY;
    expect(loadCliEnv({ DATA_DIR: storeFirst }, { needsCodeKey: true }).codeKey).toBe(key);

    const toolFirst = newDataDir();
    const toolKey = loadCliEnv({ DATA_DIR: toolFirst }, { needsCodeKey: true }).codeKey;
    expect(loadEnvFrom({ DATA_DIR: toolFirst }).CODE_ENCRYPTION_KEY).toBe(toolKey);
    expect(toolKey).not.toBe(key);
  });

  it('stop the start, naming the file, when the folder holds one that cannot be read', () => {
    const folder = newDataDir();
    writeFileSync(join(folder, LOCAL_SECRETS_FILE), '{}', { mode: 0o600 });
    expect(() => loadEnvFrom({ DATA_DIR: folder })).toThrow(
      /DATA_DIR: .*store-secrets\.json holds no valid JWT_SECRET/,
    );
  });
});
