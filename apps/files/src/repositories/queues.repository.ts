import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  SCAN_QUEUE,
  SCAN_RESULT_QUEUE,
  scanFileResultSchema,
  type ScanFileJob,
  type ScanFileResult,
} from '@vault/contracts';
import { createQueueConnection, queuePrefix } from '@vault/server-kit';
import { Queue, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import type { FilesConfig } from '../config/files.config';
import { FILES_CONFIG } from './connections';

/** The files service's own maintenance queue (the cleanup of abandoned uploads runs on it). */
export const FILES_MAINTENANCE_QUEUE = 'files-maintenance';
const CLEANUP_JOB = 'cleanup-abandoned-uploads';

/**
 * BullMQ for the files service: queues a scan when an upload completes, consumes the scan
 * worker's verdicts, and runs the scheduled cleanup. One job scheduler means one cleanup per
 * interval however many replicas run.
 */
@Injectable()
export class QueuesRepository implements OnApplicationShutdown {
  private readonly logger = new Logger(QueuesRepository.name);
  private readonly connection: Redis;
  private readonly prefix: string;
  private readonly scanQueue: Queue;
  private readonly maintenanceQueue: Queue;
  private readonly workers: Worker[] = [];
  /** Connections of our own making (BullMQ leaves a connection it was given open on close). */
  private readonly connections: Redis[] = [];

  constructor(@Inject(FILES_CONFIG) private readonly config: FilesConfig) {
    this.connection = createQueueConnection(config.redis.url);
    this.prefix = queuePrefix(config.redis.prefix);
    this.scanQueue = new Queue(SCAN_QUEUE, { connection: this.connection, prefix: this.prefix });
    this.maintenanceQueue = new Queue(FILES_MAINTENANCE_QUEUE, {
      connection: this.connection,
      prefix: this.prefix,
    });
  }

  /**
   * One scan per file (jobId de-duplicates a repeated upload-complete). A job carrying a
   * plaintext fingerprint is removed as soon as it ends, so the fingerprint is kept nowhere.
   */
  async queueScan(job: ScanFileJob): Promise<void> {
    const fingerprinted = job.plaintextSha256 !== undefined;
    await this.scanQueue.add('scan-file', job, {
      jobId: job.fileId,
      attempts: 5,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: fingerprinted ? true : 1_000,
      removeOnFail: fingerprinted ? true : 1_000,
    });
  }

  /** Consumes the scan worker's verdicts. */
  consumeScanResults(handle: (result: ScanFileResult) => Promise<void>): void {
    const worker = new Worker(
      SCAN_RESULT_QUEUE,
      async (job: Job) => {
        const parsed = scanFileResultSchema.safeParse(job.data);
        if (!parsed.success) {
          this.logger.warn(`Dropped a malformed scan result (job ${job.id ?? '?'})`);
          return;
        }
        await handle(parsed.data);
      },
      { connection: this.ownConnection(), prefix: this.prefix, concurrency: 4 },
    );
    worker.on('error', (error) => this.logger.warn(`Scan result worker: ${error.message}`));
    this.workers.push(worker);
  }

  /** Runs `cleanup` every `everyMs` across all replicas (a BullMQ job scheduler). */
  async scheduleCleanup(everyMs: number, cleanup: () => Promise<number>): Promise<void> {
    await this.maintenanceQueue.upsertJobScheduler(CLEANUP_JOB, { every: everyMs }, { name: CLEANUP_JOB });
    const worker = new Worker(
      FILES_MAINTENANCE_QUEUE,
      async (job: Job) => {
        if (job.name !== CLEANUP_JOB) return 0;
        const removed = await cleanup();
        if (removed > 0) this.logger.log(`Removed ${removed} abandoned upload(s)`);
        return removed;
      },
      { connection: this.ownConnection(), prefix: this.prefix, concurrency: 1 },
    );
    worker.on('error', (error) => this.logger.warn(`Maintenance worker: ${error.message}`));
    this.workers.push(worker);
  }

  private ownConnection(): Redis {
    const connection = this.connection.duplicate();
    this.connections.push(connection);
    return connection;
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.workers.map((w) => w.close()));
    await Promise.allSettled([this.scanQueue.close(), this.maintenanceQueue.close()]);
    for (const connection of [...this.connections, this.connection]) connection.disconnect();
  }
}
