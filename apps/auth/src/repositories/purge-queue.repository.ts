import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { ACCOUNT_PURGE_JOB, ACCOUNT_PURGE_QUEUES, type AccountPurgeJob } from '@vault/contracts';
import { createQueueConnection, queuePrefix } from '@vault/server-kit';
import { Queue } from 'bullmq';
import type Redis from 'ioredis';
import type { AuthConfig } from '../config/auth.config';
import { AUTH_CONFIG } from './connections';

/**
 * Producer of the account-purge jobs: one per data owner (notes, files), each consumed by that
 * service. The job id is the user id, so a retried deletion queues nothing twice; failures
 * retry with exponential backoff (over a day in all) because the consumers' purges are
 * idempotent. Jobs are queued on hold (delayed) from inside the deletion's transaction and
 * released once it has committed, or cancelled if it did not: a rolled-back deletion must not
 * purge the data of an account that still exists.
 */
@Injectable()
export class PurgeQueueRepository implements OnApplicationShutdown {
  private readonly connection: Redis;
  private readonly queues: Queue[];

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.connection = createQueueConnection(config.redis.url);
    const prefix = queuePrefix(config.redis.prefix);
    this.queues = Object.values(ACCOUNT_PURGE_QUEUES).map(
      (name) => new Queue(name, { connection: this.connection, prefix }),
    );
  }

  /** Queues the jobs on hold: they run on `release`, or by themselves after `holdMs`. */
  async queuePurge(job: AccountPurgeJob, holdMs: number): Promise<void> {
    await Promise.all(
      this.queues.map((queue) =>
        queue.add(ACCOUNT_PURGE_JOB, job, {
          jobId: jobIdOf(job.userId),
          delay: holdMs,
          attempts: 15,
          backoff: { type: 'exponential', delay: 5_000 },
          removeOnComplete: 1_000,
          removeOnFail: 10_000,
        }),
      ),
    );
  }

  /** The deletion committed: the purges may start now. */
  async release(userId: string): Promise<void> {
    await Promise.all(
      this.queues.map(async (queue) => {
        const job = await queue.getJob(jobIdOf(userId));
        if (job && (await job.isDelayed())) await job.promote();
      }),
    );
  }

  /** The deletion rolled back: the purges must not run. */
  async cancel(userId: string): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.remove(jobIdOf(userId))));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled(this.queues.map((q) => q.close()));
    this.connection.disconnect();
  }
}

function jobIdOf(userId: string): string {
  return `purge-${userId}`;
}
