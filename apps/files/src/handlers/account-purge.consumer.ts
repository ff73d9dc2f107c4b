import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ACCOUNT_PURGE_QUEUES } from '@vault/contracts';
import { AccountPurgeWorker } from '@vault/server-kit';
import type { Job } from 'bullmq';
import type { FilesConfig } from '../config/files.config';
import { FILES_CONFIG } from '../repositories/connections';
import { AccountPurgeService } from '../services/account-purge.service';

/**
 * Consumes auth's account-purge jobs for files (libs/contracts account-purge.schema.ts): once
 * an account is deleted, every file of it goes, stored objects and pending uploads included. Retries and idempotence: server-kit's AccountPurgeWorker.
 */
@Injectable()
export class AccountPurgeConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly worker: AccountPurgeWorker;

  constructor(@Inject(FILES_CONFIG) config: FilesConfig, files: AccountPurgeService) {
    this.worker = new AccountPurgeWorker({
      queue: ACCOUNT_PURGE_QUEUES.files,
      redis: config.redis,
      purge: (userId) => files.purgeOwner(userId),
      noun: 'file',
      logger: new Logger(AccountPurgeConsumer.name),
    });
  }

  onApplicationBootstrap(): void {
    this.worker.start();
  }

  handle(job: Pick<Job, 'id' | 'data'>): Promise<number> {
    return this.worker.handle(job);
  }

  /** Before the database closes (ConnectionsLifecycle), so a running purge can finish. */
  onModuleDestroy(): Promise<void> {
    return this.worker.close();
  }
}
