import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ACCOUNT_PURGE_JOB, type AccountPurgeJob } from '@vault/contracts';
import { JOB_QUEUES, JobQueues, accountPurgeJobId, type JobQueue } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';
import { AUTH_CONFIG } from './connections';

/**
 * Producer of the account-purge jobs (server-kit JOB_QUEUES.purgeNotes, purgeFiles): one per data
 * owner, each consumed by that service. The job id is the user's, so a retried deletion queues
 * nothing twice; failures retry with exponential backoff because the consumers' purges are
 * idempotent. Jobs are queued on hold (delayed) from inside the deletion's transaction and
 * released once it has committed, or cancelled if it did not: a rolled-back deletion must not
 * purge the data of an account that still exists.
 */
@Injectable()
export class PurgeQueueRepository implements OnApplicationShutdown {
  private readonly jobs: JobQueues;
  private readonly queues: JobQueue<typeof JOB_QUEUES.purgeNotes.jobs>[];

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.jobs = JobQueues.connect(config.redis);
    this.queues = [JOB_QUEUES.purgeNotes, JOB_QUEUES.purgeFiles].map((queue) => this.jobs.queue(queue));
  }

  /** Queues the jobs on hold: they run on `release`, or by themselves after `holdMs`. */
  async queuePurge(job: AccountPurgeJob, holdMs: number): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.add(ACCOUNT_PURGE_JOB, job, { delay: holdMs })));
  }

  /** The deletion committed: the purges may start now. */
  async release(userId: string): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.promote(accountPurgeJobId(userId))));
  }

  /**
   * Queues again, to run now, the purges of accounts whose deletion committed, for a Redis that
   * lost them. A job the queues still hold under that id (waiting, running, retrying, or kept as
   * completed) is left as it is; a purge that already ran only runs once more and finds nothing.
   */
  async requeue(jobs: readonly AccountPurgeJob[]): Promise<void> {
    await Promise.all(
      this.queues.map((queue) =>
        queue.addBulk(
          ACCOUNT_PURGE_JOB,
          jobs.map((payload) => ({ payload })),
        ),
      ),
    );
  }

  /** The deletion rolled back: the purges must not run. */
  async cancel(userId: string): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.remove(accountPurgeJobId(userId))));
  }

  onApplicationShutdown(): Promise<void> {
    return this.jobs.close();
  }
}
