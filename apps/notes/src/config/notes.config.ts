import {
  commonEnvSchema,
  databaseEnvSchema,
  databaseFromEnv,
  envInt,
  DEFAULT_RPC_PORTS,
  loadConfig,
  maskConfig,
  type RpcTransportConfig,
} from '@vault/server-kit';
import { z } from 'zod';

/**
 * The notes service's configuration. Only this folder reads the environment; everything
 * else receives a typed `NotesConfig` (docs/architecture.md "Code conventions"). Each variable is described
 * in apps/notes/README.md. The service holds no secret of its own: the database URL's
 * password is the only sensitive value, and it is masked in logs.
 */

export const notesEnvSchema = commonEnvSchema.extend({
  ...databaseEnvSchema.shape,
  NOTES_RPC_HOST: z.string().min(1).default('127.0.0.1'),
  NOTES_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.notes),
});
export type NotesEnv = z.output<typeof notesEnvSchema>;

export interface NotesConfig {
  nodeEnv: NotesEnv['NODE_ENV'];
  log: { level: string; pretty: boolean };
  database: { url: string; poolSize: number };
  /** Redis holds auth's sessions, which the service re-checks on every call. */
  redis: { url: string; prefix: string };
  rpc: RpcTransportConfig;
  /** Optional HTTP probe listener (Kubernetes with NATS has no TCP port to probe). */
  health: { host: string; port?: number };
  /** The validated variables, for the masked boot log. */
  env: NotesEnv;
}

type Env = Record<string, string | undefined>;

export function toNotesConfig(env: NotesEnv): NotesConfig {
  return {
    nodeEnv: env.NODE_ENV,
    log: { level: env.LOG_LEVEL, pretty: env.LOG_PRETTY },
    database: databaseFromEnv(env),
    redis: { url: env.REDIS_URL, prefix: env.REDIS_PREFIX },
    rpc: {
      transport: env.RPC_TRANSPORT,
      natsUrl: env.NATS_URL,
      host: env.NOTES_RPC_HOST,
      port: env.NOTES_RPC_PORT,
    },
    health: { host: env.HEALTH_HOST, port: env.HEALTH_PORT },
    env,
  };
}

/** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
export function loadNotesConfig(env: Env = process.env): NotesConfig {
  return toNotesConfig(loadConfig(notesEnvSchema, env));
}

/** The configuration as it may appear in logs: URL passwords masked. */
export function describeConfig(config: NotesConfig): Record<string, unknown> {
  return maskConfig({ ...config.env });
}
