import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { ScanFileJob, ScanFileResult } from '@vault/contracts';
import {
  CLEANUP_ABANDONED_UPLOADS_JOB,
  JOB_QUEUES,
  JobQueues,
  SCAN_FILE_JOB,
  SCAN_RESULT_JOB,
  runJob,
} from '@vault/server-kit';
import type { FilesConfig } from '../config/files.config';
import { FILES_CONFIG } from './connections';

/**
 * BullMQ for the files service (server-kit JOB_QUEUES): queues a scan when an upload completes,
 * consumes the scan worker's verdicts, and runs the scheduled cleanup. One job scheduler means
 * one cleanup per interval however many replicas run.
 */
@Injectable()
export class QueuesRepository implements OnApplicationShutdown {
  private readonly logger = new Logger(QueuesRepository.name);
  private readonly jobs: JobQueues;

  constructor(@Inject(FILES_CONFIG) config: FilesConfig) {
    this.jobs = JobQueues.connect(config.redis);
  }

  /**
   * One scan per file (its job id is the file id, so a repeated upload-complete queues nothing
   * while the scan waits or runs). A job carrying a plaintext fingerprint is removed as soon as
   * it ends, failed or not, so the fingerprint is kept nowhere.
   */
  async queueScan(job: ScanFileJob): Promise<void> {
    const fingerprinted = job.plaintextSha256 !== undefined;
    await this.jobs
      .queue(JOB_QUEUES.scan)
      .add(SCAN_FILE_JOB, job, fingerprinted ? { removeOnComplete: true, removeOnFail: true } : {});
  }

  /** Consumes the scan worker's verdicts. */
  async consumeScanResults(record: (result: ScanFileResult) => Promise<void>): Promise<void> {
    await this.jobs
      .worker(JOB_QUEUES.scanResult, { [SCAN_RESULT_JOB]: runJob(record) }, { logger: this.logger })
      .start();
  }

  /** Runs `cleanup` every `everyMs` across all replicas (a BullMQ job scheduler). */
  async scheduleCleanup(everyMs: number, cleanup: () => Promise<number>): Promise<void> {
    const removeAbandoned = runJob(async () => {
      const removed = await cleanup();
      if (removed > 0) this.logger.log(`Removed ${removed} abandoned upload(s)`);
      return removed;
    });
    const worker = this.jobs.worker(
      JOB_QUEUES.filesMaintenance,
      { [CLEANUP_ABANDONED_UPLOADS_JOB]: removeAbandoned },
      { logger: this.logger },
    );
    await this.jobs.queue(JOB_QUEUES.filesMaintenance).schedule(CLEANUP_ABANDONED_UPLOADS_JOB, everyMs, {});
    await worker.start();
  }

  ping(): Promise<void> {
    return this.jobs.ping();
  }

  onApplicationShutdown(): Promise<void> {
    return this.jobs.close();
  }
}
