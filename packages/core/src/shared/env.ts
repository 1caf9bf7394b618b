/** A zod schema, or anything else that parses the way one does. */
export interface EnvSchemaLike<Env> {
  safeParse(
    input: unknown,
  ):
    | { success: true; data: Env }
    | { success: false; error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> } };
}

/**
 * Parses an app's environment with its schema, once at boot. An empty variable means unset
 * (`DATABASE_URL= pnpm start` runs the embedded mode); a wrong environment throws one error listing
 * everything that is wrong, each variable on its own line.
 */
export function parseEnv<Env>(schema: EnvSchemaLike<Env>, source: NodeJS.ProcessEnv): Env {
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.map(String).join('.')}: ${issue.message}`);
    throw new Error(`Invalid environment:\n${problems.join('\n')}`);
  }
  return parsed.data;
}
