/**
 * The environment of an API end-to-end run. `node scripts/e2e.mjs` starts the whole stack on a private port
 * with a fresh database and Redis prefix, then runs these tests with the VAULT_E2E_* variables set.
 */

export interface E2eEnv {
  /** The gateway, e.g. http://127.0.0.1:18080 (no trailing slash). */
  baseUrl: string;
  /** Folder with one log file per service (gateway.log, auth.log, ...): their stdout and stderr. */
  logDir: string | undefined;
  redisUrl: string | undefined;
  redisPrefix: string | undefined;
  databaseUrl: string | undefined;
  /** The local disk storage's folder of the run (encrypted file objects). */
  storageRoot: string | undefined;
}

function optional(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function e2eEnv(): E2eEnv {
  const baseUrl = optional('VAULT_E2E_BASE_URL');
  if (!baseUrl) {
    throw new Error(
      'VAULT_E2E_BASE_URL is not set. The API end-to-end tests need the running stack: run `node scripts/e2e.mjs`.',
    );
  }
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    logDir: optional('VAULT_E2E_LOG_DIR'),
    redisUrl: optional('VAULT_E2E_REDIS_URL'),
    redisPrefix: optional('VAULT_E2E_REDIS_PREFIX'),
    databaseUrl: optional('VAULT_E2E_DATABASE_URL'),
    storageRoot: optional('VAULT_E2E_STORAGE_ROOT'),
  };
}

/** Stack settings the harness starts the services with during e2e (scripts/e2e.mjs). */
export const STACK = {
  lockoutThreshold: 5,
  lockoutSeconds: 600,
  refreshReuseGraceSeconds: Number(process.env['VAULT_E2E_REFRESH_GRACE_SECONDS'] ?? 2),
  accessTokenTtlSeconds: 900,
  /**
   * Failed sign-ins after which the right password from a new device needs emergency verification: the
   * auth default EMERGENCY_FAILED_ATTEMPTS (3 in 15 minutes, apps/auth README "Emergency verification"),
   * which scripts/e2e.mjs leaves as it is.
   */
  emergencyFailedAttempts: 3,
} as const;

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
