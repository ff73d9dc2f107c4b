import {
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  type Provider,
  type Type,
} from '@nestjs/common';
import type { Job } from 'bullmq';
import { AccountPurgeWorker } from '../jobs/account-purge.worker';

/**
 * Consumes auth's account-purge jobs for one service (libs/contracts account-purge.schema.ts):
 * once an account is deleted, everything it owned there goes. Retries and idempotence:
 * AccountPurgeWorker.
 */
export class AccountPurgeConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly worker: AccountPurgeWorker) {}

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

export interface AccountPurgeConsumerOptions<P> {
  /** One of ACCOUNT_PURGE_QUEUES. */
  queue: string;
  /** What is counted in the log line ("note", "file"). */
  noun: string;
  /** The DI token of the service's config (its Redis settings). */
  configToken: symbol;
  /** The provider that deletes a user's data, and the call that does it (idempotent, returns the count). */
  purger: Type<P>;
  purge: (purger: P, userId: string) => Promise<number>;
}

/** The AccountPurgeConsumer provider of a service that owns user data (notes, files). */
export function accountPurgeConsumer<P>(options: AccountPurgeConsumerOptions<P>): Provider {
  return {
    provide: AccountPurgeConsumer,
    useFactory: (config: { redis: { url: string; prefix: string } }, purger: P) =>
      new AccountPurgeConsumer(
        new AccountPurgeWorker({
          queue: options.queue,
          redis: config.redis,
          purge: (userId) => options.purge(purger, userId),
          noun: options.noun,
          logger: new Logger(AccountPurgeConsumer.name),
        }),
      ),
    inject: [options.configToken, options.purger],
  };
}
