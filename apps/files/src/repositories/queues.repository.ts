import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { scanFileJobSchema, type ScanFileJob, type ScanFileResult } from '@vault/contracts';
import {
  CLEANUP_ABANDONED_UPLOADS_JOB,
  JOB_QUEUES,
  JobQueues,
  SCAN_FILE_JOB,
  SCAN_RESULT_JOB,
  runJob,
} from '@vault/server-kit';
import type { Job } from 'bullmq';
import type { FilesConfig } from '../config/files.config';
import { FILES_CONFIG } from './connections';

/** A failed scan job and its payload (ids and sizes; a fingerprint job is never kept). */
export interface FailedScanJob {
  job: Job;
  data: ScanFileJob;
}

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
    // Held from boot, so the scan queue's depth is in /metrics before the first upload.
    this.jobs.queue(JOB_QUEUES.scan);
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

  /**
   * Queues a scan of each file again (a rescan after a signature update): one job per file and
   * run (`rescan-<run>-<file>`), so a batch sent twice queues nothing more, and a failed job kept
   * under the file's own id does not block it. No fingerprint: it was never stored.
   */
  async queueRescans(jobs: readonly ScanFileJob[], runId: string): Promise<number> {
    const added = await this.jobs.queue(JOB_QUEUES.scan).addBulk(
      SCAN_FILE_JOB,
      jobs.map((payload) => ({ payload, options: { jobId: `rescan-${runId}-${payload.fileId}` } })),
    );
    return added.length;
  }

  /** The scan jobs that failed for good and are still kept (7 days, 1,000 at most), newest first. */
  async failedScans(): Promise<FailedScanJob[]> {
    const jobs = await this.jobs.queue(JOB_QUEUES.scan).queue.getFailed(0, -1);
    return jobs
      .flatMap((job) => {
        const data = scanFileJobSchema.safeParse(job.data);
        return data.success ? [{ job, data: data.data }] : [];
      })
      .sort((a, b) => (b.job.finishedOn ?? 0) - (a.job.finishedOn ?? 0));
  }

  /** Runs a failed scan job again (attempts start over); false when none of the file's jobs failed. */
  async retryFailedScan(fileId: string): Promise<boolean> {
    const failed = (await this.failedScans()).find((f) => f.data.fileId === fileId);
    if (!failed) return false;
    await failed.job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return true;
  }

  /** Consumes the scan worker's verdicts. */
  async consumeScanResults(record: (result: ScanFileResult) => Promise<void>): Promise<void> {
    await this.jobs
      .worker(JOB_QUEUES.scanResult, { [SCAN_RESULT_JOB]: runJob(record) }, { logger: this.logger })
      .start();
  }

  /** The cleanup's interval once scheduled, to schedule it again after Redis lost it. */
  private cleanupEveryMs: number | undefined;

  /** Runs `cleanup` every `everyMs` across all replicas (a BullMQ job scheduler). */
  async scheduleCleanup(everyMs: number, cleanup: () => Promise<number>): Promise<void> {
    this.cleanupEveryMs = everyMs;
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

  /**
   * The cleanup's schedule again, for a Redis that came back empty (it held the job scheduler).
   * An upsert: a schedule still there is left as it is, so every replica may ask.
   */
  async restoreSchedules(): Promise<void> {
    if (this.cleanupEveryMs === undefined) return;
    await this.jobs
      .queue(JOB_QUEUES.filesMaintenance)
      .schedule(CLEANUP_ABANDONED_UPLOADS_JOB, this.cleanupEveryMs, {});
  }

  ping(): Promise<void> {
    return this.jobs.ping();
  }

  onApplicationShutdown(): Promise<void> {
    return this.jobs.close();
  }
}
