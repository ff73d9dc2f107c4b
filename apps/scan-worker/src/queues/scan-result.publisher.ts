import { Inject, Injectable } from '@nestjs/common';
import { SCAN_RESULT_QUEUE, scanFileResultSchema, type ScanFileResult } from '@vault/contracts';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import { SCAN_WORKER_CONFIG, type ScanWorkerConfig } from '../config/scan-worker.config';
import { QUEUE_CONNECTION } from './connections';

/** The job name of a verdict on SCAN_RESULT_QUEUE (the files service consumes it). */
export const SCAN_RESULT_JOB = 'scan-file-result';

/**
 * Publishes verdicts on SCAN_RESULT_QUEUE for the files service, which owns the results.
 * The job id is the file id: while a verdict for a file waits to be consumed, another one is
 * a no-op (BullMQ de-duplicates by id), so retries and duplicate scans publish once.
 */
@Injectable()
export class ScanResultPublisher {
  readonly queue: Queue;

  constructor(
    @Inject(QUEUE_CONNECTION) connection: Redis,
    @Inject(SCAN_WORKER_CONFIG) config: ScanWorkerConfig,
  ) {
    this.queue = new Queue(SCAN_RESULT_QUEUE, {
      connection,
      prefix: config.redis.queuePrefix,
      defaultJobOptions: {
        removeOnComplete: true,
        // Kept a week for inspection; the files service retries its own failures first.
        removeOnFail: { age: 7 * 24 * 3600 },
        attempts: 5,
        backoff: { type: 'exponential', delay: 1000 },
      },
    });
  }

  async publish(result: ScanFileResult): Promise<void> {
    const verdict = scanFileResultSchema.parse(result);
    await this.queue.add(SCAN_RESULT_JOB, verdict, { jobId: verdict.fileId });
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
