import { z } from 'zod';
import { databaseEnvSchema, databaseFromEnv } from './common.schema';

/**
 * Configuration is validated once at boot (docs/architecture.md "Code conventions"). Nothing
 * outside a `config/` folder reads `process.env`. A bad value stops the process with a clear list.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined> = process.env,
): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}

/** Keys whose values never appear in logs. */
const SECRET_KEY_RE = /(SECRET|PASSWORD|PRIVATE|TOKEN|KEY|CREDENTIAL)/i;
const URL_CREDENTIALS_RE = /\/\/([^:/@]+):([^@]+)@/;

/** A copy of a config object that is safe to log: secrets and URL passwords masked. */
export function maskConfig(config: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value === undefined) continue;
    if (SECRET_KEY_RE.test(key) && !/_FILE$/i.test(key)) out[key] = '***';
    else if (typeof value === 'string') out[key] = value.replace(URL_CREDENTIALS_RE, '//$1:***@');
    else out[key] = value;
  }
  return out;
}

/** Reads and validates only DATABASE_URL and DB_POOL_SIZE (the `migrate` command). */
export function loadDatabaseConfig(env: Record<string, string | undefined> = process.env): {
  url: string;
  poolSize: number;
} {
  return databaseFromEnv(loadConfig(databaseEnvSchema, env));
}
