import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ACCOUNT_PURGE_QUEUES, accountPurgeJobSchema } from '@vault/contracts';
import { createQueueConnection, queuePrefix } from '@vault/server-kit';
import { Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import type { FilesConfig } from '../config/files.config';
import { FILES_CONFIG } from '../repositories/connections';
import { AccountPurgeService } from '../services/account-purge.service';

/**
 * Consumes auth's account-purge jobs for files (libs/contracts account-purge.schema.ts): once
 * an account is deleted, every file of it goes, stored objects and pending uploads included.
 * A failed purge throws, so BullMQ retries it with backoff; the purge is idempotent.
 */
@Injectable()
export class AccountPurgeConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AccountPurgeConsumer.name);
  private connection?: Redis;
  private worker?: Worker;

  constructor(
    @Inject(FILES_CONFIG) private readonly config: FilesConfig,
    private readonly files: AccountPurgeService,
  ) {}

  onApplicationBootstrap(): void {
    this.connection = createQueueConnection(this.config.redis.url);
    this.worker = new Worker(ACCOUNT_PURGE_QUEUES.files, (job: Job) => this.handle(job), {
      connection: this.connection,
      prefix: queuePrefix(this.config.redis.prefix),
      concurrency: 2,
    });
    this.worker.on('error', (error) => this.logger.warn(`Account purge worker: ${error.message}`));
  }

  async handle(job: Pick<Job, 'id' | 'data'>): Promise<number> {
    const parsed = accountPurgeJobSchema.safeParse(job.data);
    if (!parsed.success) {
      this.logger.warn(`Dropped a malformed account purge job (job ${job.id ?? '?'})`);
      return 0;
    }
    const deleted = await this.files.purgeOwner(parsed.data.userId);
    this.logger.log(`Account purge: ${deleted} file(s) of user ${parsed.data.userId} deleted`);
    return deleted;
  }

  /** Before the database closes (ConnectionsLifecycle), so a running purge can finish. */
  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
    this.connection?.disconnect();
  }
}
