import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import {
  MAIL_QUEUE,
  RECOVERY_CODE_MAIL_JOB,
  recoveryCodeMailJobSchema,
  type RecoveryCodeMailJob,
} from '@vault/contracts';
import { createQueueConnection, queuePrefix } from '@vault/server-kit';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import type { AuthConfig } from '../config/auth.config';
import { AUTH_CONFIG } from './connections';

/**
 * The `mail` BullMQ queue. The auth process both produces (email-code) and consumes (a
 * Worker that hands each job to the mail sender), so a slow or failing SMTP server never
 * delays the HTTP answer, and a failed send is retried with backoff. Finished jobs are
 * removed at once: a job's payload is an address and a sealed code, nothing to keep.
 */
@Injectable()
export class MailQueueRepository implements OnApplicationShutdown {
  private readonly logger = new Logger(MailQueueRepository.name);
  private readonly connection: Redis;
  private readonly prefix: string;
  private readonly queue: Queue;
  private worker: Worker | undefined;
  private workerConnection: Redis | undefined;

  constructor(@Inject(AUTH_CONFIG) config: AuthConfig) {
    this.connection = createQueueConnection(config.redis.url);
    this.prefix = queuePrefix(config.redis.prefix);
    this.queue = new Queue(MAIL_QUEUE, { connection: this.connection, prefix: this.prefix });
  }

  async queueRecoveryCode(job: RecoveryCodeMailJob): Promise<void> {
    await this.queue.add(RECOVERY_CODE_MAIL_JOB, job, {
      attempts: 5,
      backoff: { type: 'exponential', delay: 2_000 },
      removeOnComplete: true,
      // A failed job stays a day for inspection; its code is sealed and long expired by then.
      removeOnFail: { age: 24 * 3600 },
    });
  }

  /** Starts the consumer; a malformed job fails for good instead of being retried. */
  async consume(send: (job: RecoveryCodeMailJob) => Promise<void>): Promise<void> {
    if (this.worker) return;
    this.workerConnection = this.connection.duplicate();
    const worker = new Worker(
      MAIL_QUEUE,
      async (job: Job) => {
        const parsed = recoveryCodeMailJobSchema.safeParse(job.data);
        if (job.name !== RECOVERY_CODE_MAIL_JOB || !parsed.success) {
          throw new UnrecoverableError(`Unknown or malformed mail job ${job.name}`);
        }
        await send(parsed.data);
      },
      { connection: this.workerConnection, prefix: this.prefix, concurrency: 2 },
    );
    // Messages only: an error from a transport may quote the envelope, never the body.
    worker.on('error', (error) => this.logger.warn(`Mail worker: ${error.message}`));
    worker.on('failed', (job, error) => {
      if (job)
        this.logger.warn(`Mail job ${job.id ?? '?'} failed (attempt ${job.attemptsMade}): ${error.message}`);
    });
    this.worker = worker;
    await worker.waitUntilReady();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker?.close().catch(() => undefined);
    await this.queue.close().catch(() => undefined);
    this.workerConnection?.disconnect();
    this.connection.disconnect();
  }
}
