import {
  plainRpcServiceConfig,
  type PlainRpcServiceConfig,
  type PlainRpcServiceEnv,
} from '@vault/server-kit';

/**
 * The admin service's configuration. Only this folder reads the environment; everything else
 * receives a typed `AdminConfig` (docs/architecture.md "Code conventions"). Each variable is
 * described in apps/admin/README.md. Nothing of its own yet: Redis holds auth's sessions, which
 * the console's calls will re-check, and the database URL's password is its only sensitive value.
 */
const admin = plainRpcServiceConfig('admin');

export type AdminConfig = PlainRpcServiceConfig;
export type AdminEnv = PlainRpcServiceEnv;
export const adminEnvSchema = admin.envSchema;
export const loadAdminConfig = admin.load;
export const describeConfig = admin.describe;

type Env = Record<string, string | undefined>;

/** The environment of the admin commands (src/cli): they read only DATABASE_URL and DB_POOL_SIZE. */
export function commandEnv(env: Env = process.env): Env {
  return { DATABASE_URL: env.DATABASE_URL, DB_POOL_SIZE: env.DB_POOL_SIZE };
}
