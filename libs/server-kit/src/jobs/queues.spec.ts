import type Redis from 'ioredis';
import { jobOptionsOf } from './job-queue';
import { JobWorker } from './job-worker';
import { accountPurgeJobId, JOB_QUEUES } from './queues';

const logger = { log: () => undefined, warn: () => undefined, error: () => undefined };
const nowhere = { connection: {} as Redis, prefix: 'test' };

describe('JOB_QUEUES', () => {
  it.each(Object.values(JOB_QUEUES).map((q) => [q.name, q] as const))(
    '%s: retries with exponential backoff, removes finished jobs or keeps a bounded few, keeps failed ones bounded',
    (_name, queue) => {
      const options = jobOptionsOf(queue.policy);
      expect(options.attempts).toBeGreaterThanOrEqual(1);
      if (queue.policy.attempts > 1)
        expect(options.backoff).toEqual({ type: 'exponential', delay: queue.policy.backoffMs });
      expect(options.removeOnComplete === true || typeof options.removeOnComplete === 'number').toBe(true);
      expect(options.removeOnFail).not.toBe(false);
      expect(options.removeOnFail).not.toBe(true);
      expect(queue.jobs.length).toBeGreaterThan(0);
    },
  );

  it('names every queue once', () => {
    const names = Object.values(JOB_QUEUES).map((q) => q.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives a user the same purge job id on both purge queues, and scans and verdicts the file id', () => {
    const userId = '0b7c3a52-8a4e-4d6b-9a0e-3f0f6f1f2a11';
    const job = { userId, requestedAt: '2026-01-01T00:00:00.000Z' };
    expect(JOB_QUEUES.purgeNotes.jobs[0].jobId?.(job)).toBe(accountPurgeJobId(userId));
    expect(JOB_QUEUES.purgeFiles.jobs[0].jobId?.(job)).toBe(`purge-${userId}`);
    expect(JOB_QUEUES.scanResult.jobs[0].jobId?.({ fileId: userId, result: 'clean', detail: '' })).toBe(
      userId,
    );
  });
});

describe(JobWorker.name, () => {
  it('fails at construction, before consuming anything, when a job of its queue has no handler', () => {
    expect(() => new JobWorker(JOB_QUEUES.scan, {} as never, nowhere, { logger })).toThrow(
      'Queue file-scan: refusing to start: job "scan-file" has no handler',
    );
  });

  it('drops a refused job of a `drop` queue, and fails one of a `fail` queue for good', async () => {
    const handle = async () => ({ kind: 'done' as const });
    const drop = new JobWorker(JOB_QUEUES.scanResult, { 'scan-file-result': { handle } }, nowhere, {
      logger,
    });
    await expect(
      drop.run('scan-file-result', { fileId: 'x' }, { jobId: 'j', attempt: 1 }),
    ).resolves.toMatchObject({
      kind: 'dropped',
      reason: expect.stringMatching(/^Invalid "scan-file-result" payload: fileId: /),
    });
    const fail = new JobWorker(JOB_QUEUES.mail, { 'recovery-code': { handle } }, nowhere, { logger });
    await expect(fail.run('other', {}, { jobId: 'j', attempt: 1 })).rejects.toThrow(
      'Queue mail has no job "other" (known: recovery-code)',
    );
  });
});
