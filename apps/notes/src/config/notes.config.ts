import {
  plainRpcServiceConfig,
  type PlainRpcServiceConfig,
  type PlainRpcServiceEnv,
} from '@vault/server-kit';

/**
 * The notes service's configuration. Only this folder reads the environment; everything else
 * receives a typed `NotesConfig` (docs/architecture.md "Code conventions"). Each variable is
 * described in apps/notes/README.md. Nothing of its own: Redis holds auth's sessions, which the
 * service re-checks on every call, and the database URL's password is its only sensitive value.
 */
const notes = plainRpcServiceConfig('notes');

export type NotesConfig = PlainRpcServiceConfig;
export type NotesEnv = PlainRpcServiceEnv;
export const notesEnvSchema = notes.envSchema;
export const loadNotesConfig = notes.load;
export const describeConfig = notes.describe;
