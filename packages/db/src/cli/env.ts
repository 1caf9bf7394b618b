import { z } from 'zod';
import { devCodeKey } from '../code-cipher.ts';
import { loadLocalSecrets } from '../local-secrets.ts';
import { defaultDataDir } from '../paths.ts';

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.url().optional(),
  DATA_DIR: z.string().optional(),
  /** Where customers open the store: links in the emails a command writes (an operator's refund). */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  CODE_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters')
    .optional(),
});

export type CliEnv = z.infer<typeof EnvSchema>;

export interface CodeKeyEnv {
  /**
   * The key codes are encrypted with, the store's own on the same data: CODE_ENCRYPTION_KEY, or the
   * data folder's (local-secrets.ts), or in tests the development key.
   */
  codeKey: string;
  usesDevCodeKey: boolean;
}

export interface CliEnvOptions {
  /** The tool encrypts or reads codes, so it needs the store's key. */
  needsCodeKey?: boolean;
}

/** The environment of the db command-line tools, or an error listing everything that is wrong. */
export function loadCliEnv(source: NodeJS.ProcessEnv, options: { needsCodeKey: true }): CliEnv & CodeKeyEnv;
export function loadCliEnv(source: NodeJS.ProcessEnv, options?: CliEnvOptions): CliEnv & Partial<CodeKeyEnv>;
export function loadCliEnv(
  source: NodeJS.ProcessEnv,
  { needsCodeKey = false }: CliEnvOptions = {},
): CliEnv & Partial<CodeKeyEnv> {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  const problem = parsed.success && needsCodeKey ? codeKeyProblem(parsed.data) : undefined;
  if (problem) problems.push(`  CODE_ENCRYPTION_KEY: ${problem}`);
  if (!parsed.success || problems.length > 0) throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  const env = parsed.data;
  if (!needsCodeKey) return env;
  const codeKey = env.CODE_ENCRYPTION_KEY ?? (env.NODE_ENV === 'test' ? devCodeKey() : folderCodeKey(env));
  return { ...env, codeKey, usesDevCodeKey: codeKey.toLowerCase() === devCodeKey() };
}

/** The same rules as the API's (apps/api/src/env.ts), so a command and the store agree on the key. */
function codeKeyProblem(env: CliEnv): string | undefined {
  const key = env.CODE_ENCRYPTION_KEY;
  if (env.NODE_ENV === 'test') return undefined;
  if (key === undefined) {
    if (env.NODE_ENV === 'production') return 'must be set in production';
    if (env.DATABASE_URL) return 'must be set with DATABASE_URL: only an embedded store keeps its own';
    return undefined;
  }
  return key.toLowerCase() === devCodeKey() ? 'is the development key, published with the repository' : undefined;
}

function folderCodeKey(env: CliEnv): string {
  try {
    return loadLocalSecrets(env.DATA_DIR ?? defaultDataDir).CODE_ENCRYPTION_KEY;
  } catch (error) {
    throw new Error(`Invalid environment:\n  DATA_DIR: ${(error as Error).message}`);
  }
}

/** For the tools' entry points: a wrong environment is a message and exit code 1, not a stack trace. */
export function loadCliEnvOrExit(options: { needsCodeKey: true }): CliEnv & CodeKeyEnv;
export function loadCliEnvOrExit(options?: CliEnvOptions): CliEnv & Partial<CodeKeyEnv>;
export function loadCliEnvOrExit(options?: CliEnvOptions): CliEnv & Partial<CodeKeyEnv> {
  try {
    return loadCliEnv(process.env, options);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
