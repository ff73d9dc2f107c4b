import { resolve } from 'node:path';
import { commonEnvSchema, envInt, loadConfig, maskConfig, queuePrefix } from '@vault/server-kit';
import { describeStorage, storageOptionsFromEnv, type StorageOptions } from '@vault/storage';
import { z } from 'zod';

/**
 * The scan worker's configuration. Only this folder reads the environment; everything else receives a
 * typed `ScanWorkerConfig` (docs/architecture.md "Code conventions"). Each variable is described in
 * apps/scan-worker/README.md. The storage variables are the files service's, read by the shared
 * parser of @vault/storage (`storageOptionsFromEnv`); their secrets never reach the log.
 */

/** The repository root (this file is apps/scan-worker/{src,dist}/config/). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');

export const scanWorkerEnvSchema = commonEnvSchema.extend({
  CLAMD_HOST: z.string().min(1).default('127.0.0.1'),
  CLAMD_PORT: envInt(1, 65535).default(3310),
  /** Connect and idle limit of one clamd conversation. */
  CLAMD_TIMEOUT_MS: envInt(100, 600_000).default(30_000),
  /** clamd's DatabaseDirectory: its .hdb/.hsb hash signatures serve the opt-in plaintext fingerprint check. */
  CLAMD_DATABASE_DIR: z.string().min(1).optional(),
  SCAN_CONCURRENCY: envInt(1, 64).default(2),
  /** Tries per job while clamd or the storage does not answer; the last failure answers `error`. */
  SCAN_ATTEMPTS: envInt(1, 100).default(5),
  /** First retry delay; each further retry waits twice as long. */
  SCAN_BACKOFF_MS: envInt(0, 3_600_000).default(5_000),
});
export type ScanWorkerEnv = z.output<typeof scanWorkerEnvSchema>;

export interface ClamdConfig {
  host: string;
  port: number;
  timeoutMs: number;
  /** Unset: plaintext fingerprints are not checked (the badge says so). */
  databaseDir?: string;
}

export interface ScanWorkerConfig {
  nodeEnv: ScanWorkerEnv['NODE_ENV'];
  log: { level: string; pretty: boolean };
  /**
   * Redis: the per-file scan locks under `prefix`; BullMQ's queues under `queuePrefix`
   * (server-kit's `queuePrefix(REDIS_PREFIX)`, `vault:bull` by default, as the files service).
   */
  redis: { url: string; prefix: string; queuePrefix: string };
  clamd: ClamdConfig;
  scan: { concurrency: number; attempts: number; backoffMs: number };
  /** The drivers to read objects with, by the job's `storageType` (@vault/storage). */
  storage: StorageOptions;
  /** Optional HTTP probe listener. */
  health: { host: string; port?: number };
  /** The validated variables, for the masked boot log. */
  env: ScanWorkerEnv;
}

type Env = Record<string, string | undefined>;

/**
 * Storage from the environment, as the files service reads it. A relative STORAGE_LOCAL_ROOT
 * (default `.data/files`) is taken from the repository root, where local mode runs everything.
 */
export function toStorageOptions(raw: Env): StorageOptions {
  const localRoot = resolve(REPO_ROOT, raw.STORAGE_LOCAL_ROOT || '.data/files');
  return storageOptionsFromEnv({ ...raw, STORAGE_LOCAL_ROOT: localRoot });
}

export function toScanWorkerConfig(env: ScanWorkerEnv, storage: StorageOptions): ScanWorkerConfig {
  return {
    nodeEnv: env.NODE_ENV,
    log: { level: env.LOG_LEVEL, pretty: env.LOG_PRETTY },
    redis: { url: env.REDIS_URL, prefix: env.REDIS_PREFIX, queuePrefix: queuePrefix(env.REDIS_PREFIX) },
    clamd: {
      host: env.CLAMD_HOST,
      port: env.CLAMD_PORT,
      timeoutMs: env.CLAMD_TIMEOUT_MS,
      ...(env.CLAMD_DATABASE_DIR ? { databaseDir: resolve(REPO_ROOT, env.CLAMD_DATABASE_DIR) } : {}),
    },
    scan: { concurrency: env.SCAN_CONCURRENCY, attempts: env.SCAN_ATTEMPTS, backoffMs: env.SCAN_BACKOFF_MS },
    storage,
    health: { host: env.HEALTH_HOST, port: env.HEALTH_PORT },
    env,
  };
}

/** The lines after the first of an `Invalid ... configuration:` message, indented alike. */
function problemsOf(error: unknown): string[] {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n');
  return (lines.length > 1 ? lines.slice(1) : lines).map((line) => `  ${line.replace(/^\s*(- )?/, '')}`);
}

/**
 * Reads and validates the environment once; throws `Invalid configuration: ...` listing every
 * problem, the worker's own variables and the storage's together.
 */
export function loadScanWorkerConfig(env: Env = process.env): ScanWorkerConfig {
  const problems: string[] = [];
  let parsed: ScanWorkerEnv | undefined;
  let storage: StorageOptions | undefined;
  try {
    parsed = loadConfig(scanWorkerEnvSchema, env);
  } catch (error) {
    problems.push(...problemsOf(error));
  }
  try {
    storage = toStorageOptions(env);
  } catch (error) {
    problems.push(...problemsOf(error));
  }
  if (!parsed || !storage) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  return toScanWorkerConfig(parsed, storage);
}

/** The configuration as it may appear in logs: secrets and URL passwords masked, storage by driver. */
export function describeConfig(config: ScanWorkerConfig): Record<string, unknown> {
  return { ...maskConfig({ ...config.env }), storage: describeStorage(config.storage) };
}

/** DI token of the validated configuration. */
export const SCAN_WORKER_CONFIG = Symbol('SCAN_WORKER_CONFIG');
