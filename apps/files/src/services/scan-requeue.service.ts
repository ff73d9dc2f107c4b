import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { REPAIR_REASON, RepairSweep } from '@vault/server-kit';
import type Redis from 'ioredis';
import { DataSource, type Repository, type SelectQueryBuilder } from 'typeorm';
import { FileEntity } from '../entities/file.entity';
import { toScanJob } from '../mappers/file.mapper';
import { FILES_REDIS } from '../repositories/connections';
import { SCAN_JOB_COLUMNS } from '../repositories/files.repository';
import { QueuesRepository } from '../repositories/queues.repository';

/** How often every replica looks for lost scans, and how old a pending verdict must be then. */
export const SCAN_REQUEUE = { everyMs: 5 * 60_000, minAgeMs: 5 * 60_000, batch: 500 } as const;

/**
 * Scans queued and then lost: the scan queue lives in Redis, and a Redis that keeps nothing on disk
 * (or a failover, or a Redis down when upload-complete tried to queue) loses it, which would leave
 * those files `pending` for ever. So the scans of stored files still pending are queued again (as
 * `npm run restore` does): at start, each time the service's Redis connection comes back, and every
 * 5 minutes for verdicts pending over 5 minutes. A scan job's id is its file's, so a scan still
 * queued or running is left as it is; a verdict already on its way only costs a second scan, whose
 * verdict is the same. A fingerprint check a lost job carried (the opt-in malware fingerprint) is
 * not repeated: the fingerprint was never stored. When the connection comes back, the
 * abandoned-upload cleanup is scheduled again too (its job scheduler was in Redis).
 */
@Injectable()
export class ScanRequeueService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ScanRequeueService.name);
  private readonly files: Repository<FileEntity>;
  private readonly repair: RepairSweep;

  constructor(
    dataSource: DataSource,
    private readonly queues: QueuesRepository,
    @Inject(FILES_REDIS) redis: Redis,
  ) {
    this.files = dataSource.getRepository(FileEntity);
    this.repair = new RepairSweep({
      redis,
      logger: this.logger,
      what: 'queue pending scans again',
      everyMs: SCAN_REQUEUE.everyMs,
      sweep: (reason) =>
        this.requeuePending(reason === REPAIR_REASON.periodic ? SCAN_REQUEUE.minAgeMs : 0, reason),
      // The abandoned-upload cleanup's schedule lived in Redis too.
      onReconnect: () =>
        void this.queues
          .restoreSchedules()
          .catch((error: unknown) =>
            this.logger.warn(
              `Could not schedule the upload cleanup again: ${error instanceof Error ? error.message : error}`,
            ),
          ),
    });
  }

  onApplicationBootstrap(): void {
    this.repair.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.repair.stop();
  }

  /**
   * One batch of stored files still pending, uploaded at or before `before`, after `after` in
   * (uploaded_at, id) order: read through files_scan_pending_idx.
   */
  pendingQuery(before: Date, after?: { uploadedAt: Date; id: string }): SelectQueryBuilder<FileEntity> {
    const query = this.files
      .createQueryBuilder('f')
      .select([...SCAN_JOB_COLUMNS, 'f.uploadedAt'])
      .where('f.status = :active AND f.virus_scan_result = :pending', {
        active: 'active',
        pending: 'pending',
      })
      .andWhere('f.uploaded_at <= :before', { before })
      .orderBy('f.uploaded_at')
      .addOrderBy('f.id')
      .limit(SCAN_REQUEUE.batch);
    if (after) query.andWhere('(f.uploaded_at, f.id) > (:at, :id)', { at: after.uploadedAt, id: after.id });
    return query;
  }

  /** Queues the scan of every stored file whose verdict has been pending for `minAgeMs`, oldest first. */
  async requeuePending(minAgeMs: number, reason: string): Promise<number> {
    let queued = 0;
    let after: { uploadedAt: Date; id: string } | undefined;
    for (;;) {
      const batch = await this.pendingQuery(new Date(Date.now() - minAgeMs), after).getMany();
      for (const file of batch) await this.queues.queueScan(toScanJob(file));
      queued += batch.length;
      const last = batch[batch.length - 1];
      if (!last?.uploadedAt || batch.length < SCAN_REQUEUE.batch) break;
      after = { uploadedAt: last.uploadedAt, id: last.id };
    }
    if (queued > 0) {
      this.logger.log(
        `Queued the scans of ${queued} file(s) still pending (${reason}); those still queued were left as they were`,
      );
    }
    return queued;
  }
}
