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
 * The notes service's configuration. Only this folder reads the environment; everything
 * else receives a typed `NotesConfig` (docs/architecture.md "Code conventions"). Each variable is described
 * in apps/notes/README.md. The service holds no secret of its own: the database URL's
 * password is the only sensitive value, and it is masked in logs.
 */

export const notesEnvSchema = rpcServiceEnvSchema.extend({
  NOTES_RPC_HOST: z.string().min(1).default('127.0.0.1'),
  NOTES_RPC_PORT: envInt(1, 65535).default(DEFAULT_RPC_PORTS.notes),
});
export type NotesEnv = z.output<typeof notesEnvSchema>;

/** Nothing of its own: Redis holds auth's sessions, which the service re-checks on every call. */
export type NotesConfig = RpcServiceConfig<NotesEnv>;

type Env = Record<string, string | undefined>;

export function toNotesConfig(env: NotesEnv): NotesConfig {
  return rpcServiceConfig(env, { host: env.NOTES_RPC_HOST, port: env.NOTES_RPC_PORT });
}

/** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
export function loadNotesConfig(env: Env = process.env): NotesConfig {
  return toNotesConfig(loadConfig(notesEnvSchema, env));
}

/** The configuration as it may appear in logs: URL passwords masked. */
export function describeConfig(config: NotesConfig): Record<string, unknown> {
  return maskConfig({ ...config.env });
}
