import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { devCodeKey } from './code-cipher.ts';

/** The store's secrets, by the names of the variables that configure them. */
export interface LocalSecrets {
  JWT_SECRET: string;
  CODE_ENCRYPTION_KEY: string;
  SANDBOX_API_KEY: string;
  /** One Standard Webhooks secret (whsec_ and base64). */
  PAYMENTS_WEBHOOK_SECRETS: string;
}

/** The file in the data folder, beside the embedded database whose codes its key encrypts. */
export const LOCAL_SECRETS_FILE = 'store-secrets.json';

const LocalSecretsSchema = z.object({
  JWT_SECRET: z.string().min(32),
  CODE_ENCRYPTION_KEY: z.string().regex(/^[0-9a-fA-F]{64}$/),
  SANDBOX_API_KEY: z.string().min(16),
  PAYMENTS_WEBHOOK_SECRETS: z.string().regex(/^whsec_[A-Za-z0-9+/]{16,}={0,2}$/),
});

const hex32 = () => randomBytes(32).toString('hex');

/**
 * The secrets of the store whose embedded database is in `dataDir`: the ones its first start made
 * and wrote there, or new ones, written now (readable by the owner only) and reused by every later
 * start and command on the folder. So no two stores share one, and nothing published in the
 * repository protects a store. An in-memory database gets new ones that die with the process.
 *
 * The code key is the exception. Before stores made their own, a store without CODE_ENCRYPTION_KEY
 * encrypted its codes with the development key, published; a folder that already holds a database
 * when its secrets are first written is such a store, and keeps that key, recorded in the file, or
 * its codes could not be read any more. Its other secrets are new all the same: sessions signed
 * with the published JWT secret end, and no one can sign its callbacks or call its sandbox with the
 * published ones.
 */
export function loadLocalSecrets(dataDir: string): LocalSecrets {
  if (dataDir.startsWith('memory://')) return newSecrets(hex32());
  const file = join(dataDir, LOCAL_SECRETS_FILE);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const holdsDatabase = existsSync(join(dataDir, 'PG_VERSION'));
    writeOnce(file, `${JSON.stringify(newSecrets(holdsDatabase ? devCodeKey() : hex32()), null, 2)}\n`);
  }
  return readSecrets(file);
}

function newSecrets(codeKey: string): LocalSecrets {
  return {
    JWT_SECRET: hex32(),
    CODE_ENCRYPTION_KEY: codeKey,
    SANDBOX_API_KEY: hex32(),
    PAYMENTS_WEBHOOK_SECRETS: `whsec_${randomBytes(32).toString('base64')}`,
  };
}

/**
 * Writes `file` whole or not at all, and never over one that exists: the content goes to a file of
 * its own first, then is linked in under the name, which fails if another process got there first
 * (the store and a command started at once). That one's secrets are the folder's, and may already
 * have encrypted a code, so the loser reads them rather than replacing them.
 */
function writeOnce(file: string, content: string): void {
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}`;
  const fd = openSync(draft, 'wx', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * A file that cannot be read is an error, never a reason to write new secrets: the codes of the
 * database beside it need the key it holds.
 */
function readSecrets(file: string): LocalSecrets {
  let content: unknown;
  try {
    content = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file} cannot be read (${(error as Error).message}); restore it from a backup`);
  }
  const parsed = LocalSecretsSchema.safeParse(content);
  if (!parsed.success) {
    const wrong = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || 'the file'))];
    throw new Error(`${file} holds no valid ${wrong.join(', ')}; restore it from a backup`);
  }
  return parsed.data;
}
