import {
  envInt,
  loadConfig,
  maskConfig,
  plainRpcServiceConfig,
  rpcPeersEnvShape,
  rpcPeersFromEnv,
  rpcServiceConfig,
  type PlainRpcServiceEnv,
  type RpcPeersConfig,
  type RpcServiceConfig,
} from '@vault/server-kit';
import { resolve } from 'node:path';
import { z } from 'zod';
import { testRunChildEnv } from '../test-runner/child-env';

/**
 * The admin service's configuration. Only this folder reads the environment; everything else
 * receives a typed `AdminConfig` (docs/architecture.md "Code conventions"). Each variable is
 * described in apps/admin/README.md. Besides its own listener it names the services the console's
 * calls ask (auth, notes, files) and, optionally, clamd for the system health.
 */
const admin = plainRpcServiceConfig('admin');

const { ADMIN_RPC_HOST: _host, ADMIN_RPC_PORT: _port, ...peerShape } = rpcPeersEnvShape;

const ownShape = {
  ...peerShape,
  RPC_TIMEOUT_MS: envInt(100, 600_000).default(10_000),
  // The scan worker's names; unset host: the health reports clamd as not configured.
  CLAMD_HOST: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  CLAMD_PORT: envInt(1, 65535).default(3310),
  // The server test runner (issue 15): off unless turned on; it needs a source checkout.
  TEST_RUNNER_ENABLED: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  TEST_RUNNER_ROOT: z
    .string()
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : undefined)),
  TEST_RUNNER_TIMEOUT_SECONDS: envInt(10, 7200).default(1800),
};
export const adminEnvSchema = admin.envSchema.extend(ownShape);
export type AdminEnv = PlainRpcServiceEnv & z.output<z.ZodObject<typeof ownShape>>;

export interface AdminConfig extends RpcServiceConfig<AdminEnv> {
  /** The services the console's calls ask. */
  peers: RpcPeersConfig;
  clamd: { host: string; port: number } | undefined;
  /** The server test runner (src/test-runner). */
  testRunner: {
    enabled: boolean;
    /** The source checkout the suites run in (jest.config.js, node_modules). */
    root: string;
    timeoutMs: number;
    /** The only variables a run's process gets: a few of ours (PATH, HOME, ...), never a secret. */
    childEnv: Record<string, string>;
  };
}

type Env = Record<string, string | undefined>;

/** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
export function loadAdminConfig(env: Env = process.env): AdminConfig {
  const e = loadConfig(adminEnvSchema, env) as AdminEnv;
  return {
    ...rpcServiceConfig(e, { host: e.ADMIN_RPC_HOST as string, port: e.ADMIN_RPC_PORT as number }),
    peers: {
      transport: e.RPC_TRANSPORT,
      natsUrl: e.NATS_URL,
      timeoutMs: e.RPC_TIMEOUT_MS,
      peers: rpcPeersFromEnv(e, ['auth', 'notes', 'files']),
    },
    clamd: e.CLAMD_HOST ? { host: e.CLAMD_HOST, port: e.CLAMD_PORT } : undefined,
    testRunner: {
      enabled: e.TEST_RUNNER_ENABLED,
      // Local mode starts every service with the repository as its working directory.
      root: resolve(e.TEST_RUNNER_ROOT ?? process.cwd()),
      timeoutMs: e.TEST_RUNNER_TIMEOUT_SECONDS * 1000,
      childEnv: testRunChildEnv(env),
    },
  };
}

/** The configuration as it may appear in logs: URL passwords masked. */
export function describeConfig(config: AdminConfig): Record<string, unknown> {
  return maskConfig({ ...config.env });
}

/** The environment of the admin commands (src/cli): they read only DATABASE_URL and DB_POOL_SIZE. */
export function commandEnv(env: Env = process.env): Env {
  return { DATABASE_URL: env.DATABASE_URL, DB_POOL_SIZE: env.DB_POOL_SIZE };
}
