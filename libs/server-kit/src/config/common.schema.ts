import { readFileSync } from 'node:fs';
import type { RpcTransportConfig } from '../rpc/rpc-options';
import { z } from 'zod';

/** Environment values shared by every service. */
export const commonEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Every Redis key and BullMQ queue of this deployment starts with it. */
  REDIS_PREFIX: z.string().default('vault:'),
  RPC_TRANSPORT: z.enum(['tcp', 'nats']).default('tcp'),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  /**
   * Optional internal HTTP port for liveness/readiness probes and /metrics (unset: none; 0: any
   * free port, logged at boot, for test stacks).
   */
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HEALTH_HOST: z.string().default('0.0.0.0'),
});
export type CommonEnv = z.output<typeof commonEnvSchema>;

/** Host/port of a service's RPC listener (TCP transport). */
export const rpcEndpointSchema = (prefix: string, defaultPort: number) =>
  z.object({
    [`${prefix}_RPC_HOST`]: z.string().default('127.0.0.1'),
    [`${prefix}_RPC_PORT`]: z.coerce.number().int().min(1).max(65535).default(defaultPort),
  });

export const DEFAULT_RPC_PORTS = { auth: 4001, notes: 4002, files: 4003, admin: 4004 } as const;

/**
 * A secret given either inline (`NAME`) or as a file path (`NAME_FILE`, for Docker and
 * Kubernetes secrets). Returns undefined when neither is set.
 */
export function readSecret(env: Record<string, string | undefined>, name: string): string | undefined {
  const inline = env[name];
  if (inline) return inline;
  const file = env[`${name}_FILE`];
  if (file) return readFileSync(file, 'utf8').trim();
  return undefined;
}

/** A whole number from the environment, within [min, max]. */
export const envInt = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max);

/** The database of a service: all `migrate` needs, and part of every service's schema. */
export const databaseEnvSchema = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .default('postgres://postgres@127.0.0.1:5432/vault'),
  DB_POOL_SIZE: envInt(1, 200).default(10),
});

/** The validated database settings alone (the `migrate` command reads nothing else). */
export function databaseFromEnv(parsed: z.output<typeof databaseEnvSchema>): {
  url: string;
  poolSize: number;
} {
  return { url: parsed.DATABASE_URL, poolSize: parsed.DB_POOL_SIZE };
}

/** The environment of every RPC service (auth, notes, files) before its own variables. */
export const rpcServiceEnvSchema = commonEnvSchema.extend(databaseEnvSchema.shape);
export type RpcServiceEnv = z.output<typeof rpcServiceEnvSchema>;

/** What every RPC service's configuration holds; its own settings come on top. */
export interface RpcServiceConfig<E extends RpcServiceEnv> {
  nodeEnv: E['NODE_ENV'];
  log: { level: string; pretty: boolean };
  database: { url: string; poolSize: number };
  redis: { url: string; prefix: string };
  rpc: RpcTransportConfig;
  /** Optional HTTP probe listener (Kubernetes with NATS has no TCP port to probe). */
  health: { host: string; port?: number };
  /** The validated variables, for the masked boot log. */
  env: E;
}

/** The shared part of an RPC service's configuration: its environment and its listener's host and port. */
export function rpcServiceConfig<E extends RpcServiceEnv>(
  env: E,
  listener: { host: string; port: number },
): RpcServiceConfig<E> {
  return {
    nodeEnv: env.NODE_ENV,
    log: { level: env.LOG_LEVEL, pretty: env.LOG_PRETTY },
    database: databaseFromEnv(env),
    redis: { url: env.REDIS_URL, prefix: env.REDIS_PREFIX },
    rpc: { transport: env.RPC_TRANSPORT, natsUrl: env.NATS_URL, ...listener },
    health: { host: env.HEALTH_HOST, port: env.HEALTH_PORT },
    env,
  };
}
