import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
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
import { StorageRepository } from '../repositories/storage.repository';
import { safeLine } from '../mappers/safe-text';

/** Files per addBulk of a rescan: one round trip each, a bounded batch in memory. */
export const RESCAN_BATCH = 500;

/**
 * What the admin service asks the files service (ctx.admin checked by the handler): counts and
 * sizes, the failed scans and their retries, rescans, storage health. Never a name, a key or a
 * sealed field: the answers carry ids, sizes and the worker's failure texts only.
 */
@Injectable()
export class FilesAdminService {
  private readonly logger = new Logger(FilesAdminService.name);

  constructor(
    private readonly files: FilesRepository,
    private readonly queues: QueuesRepository,
    private readonly storage: StorageRepository,
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
   * Queues a scan of every stored file (complete, not purged, trash included), in batches: after
   * a signature update, files found clean before are looked at again. Verdicts stay as they are
   * until the new ones arrive (the worker's verdict replaces any earlier one).
   */
  async rescanAll(): Promise<AdminQueued> {
    const runId = randomUUID();
    let queued = 0;
    let after: string | undefined;
    for (;;) {
      const batch: FileEntity[] = await this.files.listStoredAfter(after, RESCAN_BATCH);
      if (batch.length === 0) break;
      queued += await this.queues.queueRescans(
        batch.map((file) => toScanJob(file)),
        runId,
      );
      after = batch[batch.length - 1]!.id;
      if (batch.length < RESCAN_BATCH) break;
    }
    this.logger.log(`Rescan ${runId}: queued ${queued} scan(s)`);
    return { queued };
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
