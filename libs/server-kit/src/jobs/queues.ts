import {
  ACCOUNT_PURGE_JOB,
  ACCOUNT_PURGE_QUEUES,
  MAIL_QUEUE,
  RECOVERY_CODE_MAIL_JOB,
  SCAN_QUEUE,
  SCAN_RESULT_QUEUE,
  accountPurgeJobSchema,
  recoveryCodeMailJobSchema,
  scanFileJobSchema,
  scanFileResultSchema,
} from '@vault/contracts';
import { z } from 'zod';
import { defineJob, type JobDefinition } from './job-registry';

/** How a queue retries and what it keeps; producers and consumers apply the same policy. */
export interface QueuePolicy {
  /** Tries of a job that throws (1: no retry); the waits between them double from `backoffMs`. */
  attempts: number;
  backoffMs: number;
  /** A finished job: `true` removes it at once, a number keeps that many of the latest. */
  removeOnComplete: true | number;
  /** A job that failed for good stays for inspection, within these bounds. */
  removeOnFail: number | { age: number; count?: number };
  /**
   * A job whose name or payload the registry refuses: `fail` fails it for good (kept, with the
   * reason); `drop` completes it with a warning in the log.
   */
  invalid: 'fail' | 'drop';
  /** Jobs one worker runs at once, unless the consumer says otherwise. */
  concurrency: number;
}

export interface QueueDefinition<D extends readonly JobDefinition[] = readonly JobDefinition[]> {
  name: string;
  /** What one job is called in log lines ("account purge job"). */
  noun: string;
  jobs: D;
  policy: QueuePolicy;
}

function defineQueue<const D extends readonly JobDefinition[]>(
  definition: QueueDefinition<D>,
): QueueDefinition<D> {
  return definition;
}

const DAY_SECONDS = 24 * 3600;

/** The job the files service queues on SCAN_QUEUE after an upload completes. */
export const SCAN_FILE_JOB = 'scan-file';
/** The job name of a verdict on SCAN_RESULT_QUEUE (the files service consumes it). */
export const SCAN_RESULT_JOB = 'scan-file-result';
/** The files service's own maintenance queue (the cleanup of abandoned uploads runs on it). */
export const FILES_MAINTENANCE_QUEUE = 'files-maintenance';
export const CLEANUP_ABANDONED_UPLOADS_JOB = 'cleanup-abandoned-uploads';

/**
 * Every BullMQ queue of the product: its name, its jobs (payload schemas from libs/contracts),
 * and its policy. A worker is built from one of these and a handler per job (JobQueues.worker);
 * a producer adds jobs through JobQueues.queue, which validates the payload first.
 */
export const JOB_QUEUES = {
  /** auth produces and consumes: a slow SMTP server never delays the HTTP answer. */
  mail: defineQueue({
    name: MAIL_QUEUE,
    noun: 'mail job',
    // No job id: each code is its own mail. A failed job stays a day; its code is sealed and long expired by then.
    jobs: [defineJob(RECOVERY_CODE_MAIL_JOB, recoveryCodeMailJobSchema)],
    policy: {
      attempts: 5,
      backoffMs: 2_000,
      removeOnComplete: true,
      removeOnFail: { age: DAY_SECONDS },
      invalid: 'fail',
      concurrency: 2,
    },
  }),
  /** files produces (upload-complete), the scan worker consumes; one job per file. */
  scan: defineQueue({
    name: SCAN_QUEUE,
    noun: 'scan job',
    jobs: [defineJob(SCAN_FILE_JOB, scanFileJobSchema, (job) => job.fileId)],
    policy: {
      attempts: 5,
      backoffMs: 2_000,
      removeOnComplete: true,
      removeOnFail: { age: 7 * DAY_SECONDS, count: 1_000 },
      invalid: 'fail',
      concurrency: 2,
    },
  }),
  /** The scan worker produces verdicts, files consumes them; one per file while it waits. */
  scanResult: defineQueue({
    name: SCAN_RESULT_QUEUE,
    noun: 'scan result',
    jobs: [defineJob(SCAN_RESULT_JOB, scanFileResultSchema, (result) => result.fileId)],
    policy: {
      attempts: 5,
      backoffMs: 1_000,
      removeOnComplete: true,
      removeOnFail: { age: 7 * DAY_SECONDS },
      invalid: 'drop',
      concurrency: 4,
    },
  }),
  /** files' scheduled cleanup (a job scheduler: one run per interval across replicas). */
  filesMaintenance: defineQueue({
    name: FILES_MAINTENANCE_QUEUE,
    noun: 'maintenance job',
    jobs: [defineJob(CLEANUP_ABANDONED_UPLOADS_JOB, z.object({}))],
    policy: {
      attempts: 1,
      backoffMs: 0,
      removeOnComplete: true,
      removeOnFail: 100,
      invalid: 'drop',
      concurrency: 1,
    },
  }),
  ...purgeQueues(),
} as const;

/** The id of a user's account-purge jobs (the same on every purge queue). */
export function accountPurgeJobId(userId: string): string {
  return `purge-${userId}`;
}

/**
 * auth produces one account-purge job per data owner, each owner consumes its own queue. The id
 * is the user's, so a retried deletion queues nothing twice; failures retry for over a day (the
 * purges are idempotent). The latest finished jobs are kept: their return value is the count
 * deleted, and a kept job keeps its id taken.
 */
function purgeQueues() {
  const purge = (name: string) =>
    defineQueue({
      name,
      noun: 'account purge job',
      jobs: [defineJob(ACCOUNT_PURGE_JOB, accountPurgeJobSchema, (job) => accountPurgeJobId(job.userId))],
      policy: {
        attempts: 15,
        backoffMs: 5_000,
        removeOnComplete: 1_000,
        removeOnFail: 10_000,
        invalid: 'drop',
        concurrency: 2,
      },
    });
  return { purgeNotes: purge(ACCOUNT_PURGE_QUEUES.notes), purgeFiles: purge(ACCOUNT_PURGE_QUEUES.files) };
}
