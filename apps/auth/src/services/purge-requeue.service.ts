import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { RepairSweep } from '@vault/server-kit';
import type Redis from 'ioredis';
import { AccountDeletionRepository } from '../repositories/account-deletion.repository';
import { AUTH_REDIS } from '../repositories/connections';
import { PurgeQueueRepository } from '../repositories/purge-queue.repository';

/**
 * How far back deletions are looked at: longer than a purge job keeps retrying (15 tries with the
 * wait doubling from 5 s: about 23 hours), so any purge that could still be owed is covered.
 */
export const PURGE_REQUEUE_WINDOW_MS = 7 * 24 * 3_600_000;

/**
 * Account purges lost with Redis: the purge jobs of a deleted account live in Redis, and a Redis
 * that comes back empty would leave that account's notes and files stored for ever. So at start
 * and each time the service's Redis connection comes back, the purges of every account deleted in
 * the last PURGE_REQUEUE_WINDOW_MS are queued again (the job id is the account's, so those still
 * held are left as they are; a purge that already ran finds nothing to remove). The deletions come
 * from their `account_deleted` records, written in the deletion's own transaction, never from an
 * absence of rows, so no existing account can be purged by this.
 */
@Injectable()
export class PurgeRequeueService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(PurgeRequeueService.name);
  private readonly repair: RepairSweep;

  constructor(
    private readonly deletions: AccountDeletionRepository,
    private readonly purge: PurgeQueueRepository,
    @Inject(AUTH_REDIS) redis: Redis,
  ) {
    this.repair = new RepairSweep({
      redis,
      logger: this.logger,
      what: 'queue account purges again',
      sweep: (reason) => this.requeueRecent(reason),
    });
  }

  onApplicationBootstrap(): void {
    this.repair.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.repair.stop();
  }

  /** Queues again the purges of the accounts deleted within the window; answers how many. */
  async requeueRecent(reason: string): Promise<number> {
    const deleted = await this.deletions.deletedSince(new Date(Date.now() - PURGE_REQUEUE_WINDOW_MS));
    await this.purge.requeue(
      deleted.map(({ userId, deletedAt }) => ({ userId, requestedAt: deletedAt.toISOString() })),
    );
    if (deleted.length > 0) {
      this.logger.log(
        `Queued the purges of ${deleted.length} account(s) deleted in the last 7 days again (${reason}); those still queued were left as they were`,
      );
    }
    return deleted.length;
  }
}
