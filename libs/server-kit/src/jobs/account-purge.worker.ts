import { ACCOUNT_PURGE_JOB, type AccountPurgeJob } from '@vault/contracts';
import type { Job } from 'bullmq';
import { runJob } from './job-registry';
import { JobQueues } from './job-queues';
import type { JobWorker } from './job-worker';
import { JOB_QUEUES } from './queues';

interface PurgeLogger {
  log(message: string): void;
  warn(message: string): void;
}

type PurgeQueue = typeof JOB_QUEUES.purgeNotes;

export interface AccountPurgeWorkerOptions {
  /** One of ACCOUNT_PURGE_QUEUES (libs/contracts account-purge.schema.ts). */
  queue: string;
  redis: { url: string; prefix: string };
  /** Deletes everything the user owns in this service; idempotent, returns how many went. */
  purge: (userId: string) => Promise<number>;
  /** What is counted in the log line ("note", "file"). */
  noun: string;
  logger: PurgeLogger;
}

/**
 * The consuming side of auth's account-purge jobs (JOB_QUEUES.purgeNotes / purgeFiles), shared by
 * every service that owns user data. A failed purge throws, so BullMQ retries it with the queue's
 * backoff; the purge is idempotent, so a replay is harmless. A malformed job is dropped, not retried.
 */
export class AccountPurgeWorker {
  private readonly jobs: JobQueues;
  private readonly worker: JobWorker<PurgeQueue['jobs']>;

  constructor(private readonly options: AccountPurgeWorkerOptions) {
    const definition = [JOB_QUEUES.purgeNotes, JOB_QUEUES.purgeFiles].find((q) => q.name === options.queue);
    if (!definition) throw new Error(`No account purge queue is named ${options.queue}`);
    const { logger } = options;
    this.jobs = JobQueues.connect(options.redis);
    const purge = runJob((job: AccountPurgeJob) => this.purge(job));
    const jobLogger = { log: (m: string) => logger.log(m), warn: (m: string) => logger.warn(m) };
    this.worker = this.jobs.worker(
      definition,
      { [ACCOUNT_PURGE_JOB]: purge },
      { logger: { ...jobLogger, error: jobLogger.warn } },
    );
  }

  start(): void {
    this.worker.start().catch((error: unknown) => {
      this.options.logger.warn(
        `Account purge worker: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  /** Runs one job as the worker does: the count deleted, 0 for a malformed job. */
  async handle(job: Pick<Job, 'id' | 'data'>): Promise<number> {
    const run = await this.worker.run(ACCOUNT_PURGE_JOB, job.data, {
      jobId: String(job.id ?? '?'),
      attempt: 1,
    });
    return run.kind === 'done' ? Number(run.value) : 0;
  }

  /** Call before the database closes, so a running purge can finish. */
  close(): Promise<void> {
    return this.jobs.close();
  }

  private async purge(job: AccountPurgeJob): Promise<number> {
    const deleted = await this.options.purge(job.userId);
    this.options.logger.log(
      `Account purge: ${deleted} ${this.options.noun}(s) of user ${job.userId} deleted`,
    );
    return deleted;
  }
}
