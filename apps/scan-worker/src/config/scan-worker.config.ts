import { resolve } from 'node:path';
import { commonEnvSchema, loadConfig, maskConfig, queuePrefix } from '@vault/server-kit';
import { z } from 'zod';

/**
 * The scan worker's configuration. Only this folder reads the environment; everything else
 * receives a typed `ScanWorkerConfig` (docs/conventions.md #5). Each variable is described in
 * apps/scan-worker/README.md. Secrets (storage credentials) are masked in the boot log.
 */

const int = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max);

/** The repository root (this file is apps/scan-worker/{src,dist}/config/). */
export const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');

export const scanWorkerEnvSchema = commonEnvSchema.extend({
  CLAMD_HOST: z.string().min(1).default('127.0.0.1'),
  CLAMD_PORT: int(1, 65535).default(3310),
  /** Connect and idle limit of one clamd conversation. */
  CLAMD_TIMEOUT_MS: int(100, 600_000).default(30_000),
  SCAN_CONCURRENCY: int(1, 64).default(2),
  /** Tries per job while clamd or the storage does not answer; the last failure answers `error`. */
  SCAN_ATTEMPTS: int(1, 100).default(5),
  /** First retry delay; each further retry waits twice as long. */
  SCAN_BACKOFF_MS: int(0, 3_600_000).default(5_000),
  STORAGE_LOCAL_ROOT: z.string().min(1).default('.data/files'),
});
export type ScanWorkerEnv = z.output<typeof scanWorkerEnvSchema>;

export interface ClamdConfig {
  host: string;
  port: number;
  timeoutMs: number;
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
  storage: { localRoot: string };
  /** Optional HTTP probe listener. */
  health: { host: string; port?: number };
  /** The validated variables, for the masked boot log. */
  env: ScanWorkerEnv;
}

type Env = Record<string, string | undefined>;

export function toScanWorkerConfig(env: ScanWorkerEnv): ScanWorkerConfig {
  return {
    nodeEnv: env.NODE_ENV,
    log: { level: env.LOG_LEVEL, pretty: env.LOG_PRETTY },
    redis: { url: env.REDIS_URL, prefix: env.REDIS_PREFIX, queuePrefix: queuePrefix(env.REDIS_PREFIX) },
    clamd: { host: env.CLAMD_HOST, port: env.CLAMD_PORT, timeoutMs: env.CLAMD_TIMEOUT_MS },
    scan: { concurrency: env.SCAN_CONCURRENCY, attempts: env.SCAN_ATTEMPTS, backoffMs: env.SCAN_BACKOFF_MS },
    storage: { localRoot: resolve(REPO_ROOT, env.STORAGE_LOCAL_ROOT) },
    health: { host: env.HEALTH_HOST, port: env.HEALTH_PORT },
    env,
  };
}

/** Reads and validates the environment once; throws `Invalid configuration: ...` listing every problem. */
export function loadScanWorkerConfig(env: Env = process.env): ScanWorkerConfig {
  return toScanWorkerConfig(loadConfig(scanWorkerEnvSchema, env));
}

/** The configuration as it may appear in logs: secrets and URL passwords masked. */
export function describeConfig(config: ScanWorkerConfig): Record<string, unknown> {
  return maskConfig({ ...config.env });
}

/** DI token of the validated configuration. */
export const SCAN_WORKER_CONFIG = Symbol('SCAN_WORKER_CONFIG');
