import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ErrorCode,
  VaultError,
  type AdminFailedScan,
  type AdminFailedScanList,
  type AdminQueued,
  type RpcReply,
} from '@vault/contracts';
import type { FileEntity } from '../entities/file.entity';
import { toScanJob } from '../mappers/file.mapper';
import { FilesRepository } from '../repositories/files.repository';
import { QueuesRepository, type FailedScanJob } from '../repositories/queues.repository';
import { RescanLockRepository, type HeldRescanLock } from '../repositories/rescan-lock.repository';
import { StorageRepository } from '../repositories/storage.repository';
import { safeLine } from '../mappers/safe-text';

/** Files per addBulk of a rescan: one round trip each, a bounded batch in memory. */
export const RESCAN_BATCH = 500;
/** The rescan lock's life unless refreshed (after every batch): a replica that dies frees it. */
export const RESCAN_LOCK_TTL_MS = 60_000;
export const RESCAN_RUNNING = 'A rescan of every file is already running';

/**
 * What the admin service asks the files service (ctx.admin checked by the handler): counts and
 * sizes, the failed scans and their retries, rescans, storage health. Never a name, a key or a
 * sealed field: the answers carry ids, sizes and the worker's failure texts only.
 */
@Injectable()
export class FilesAdminService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(FilesAdminService.name);
  /** This replica's run still queueing, if any. */
  private rescan: Promise<void> | undefined;
  private stopping = false;

  constructor(
    private readonly files: FilesRepository,
    private readonly queues: QueuesRepository,
    private readonly storage: StorageRepository,
    private readonly rescanLock: RescanLockRepository,
  ) {}

  async counts(ownerId: string | undefined): Promise<RpcReply<'files.admin.counts'>> {
    const { active, deleted, bytes } = await this.files.counts(ownerId);
    return { files: active, deletedFiles: deleted, bytes };
  }

  /**
   * Failed scans, newest first: the scan jobs that failed for good (one per file, its latest),
   * then the stored files whose verdict is `error` without such a job (e.g. a scanner that stayed
   * unavailable). `total` counts both, each file once.
   */
  async failedScans(limit: number): Promise<AdminFailedScanList> {
    const latest = new Map<string, FailedScanJob>();
    for (const failed of await this.queues.failedScans()) {
      if (!latest.has(failed.data.fileId)) latest.set(failed.data.fileId, failed);
    }
    const jobs = [...latest.values()];
    const fromJobs = jobs.slice(0, limit).map(fromFailedJob);
    const jobFileIds = [...latest.keys()];
    const [errors, alsoErrors] = await Promise.all([
      this.files.countScanErrors(),
      this.files.scanErrorsAmong(jobFileIds),
    ]);
    const room = limit - fromJobs.length;
    const fromFiles = room > 0 ? (await this.files.listScanErrors(room, jobFileIds)).map(fromErrorFile) : [];
    return { scans: [...fromJobs, ...fromFiles], total: jobs.length + errors - alsoErrors.size };
  }

  /**
   * Scans a failed file again: its failed job retried (attempts start over), or a new job as an
   * upload queues it when only the verdict says `error`. The verdict is pending until it answers.
   */
  async retryScan(fileId: string): Promise<AdminQueued> {
    const file = await this.files.findStored(fileId);
    if (!file) throw scanNotFound();
    if (!(await this.queues.retryFailedScan(fileId))) {
      if (file.virusScanResult !== 'error') throw scanNotFound();
      await this.queues.queueScan(toScanJob(file));
    }
    await this.files.markScanPending(fileId);
    return { queued: 1 };
  }

  /**
   * Starts a scan of every stored file (complete, not purged, trash included) and answers at once
   * with how many it will queue: after a signature update, files found clean before are looked at
   * again. The queueing runs in the background (a large store takes longer than an RPC may), one
   * run at a time across replicas (RescanLockRepository); a second call meanwhile is CONFLICT.
   * Verdicts stay as they are until the new ones arrive (the worker's verdict replaces any earlier one).
   */
  async rescanAll(): Promise<AdminQueued> {
    const runId = randomUUID();
    const lock = await this.rescanLock.acquire(runId, RESCAN_LOCK_TTL_MS);
    if (!lock) throw new VaultError(ErrorCode.CONFLICT, RESCAN_RUNNING);
    let total: number;
    try {
      const { active, deleted } = await this.files.counts();
      total = active + deleted;
    } catch (error) {
      await lock.release();
      throw error;
    }
    this.logger.log(`Rescan ${runId}: queueing ${total} scan(s) in the background`);
    this.rescan = this.queueEveryFile(runId, lock, total).finally(() => (this.rescan = undefined));
    return { queued: total };
  }

  /** A run still queueing stops at its next batch (a later call starts over); its lock goes with it. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.rescan;
  }

  /**
   * Walks the stored files in id order, RESCAN_BATCH per addBulk, refreshing the lock after each
   * batch. Files uploaded meanwhile may or may not be met: their upload queued a scan anyway.
   */
  private async queueEveryFile(runId: string, lock: HeldRescanLock, total: number): Promise<void> {
    let queued = 0;
    let after: string | undefined;
    try {
      let stopped: string | undefined;
      for (;;) {
        const batch: FileEntity[] = await this.files.listStoredAfter(after, RESCAN_BATCH);
        if (batch.length > 0) {
          queued += await this.queues.queueRescans(
            batch.map((file) => toScanJob(file)),
            runId,
          );
          after = batch[batch.length - 1]!.id;
          this.logger.log(`Rescan ${runId}: ${queued}/${total} queued`);
        }
        if (batch.length < RESCAN_BATCH) break;
        if (this.stopping) stopped = 'the service is stopping';
        else if (!(await lock.refresh())) stopped = 'its lock expired';
        if (stopped) break;
      }
      if (stopped) this.logger.warn(`Rescan ${runId}: stopped after ${queued} scan(s): ${stopped}`);
      else this.logger.log(`Rescan ${runId}: done, queued ${queued} scan(s)`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(`Rescan ${runId}: failed after ${queued} scan(s): ${reason}`);
    } finally {
      await lock.release().catch(() => undefined);
    }
  }

  async storageHealth(): Promise<RpcReply<'files.admin.storage-health'>> {
    return { storage: await this.storage.health() };
  }
}

const FAILED_REASON = { max: 300, fallback: 'Scan failed' };

const scanNotFound = () => new VaultError(ErrorCode.NOT_FOUND, ADMIN_MESSAGES.scanJobNotFound);

function fromFailedJob({ job, data }: FailedScanJob): AdminFailedScan {
  return {
    fileId: data.fileId,
    ownerId: data.ownerId,
    size: data.encryptedSize,
    attempts: job.attemptsMade,
    failedReason: safeLine(job.failedReason, FAILED_REASON),
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}

function fromErrorFile(file: FileEntity): AdminFailedScan {
  return {
    fileId: file.id,
    ownerId: file.ownerId,
    size: file.encryptedSize,
    attempts: 0,
    failedReason: safeLine(file.scanDetail, FAILED_REASON),
    failedAt: null,
  };
}
