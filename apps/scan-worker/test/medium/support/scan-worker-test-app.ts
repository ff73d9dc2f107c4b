import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import {
  FILE_CHUNK_SIZE,
  SCAN_QUEUE,
  SCAN_RESULT_QUEUE,
  expectedEncryptedSize,
  type ScanFileJob,
  type ScanFileResult,
} from '@vault/contracts';
import { PinoNestLogger, SCAN_FILE_JOB } from '@vault/server-kit';
import { captureLogs, createTestRedis, type TestRedis } from '@vault/server-kit/testing';
import { Queue, type Job } from 'bullmq';
import Redis from 'ioredis';
import type { ScanWorkerOverrides } from '../../../src/app.module';
import { startScanWorker } from '../../../src/bootstrap';
import { loadScanWorkerConfig, type ScanWorkerConfig } from '../../../src/config/scan-worker.config';

/**
 * The real scan worker (Nest context + BullMQ worker) against real Redis under a private key
 * prefix, with objects on a local disk folder, clamd wherever `clamd` points, and a producer
 * queue playing the files service. Verdicts are read from SCAN_RESULT_QUEUE (nobody consumes
 * them here, so they stay as waiting jobs with id = file id).
 */
export interface ScanWorkerTestApp {
  config: ScanWorkerConfig;
  redis: TestRedis;
  storageRoot: string;
  scanQueue: Queue;
  resultQueue: Queue;
  logs: string[];
  /** Writes an object of `encryptedSize` bytes for a fresh file and returns its job payload. */
  storeObject(opts: StoreOptions): Promise<ScanFileJob>;
  enqueue(job: ScanFileJob, jobId?: string): Promise<Job>;
  /** The verdict published for a file (waits for it). */
  result(fileId: string, timeoutMs?: number): Promise<ScanFileResult>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Plaintext size; the object is `expectedEncryptedSize(size)` bytes unless `storedBytes` is given. */
  size: number;
  /** Bytes placed at `at` (default: the middle of the object). */
  insert?: { bytes: Buffer; at?: number | 'end' };
  storedBytes?: number;
}

export interface TestAppOptions {
  clamd: { host: string; port: number };
  env?: Record<string, string>;
  /** Replaces or wraps the object readers (given the configuration the worker runs with). */
  overrides?: (config: ScanWorkerConfig) => ScanWorkerOverrides;
}

export async function startScanWorkerTestApp(
  label: string,
  opts: TestAppOptions,
): Promise<ScanWorkerTestApp> {
  const redis = await createTestRedis(`scan-${label}`);
  const storageRoot = mkdtempSync(join(tmpdir(), `vault-scan-${label}-`));
  const config = loadScanWorkerConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    REDIS_URL: redis.url,
    REDIS_PREFIX: redis.prefix,
    CLAMD_HOST: opts.clamd.host,
    CLAMD_PORT: String(opts.clamd.port),
    CLAMD_TIMEOUT_MS: '20000',
    SCAN_CONCURRENCY: '2',
    SCAN_ATTEMPTS: '3',
    SCAN_BACKOFF_MS: '50',
    STORAGE_LOCAL_ROOT: storageRoot,
    STORAGE_SIGNING_SECRET: randomBytes(32).toString('base64url'),
    ...opts.env,
  });

  const { logs, logger } = captureLogs('scan-worker');
  const app: INestApplicationContext = await startScanWorker(
    config,
    new PinoNestLogger(logger),
    opts.overrides?.(config),
  );

  const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
  const queueOpts = { connection, prefix: config.redis.queuePrefix };
  const scanQueue = new Queue(SCAN_QUEUE, queueOpts);
  const resultQueue = new Queue(SCAN_RESULT_QUEUE, queueOpts);

  return {
    config,
    redis,
    storageRoot,
    scanQueue,
    resultQueue,
    logs,
    async storeObject({ size, insert, storedBytes }) {
      const fileId = randomUUID();
      const ownerId = randomUUID();
      const objectKey = `${ownerId}/${fileId}`;
      const encryptedSize = expectedEncryptedSize(size, FILE_CHUNK_SIZE);
      await writeObject(join(storageRoot, objectKey), storedBytes ?? encryptedSize, insert);
      return {
        fileId,
        ownerId,
        storageType: 'local',
        objectKey,
        size,
        encryptedSize,
        chunkSize: FILE_CHUNK_SIZE,
      };
    },
    enqueue(job, jobId = job.fileId) {
      return scanQueue.add(SCAN_FILE_JOB, job, { jobId });
    },
    async result(fileId, timeoutMs = 20_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const job = await resultQueue.getJob(fileId);
        if (job) return job.data as ScanFileResult;
        if (Date.now() > until) throw new Error(`No verdict for file ${fileId} within ${timeoutMs} ms`);
        await sleep(25);
      }
    },
    async close() {
      await app.close();
      await scanQueue.close();
      await resultQueue.close();
      connection.disconnect();
      await redis.cleanup();
      rmSync(storageRoot, { recursive: true, force: true });
    },
  };
}

/**
 * Writes `total` pseudo-random bytes (1 MiB blocks, never the whole object in memory), with
 * `insert` placed at its offset.
 */
async function writeObject(path: string, total: number, insert?: StoreOptions['insert']): Promise<void> {
  mkdirSync(dirname(path), { recursive: true });
  if (total < 1024 * 1024) {
    const bytes = randomBytes(total);
    if (insert) placeInto(bytes, insert, total, 0);
    writeFileSync(path, bytes);
    return;
  }
  const block = 1024 * 1024;
  const random = randomBytes(block);
  const out = createWriteStream(path);
  for (let offset = 0; offset < total; offset += block) {
    const n = Math.min(block, total - offset);
    const chunk = Buffer.from(random.subarray(0, n));
    if (insert) placeInto(chunk, insert, total, offset);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function placeInto(
  chunk: Buffer,
  insert: NonNullable<StoreOptions['insert']>,
  total: number,
  offset: number,
): void {
  const at =
    insert.at === 'end'
      ? total - insert.bytes.length
      : (insert.at ?? Math.floor((total - insert.bytes.length) / 2));
  for (let i = 0; i < insert.bytes.length; i += 1) {
    const pos = at + i - offset;
    if (pos >= 0 && pos < chunk.length) chunk[pos] = insert.bytes[i] as number;
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The EICAR test string our signature database detects (scripts/lib/clamd.mjs). */
export const EICAR = Buffer.from('EICAR-STANDARD-ANTIVIRUS-TEST-FILE', 'latin1');
