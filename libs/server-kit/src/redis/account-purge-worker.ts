import { accountPurgeJobSchema } from '@vault/contracts';
import { Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import { createQueueConnection, queuePrefix } from './redis';

interface PurgeLogger {
  log(message: string): void;
  warn(message: string): void;
}

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
 * The consuming side of auth's account-purge jobs, shared by every service that owns user
 * data. A failed purge throws, so BullMQ retries it with the backoff auth set; the purge is
 * idempotent, so a replay is harmless. A malformed job is dropped, not retried.
 */
export class AccountPurgeWorker {
  private connection?: Redis;
  private worker?: Worker;

  constructor(private readonly options: AccountPurgeWorkerOptions) {}

  start(): void {
    const { queue, redis, logger } = this.options;
    this.connection = createQueueConnection(redis.url);
    this.worker = new Worker(queue, (job: Job) => this.handle(job), {
      connection: this.connection,
      prefix: queuePrefix(redis.prefix),
      concurrency: 2,
    });
    this.worker.on('error', (error) => logger.warn(`Account purge worker: ${error.message}`));
  }

  async handle(job: Pick<Job, 'id' | 'data'>): Promise<number> {
    const { purge, noun, logger } = this.options;
    const parsed = accountPurgeJobSchema.safeParse(job.data);
    if (!parsed.success) {
      logger.warn(`Dropped a malformed account purge job (job ${job.id ?? '?'})`);
      return 0;
    }
    const deleted = await purge(parsed.data.userId);
    logger.log(`Account purge: ${deleted} ${noun}(s) of user ${parsed.data.userId} deleted`);
    return deleted;
  }

  /** Call before the database closes, so a running purge can finish. */
  async close(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }
}
