import {
  envInt,
  DEFAULT_RPC_PORTS,
  DEFAULT_SECRET_HASH,
  loadConfig,
  maskConfig,
  readSecret,
  rpcServiceConfig,
  rpcServiceEnvSchema,
  type RpcServiceConfig,
  type SecretHashParams,
} from '@vault/server-kit';
import { join, resolve } from 'node:path';
import { z } from 'zod';

/** Relative data paths (local mode) are taken from the repository root, like the scan worker's. */
const CONFIG_ROOT = resolve(__dirname, '..', '..', '..', '..');

/**
 * The auth service's configuration. Only this folder reads the environment; everything
 * else receives a typed `AuthConfig` (docs/architecture.md "Code conventions"). Each variable is described
 * in apps/auth/README.md.
 */

/** PEM text; env files often carry it on one line with literal "\n", which is accepted. */
const pem = (label: 'PRIVATE KEY' | 'PUBLIC KEY', name: string) =>
  z
    .string({ error: `${name} or ${name}_FILE is required` })
    .transform((v) => v.replace(/\\n/g, '\n').trim())
    .refine((v) => v.includes(`-----BEGIN ${label}-----`) && v.includes(`-----END ${label}-----`), {
      message: `must be a ${label === 'PRIVATE KEY' ? 'PKCS8' : 'SPKI'} PEM ("-----BEGIN ${label}-----")`,
    });

/** Recovery and its mail (apps/auth/README.md "Recovery"). */
const recoveryEnvShape = {
  MAIL_TRANSPORT: z.enum(['log', 'smtp']).default('log'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Vault <no-reply@vault.localhost>'),
  VAULT_DATA_DIR: z.string().min(1).default('.data'),
  MAIL_DIR: z.string().min(1).optional(),
  RECOVERY_CODE_TTL_SECONDS: envInt(1, 24 * 3600).default(900),
  RECOVERY_BYPASS_TTL_SECONDS: envInt(1, 24 * 3600).default(600),
  RECOVERY_CODE_EMAIL_MAX: envInt(1).default(3),
  RECOVERY_CODE_IP_MAX: envInt(1).default(20),
  RECOVERY_CODE_WINDOW_SECONDS: envInt(1).default(900),
  RECOVERY_VERIFY_MAX_FAILURES: envInt(1).default(5),
  RECOVERY_VERIFY_WINDOW_SECONDS: envInt(1).default(3600),
};

export const authEnvSchema = rpcServiceEnvSchema.extend({
  AUTH_RPC_HOST: z.string().min(1).default('127.0.0.1'),
  AUTH_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.auth),
  JWT_PRIVATE_KEY: pem('PRIVATE KEY', 'JWT_PRIVATE_KEY'),
  JWT_PUBLIC_KEY: pem('PUBLIC KEY', 'JWT_PUBLIC_KEY'),
  SERVER_SECRET: z
    .string({ error: 'SERVER_SECRET or SERVER_SECRET_FILE is required' })
    .min(32, 'must be at least 32 characters'),
  ACCESS_TOKEN_TTL_SECONDS: envInt(30, 24 * 3600).default(900),
  REFRESH_TTL_SECONDS: envInt(60).default(2_592_000),
  REFRESH_REUSE_GRACE_SECONDS: envInt(0, 300).default(10),
  LOCKOUT_THRESHOLD: envInt(1, 1000).default(5),
  LOCKOUT_SECONDS: envInt(1).default(600),
  LOGIN_IP_MAX_FAILURES: envInt(1).default(50),
  LOGIN_IP_WINDOW_SECONDS: envInt(1).default(900),
  // Unusual-activity rule (apps/auth/README.md "Emergency verification"); 0 failures turns it off.
  EMERGENCY_FAILED_ATTEMPTS: envInt(0, 1000).default(3),
  EMERGENCY_WINDOW_SECONDS: envInt(1).default(900),
  KNOWN_DEVICE_TTL_SECONDS: envInt(60).default(15_552_000),
  // The admin console's session (apps/auth/README.md "The admin session").
  ADMIN_SESSION_IDLE_MINUTES: envInt(1, 24 * 60).default(20),
  ADMIN_SESSION_MAX_HOURS: envInt(1, 7 * 24).default(8),
  // Production defaults are OWASP's Argon2id minimum; tests may go lower to run fast.
  SECRET_HASH_MEMORY_KIB: envInt(1024, 4 * 1024 * 1024).default(DEFAULT_SECRET_HASH.memoryKiB),
  SECRET_HASH_ITERATIONS: envInt(1, 100).default(DEFAULT_SECRET_HASH.iterations),
  SECRET_HASH_PARALLELISM: envInt(1, 64).default(DEFAULT_SECRET_HASH.parallelism),
  ...recoveryEnvShape,
});
export type AuthEnv = z.output<typeof authEnvSchema>;

export interface AuthConfig extends RpcServiceConfig<AuthEnv> {
  jwt: { privateKeyPem: string; publicKeyPem: string; accessTtlSeconds: number };
  serverSecret: string;
  refresh: { ttlSeconds: number; reuseGraceSeconds: number };
  lockout: { threshold: number; seconds: number };
  loginIpThrottle: { maxFailures: number; windowSeconds: number };
  /** The unusual-activity rule behind the 418 (unusual-activity.service.ts). */
  emergency: { failedAttempts: number; windowSeconds: number; knownDeviceTtlSeconds: number };
  secretHash: SecretHashParams;
  /** The admin console's session: ends after `idleMs` unused, and `maxMs` after sign-in whatever happens. */
  adminSession: { idleMs: number; maxMs: number };
  /** Recovery-code mail: `log` writes .eml files under `dir`, `smtp` sends through `smtpUrl`. */
  mail: { transport: 'log' | 'smtp'; smtpUrl?: string; from: string; dir: string };
  recovery: {
    codeTtlSeconds: number;
    bypassTtlSeconds: number;
    /** email-code requests per e-mail address and per IP in `codeWindowSeconds`. */
    codeEmailMax: number;
    codeIpMax: number;
    codeWindowSeconds: number;
    /** Failed verify-key / verify-questions per account in `verifyWindowSeconds`, then refused. */
    verifyMaxFailures: number;
    verifyWindowSeconds: number;
  };
}

type Env = Record<string, string | undefined>;

/**
 * Fills `NAME` from `NAME_FILE` (Docker/Kubernetes secrets). Unreadable files are reported
 * together with every other problem, not one at a time.
 */
function withFileSecrets(env: Env, names: readonly string[]): { env: Env; problems: string[] } {
  const out: Env = { ...env };
  const problems: string[] = [];
  for (const name of names) {
    try {
      out[name] = readSecret(env, name);
    } catch (error) {
      const code =
        typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'unreadable';
      problems.push(`  ${name}_FILE: cannot read the file (${code})`);
      out[name] = undefined;
    }
  }
  return { env: out, problems };
}

export const FILE_SECRETS = ['JWT_PRIVATE_KEY', 'JWT_PUBLIC_KEY', 'SERVER_SECRET'] as const;

export function toAuthConfig(env: AuthEnv): AuthConfig {
  if (env.MAIL_TRANSPORT === 'smtp' && !env.SMTP_URL) {
    throw new Error('Invalid configuration:\n  SMTP_URL: required when MAIL_TRANSPORT=smtp');
  }
  return {
    ...rpcServiceConfig(env, { host: env.AUTH_RPC_HOST, port: env.AUTH_RPC_PORT }),
    jwt: {
      privateKeyPem: env.JWT_PRIVATE_KEY,
      publicKeyPem: env.JWT_PUBLIC_KEY,
      accessTtlSeconds: env.ACCESS_TOKEN_TTL_SECONDS,
    },
    serverSecret: env.SERVER_SECRET,
    refresh: { ttlSeconds: env.REFRESH_TTL_SECONDS, reuseGraceSeconds: env.REFRESH_REUSE_GRACE_SECONDS },
    lockout: { threshold: env.LOCKOUT_THRESHOLD, seconds: env.LOCKOUT_SECONDS },
    loginIpThrottle: { maxFailures: env.LOGIN_IP_MAX_FAILURES, windowSeconds: env.LOGIN_IP_WINDOW_SECONDS },
    emergency: {
      failedAttempts: env.EMERGENCY_FAILED_ATTEMPTS,
      windowSeconds: env.EMERGENCY_WINDOW_SECONDS,
      knownDeviceTtlSeconds: env.KNOWN_DEVICE_TTL_SECONDS,
    },
    adminSession: {
      idleMs: env.ADMIN_SESSION_IDLE_MINUTES * 60_000,
      maxMs: env.ADMIN_SESSION_MAX_HOURS * 3_600_000,
    },
    secretHash: {
      memoryKiB: env.SECRET_HASH_MEMORY_KIB,
      iterations: env.SECRET_HASH_ITERATIONS,
      parallelism: env.SECRET_HASH_PARALLELISM,
    },
    mail: {
      transport: env.MAIL_TRANSPORT,
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      dir: resolve(CONFIG_ROOT, env.MAIL_DIR ?? join(env.VAULT_DATA_DIR, 'mail')),
    },
    recovery: {
      codeTtlSeconds: env.RECOVERY_CODE_TTL_SECONDS,
      bypassTtlSeconds: env.RECOVERY_BYPASS_TTL_SECONDS,
      codeEmailMax: env.RECOVERY_CODE_EMAIL_MAX,
      codeIpMax: env.RECOVERY_CODE_IP_MAX,
      codeWindowSeconds: env.RECOVERY_CODE_WINDOW_SECONDS,
      verifyMaxFailures: env.RECOVERY_VERIFY_MAX_FAILURES,
      verifyWindowSeconds: env.RECOVERY_VERIFY_WINDOW_SECONDS,
    },
  };
}

/** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
export function loadAuthConfig(env: Env = process.env): AuthConfig {
  const resolved = withFileSecrets(env, FILE_SECRETS);
  try {
    return toAuthConfig(loadConfig(authEnvSchema, resolved.env));
  } catch (error) {
    if (resolved.problems.length === 0 || !(error instanceof Error)) throw error;
    throw new Error(`${error.message}\n${resolved.problems.join('\n')}`, { cause: error });
  }
}

/** Numeric settings whose names merely contain "SECRET" or "TOKEN": safe to show. */
const NOT_SECRET = [
  'ACCESS_TOKEN_TTL_SECONDS',
  'SECRET_HASH_MEMORY_KIB',
  'SECRET_HASH_ITERATIONS',
  'SECRET_HASH_PARALLELISM',
] as const;

/** The configuration as it may appear in logs: keys, secrets and URL passwords masked. */
export function describeConfig(config: AuthConfig): Record<string, unknown> {
  const masked = maskConfig({ ...config.env });
  for (const key of NOT_SECRET) masked[key] = config.env[key];
  return masked;
}
