import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ScanFileJob, ScanFileResult } from '@vault/contracts';
import type { JobContext, JobHandler, JobOutcome } from '@vault/server-kit';
import { SCAN_WORKER_CONFIG, type ScanWorkerConfig } from '../config/scan-worker.config';
import { ScanLocksRepository } from '../queues/scan-locks.repository';
import { ScanResultPublisher } from '../queues/scan-result.publisher';
import { FileScanner, unavailableDetail } from '../scanners/file-scanner.service';

/** How long a file's scan lock lives if its holder dies without releasing it. */
export const SCAN_LOCK_TTL_MS = 10 * 60 * 1000;

export const SCAN_FAILED = 'Scan failed';

/**
 * The handler of SCAN_FILE_JOB (server-kit JOB_QUEUES.scan). Scans one file and publishes the
 * verdict on SCAN_RESULT_QUEUE. Idempotent: the verdict depends only on the stored bytes, and
 * the result job is de-duplicated by file id. A second job for a file whose scan is running
 * does not scan it again (that scan's verdict is the answer). While clamd or the storage does not answer, the job is retried with
 * exponential backoff; after the last try the verdict is `error`.
 */
@Injectable()
export class ScanFileJobHandler implements JobHandler<ScanFileJob> {
  private readonly logger = new Logger('ScanFileJob');

  constructor(
    private readonly scanner: FileScanner,
    private readonly locks: ScanLocksRepository,
    private readonly results: ScanResultPublisher,
    @Inject(SCAN_WORKER_CONFIG) private readonly config: ScanWorkerConfig,
  ) {}

  async handle(job: ScanFileJob, ctx: JobContext): Promise<JobOutcome> {
    const lock = await this.locks.acquire(job.fileId, SCAN_LOCK_TTL_MS);
    if (!lock) {
      this.logger.log(`File ${job.fileId}: a scan is already running (job ${ctx.jobId} skipped)`);
      return { kind: 'done', value: { skipped: 'a scan of this file is already running' } };
    }
    try {
      const outcome = await this.scanner.scan(job);
      let verdict: Omit<ScanFileResult, 'fileId'>;
      if (outcome.kind === 'unavailable') {
        const { attempts, backoffMs } = this.config.scan;
        if (ctx.attempt < attempts) {
          const afterMs = backoffMs * 2 ** (ctx.attempt - 1);
          this.logger.warn(
            `File ${job.fileId}: ${outcome.dependency} unavailable (${outcome.reason}); ` +
              `try ${ctx.attempt} of ${attempts}, next in ${afterMs} ms`,
          );
          return { kind: 'retry', afterMs, reason: outcome.reason };
        }
        verdict = { result: 'error', detail: unavailableDetail(outcome, ctx.attempt) };
      } else {
        verdict = { result: outcome.result, detail: outcome.detail };
      }
      await this.results.publish({ fileId: job.fileId, ...verdict });
      this.logger.log(`File ${job.fileId}: ${verdict.result}`);
      return { kind: 'done', value: { result: verdict.result } };
    } finally {
      await lock.release();
    }
  }

  /** A bug or a lost Redis connection ended the job for good: the file must not stay pending. */
  async onFinalFailure(job: ScanFileJob, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    await this.results.publish({
      fileId: job.fileId,
      result: 'error',
      detail: `${SCAN_FAILED} (${reason.slice(0, 200)}); the scan did not complete.`,
    });
  }
}
