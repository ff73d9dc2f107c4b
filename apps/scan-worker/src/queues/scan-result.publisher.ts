import { Injectable } from '@nestjs/common';
import type { ScanFileResult } from '@vault/contracts';
import { JOB_QUEUES, JobQueues, SCAN_RESULT_JOB, type JobQueue } from '@vault/server-kit';

/**
 * Publishes verdicts on SCAN_RESULT_QUEUE (JOB_QUEUES.scanResult) for the files service, which
 * owns the results. The job id is the file id: while a verdict for a file waits to be consumed,
 * another one is a no-op, so retries and duplicate scans publish once.
 */
@Injectable()
export class ScanResultPublisher {
  private readonly queue: JobQueue<typeof JOB_QUEUES.scanResult.jobs>;

  constructor(jobs: JobQueues) {
    this.queue = jobs.queue(JOB_QUEUES.scanResult);
  }

  async publish(result: ScanFileResult): Promise<void> {
    await this.queue.add(SCAN_RESULT_JOB, result);
  }
}
