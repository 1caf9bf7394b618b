import { z } from 'zod';
import { devCodeKey } from '../code-cipher.ts';

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

export type CliEnv = z.infer<typeof EnvSchema> & {
  /** The key codes are encrypted with: CODE_ENCRYPTION_KEY, or the development key outside production. */
  codeKey: string;
  usesDevCodeKey: boolean;
};

export interface CliEnvOptions {
  /** The tool encrypts codes, so production must bring its own key. */
  needsCodeKey?: boolean;
}

/** The environment of the db command-line tools, or an error listing everything that is wrong. */
export function loadCliEnv(source: NodeJS.ProcessEnv, { needsCodeKey = false }: CliEnvOptions = {}): CliEnv {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  if (needsCodeKey && parsed.success && !parsed.data.CODE_ENCRYPTION_KEY && parsed.data.NODE_ENV === 'production') {
    problems.push('  CODE_ENCRYPTION_KEY: must be set in production');
  }
  if (!parsed.success || problems.length > 0) throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  const env = parsed.data;
  return { ...env, codeKey: env.CODE_ENCRYPTION_KEY ?? devCodeKey(), usesDevCodeKey: !env.CODE_ENCRYPTION_KEY };
}

/** For the tools' entry points: a wrong environment is a message and exit code 1, not a stack trace. */
export function loadCliEnvOrExit(options?: CliEnvOptions): CliEnv {
  try {
    return loadCliEnv(process.env, options);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
