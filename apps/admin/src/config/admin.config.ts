import {
  envInt,
  DEFAULT_RPC_PORTS,
  loadConfig,
  maskConfig,
  rpcServiceConfig,
  rpcServiceEnvSchema,
  type RpcServiceConfig,
} from '@vault/server-kit';
import { z } from 'zod';

/**
 * The admin service's configuration. Only this folder reads the environment; everything
 * else receives a typed `AdminConfig` (docs/architecture.md "Code conventions"). Each variable is described
 * in apps/admin/README.md. The service holds no secret of its own: the database URL's
 * password is the only sensitive value, and it is masked in logs.
 */

export const adminEnvSchema = rpcServiceEnvSchema.extend({
  ADMIN_RPC_HOST: z.string().min(1).default('127.0.0.1'),
  ADMIN_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.admin),
});
export type AdminEnv = z.output<typeof adminEnvSchema>;

/** Nothing of its own yet: Redis holds auth's sessions, which the console's calls will re-check. */
export type AdminConfig = RpcServiceConfig<AdminEnv>;

type Env = Record<string, string | undefined>;

export function toAdminConfig(env: AdminEnv): AdminConfig {
  return rpcServiceConfig(env, { host: env.ADMIN_RPC_HOST, port: env.ADMIN_RPC_PORT });
}

/** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
export function loadAdminConfig(env: Env = process.env): AdminConfig {
  return toAdminConfig(loadConfig(adminEnvSchema, env));
}

/** The configuration as it may appear in logs: URL passwords masked. */
export function describeConfig(config: AdminConfig): Record<string, unknown> {
  return maskConfig({ ...config.env });
}

/** The environment of the admin commands (src/cli): they read only DATABASE_URL and DB_POOL_SIZE. */
export function commandEnv(env: Env = process.env): Env {
  return { DATABASE_URL: env.DATABASE_URL, DB_POOL_SIZE: env.DB_POOL_SIZE };
}
