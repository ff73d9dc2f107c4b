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
import type { NotesConfig } from '../config/notes.config';
import { NOTES_CONFIG } from '../repositories/connections';
import { NotesPurgeRepository } from '../repositories/notes-purge.repository';

/**
 * Consumes auth's account-purge jobs for notes (libs/contracts account-purge.schema.ts): once
 * an account is deleted, every note of it goes. Retries and idempotence: server-kit's AccountPurgeWorker.
 */
@Injectable()
export class AccountPurgeConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly worker: AccountPurgeWorker;

  constructor(@Inject(NOTES_CONFIG) config: NotesConfig, notes: NotesPurgeRepository) {
    this.worker = new AccountPurgeWorker({
      queue: ACCOUNT_PURGE_QUEUES.notes,
      redis: config.redis,
      purge: (userId) => notes.deleteAllOwned(userId),
      noun: 'note',
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
