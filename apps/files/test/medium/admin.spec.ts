import {
  ADMIN_MESSAGES,
  ErrorCode,
  FILES_PATTERNS as P,
  SCAN_QUEUE,
  SCAN_RESULT_QUEUE,
  type AdminFailedScanList,
  type AdminQueued,
  type FileListResponse,
  type RpcReply,
} from '@vault/contracts';
import { createQueueConnection, queuePrefix, SCAN_FILE_JOB, SCAN_RESULT_JOB } from '@vault/server-kit';
import { adminContext, runQueuedJob, sleep } from '@vault/server-kit/testing';
import { Worker, type Job } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { toScanJob } from '../../src/mappers/file.mapper';
import { FilesAdminHandler } from '../../src/handlers/files-admin.handler';
import { RescanLockRepository } from '../../src/repositories/rescan-lock.repository';
import { RESCAN_LOCK_TTL_MS, RESCAN_RUNNING } from '../../src/services/files-admin.service';
import { startFilesTestApp, testAppPerFile, uploadBody, type TestUser } from './support/files-test-app';

type Counts = RpcReply<'files.admin.counts'>;
const SEALED_RE = /[0-9a-f]{32,}:[0-9a-f]{24}/;

describe(FilesAdminHandler.name, () => {
  const t = testAppPerFile(() => startFilesTestApp('admin'));
  const scans = () => t.queue(SCAN_QUEUE);
  const scanManager = adminContext(['scans:manage']);

  /** What the table holds, counted the slow way. */
  const truth = async (ownerId?: string): Promise<Counts> => {
    const { rows } = await t.pg.query<{ files: number; deletedFiles: number; bytes: string }>(
      `SELECT count(*) FILTER (WHERE NOT is_deleted)::int AS "files", count(*) FILTER (WHERE is_deleted)::int AS "deletedFiles",
              coalesce(sum(encrypted_size), 0)::text AS bytes
       FROM files.files WHERE status = 'active' AND ($1::uuid IS NULL OR owner_id = $1)`,
      [ownerId ?? null],
    );
    return { ...rows[0]!, bytes: Number(rows[0]!.bytes) };
  };
  const verdictOf = async (id: string) =>
    (await t.pg.query(`SELECT virus_scan_result AS r FROM files.files WHERE id = $1`, [id])).rows[0]?.r;

  /** Publishes a verdict as the scan worker does and waits until the files service stored it. */
  async function verdict(fileId: string, result: 'clean' | 'infected' | 'error', detail: string) {
    await t
      .queue(SCAN_RESULT_QUEUE)
      .add(SCAN_RESULT_JOB, { fileId, result, detail }, { jobId: randomUUID() });
    for (let i = 0; i < 100 && (await verdictOf(fileId)) !== result; i++) await sleep(50);
    expect(await verdictOf(fileId)).toBe(result);
  }

  describe('counts', () => {
    it('answers one owner’s stored files, trash and bytes (pending uploads left out)', async () => {
      const u = await t.user();
      const a = await t.upload(u, 'local', 1_000);
      const b = await t.upload(u, 's3', 2_000);
      const c = await t.upload(u, 'local', 3_000);
      await u.call(P.remove, { id: c.body.fileId });
      await t.startUpload(u, uploadBody(500, 'local')); // never completed
      await t.upload(await t.user(), 'local', 4_000); // someone else's

      const mine = await t.call<Counts>(
        P.adminCounts,
        { ownerId: u.auth.userId },
        adminContext(['users:read']),
      );
      const bytes = a.body.encryptedSize + b.body.encryptedSize + c.body.encryptedSize;
      expect(mine).toEqual({ files: 2, deletedFiles: 1, bytes });
      expect(mine).toEqual(await truth(u.auth.userId));
      expect(await t.call(P.adminCounts, { ownerId: randomUUID() }, adminContext(['users:read']))).toEqual({
        files: 0,
        deletedFiles: 0,
        bytes: 0,
      });
    });

    it('answers everyone’s totals with stats:read', async () => {
      expect(await t.call<Counts>(P.adminCounts, {}, adminContext(['stats:read']))).toEqual(await truth());
    });

    it('refuses without an admin, and without the permission the question needs', async () => {
      const u = await t.user();
      expect((await t.fail(P.adminCounts, {}, u.ctx)).code).toBe(ErrorCode.ADMIN_REQUIRED);
      const ownerId = u.auth.userId;
      expect((await t.fail(P.adminCounts, { ownerId }, adminContext(['stats:read']))).code).toBe(
        ErrorCode.PERMISSION_DENIED,
      );
      expect((await t.fail(P.adminCounts, {}, adminContext(['users:read']))).code).toBe(
        ErrorCode.PERMISSION_DENIED,
      );
      expect((await t.fail(P.adminCounts, { ownerId: 'x' }, adminContext(['users:read']))).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
    });
  });

  describe('failed scans, retry', () => {
    let u: TestUser;
    let crashed: Awaited<ReturnType<typeof t.upload>>;
    let errored: Awaited<ReturnType<typeof t.upload>>;
    let clean: Awaited<ReturnType<typeof t.upload>>;
    const fingerprint = 'ab'.repeat(32);

    beforeAll(async () => {
      u = await t.user();
      crashed = await t.upload(u, 'local', 10_000);
      errored = await t.upload(u, 's3', 20_000);
      clean = await t.upload(u, 'local', 30_000);
      // A scan job that fails for good, run by a real BullMQ worker on the service's scan queue.
      const connection = createQueueConnection(t.redis.url);
      const worker = new Worker(
        SCAN_QUEUE,
        async () => {
          throw new Error(
            `Connection lost while reading http://store.test/bucket/obj?X-Amz-Signature=${fingerprint} (fp ${fingerprint})\n    at stack`,
          );
        },
        { connection, prefix: queuePrefix(t.redis.prefix), autorun: false },
      );
      // The scans upload-complete queued are taken as done (a done scan job is removed); the
      // crashed file's runs again, with one try.
      await scans().drain();
      const run = runQueuedJob(scans(), SCAN_FILE_JOB, toScanJobOf(crashed), {
        jobId: crashed.body.fileId,
        attempts: 1,
      });
      void worker.run();
      expect(await (await run).getState()).toBe('failed');
      await worker.close();
      connection.disconnect();
      // A verdict of `error` without a failed job (the scanner stayed unavailable).
      await verdict(errored.body.fileId, 'error', 'Virus scanner unavailable after 5 tries (ECONNREFUSED)');
      await verdict(clean.body.fileId, 'clean', 'checked');
    });

    const toScanJobOf = (f: typeof crashed) =>
      toScanJob({
        ...f.body,
        id: f.body.fileId,
        ownerId: u.auth.userId,
        objectKey: `${u.auth.userId}/${f.body.fileId}`,
      });

    it('lists the failed job and the error verdict: ids and sizes, a failure text without secrets', async () => {
      const list = await t.call<AdminFailedScanList>(P.adminFailedScans, { limit: 50 }, scanManager);
      expect(list.total).toBe(2);
      const byId = new Map(list.scans.map((s) => [s.fileId, s]));
      const job = byId.get(crashed.body.fileId)!;
      expect(job).toMatchObject({ ownerId: u.auth.userId, size: crashed.body.encryptedSize, attempts: 1 });
      expect(job.failedReason).toMatch(/^Connection lost while reading http:\/\/store\.test\/bucket\/obj\?…/);
      expect(job.failedReason).not.toContain(fingerprint);
      expect(job.failedReason).not.toContain('at stack');
      expect(Date.parse(job.failedAt!)).toBeGreaterThan(Date.now() - 60_000);
      expect(byId.get(errored.body.fileId)).toEqual({
        fileId: errored.body.fileId,
        ownerId: u.auth.userId,
        size: errored.body.encryptedSize,
        attempts: 0,
        failedReason: 'Virus scanner unavailable after 5 tries (ECONNREFUSED)',
        failedAt: null,
      });
      expect(byId.has(clean.body.fileId)).toBe(false);
      const text = JSON.stringify(list);
      expect(text).not.toMatch(SEALED_RE);
      expect(text).not.toContain(crashed.body.encryptedName);

      const one = await t.call<AdminFailedScanList>(P.adminFailedScans, { limit: 1 }, scanManager);
      expect(one).toEqual({ scans: [list.scans[0]], total: 2 });
    });

    it('refuses the failed scans, retry and rescan without scans:manage', async () => {
      const reader = adminContext(['stats:read', 'system:read', 'users:read']);
      const fileId = crashed.body.fileId;
      for (const [pattern, body] of [
        [P.adminFailedScans, { limit: 5 }],
        [P.adminRetryScan, { fileId }],
        [P.adminRescanAll, {}],
      ] as const) {
        expect((await t.fail(pattern, body, reader)).code).toBe(ErrorCode.PERMISSION_DENIED);
        expect((await t.fail(pattern, body, u.ctx)).code).toBe(ErrorCode.ADMIN_REQUIRED);
      }
      expect((await t.fail(P.adminFailedScans, { limit: 500 }, scanManager)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
    });

    it('answers NOT_FOUND for a file whose scan did not fail, and an unknown one', async () => {
      for (const fileId of [clean.body.fileId, randomUUID()]) {
        const error = await t.fail(P.adminRetryScan, { fileId }, scanManager);
        expect(error).toMatchObject({ code: ErrorCode.NOT_FOUND, message: ADMIN_MESSAGES.scanJobNotFound });
      }
      expect((await t.fail(P.adminRetryScan, { fileId: 'nope' }, scanManager)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
    });

    it('retries the failed job, attempts starting over', async () => {
      const fileId = crashed.body.fileId;
      expect(await t.call<AdminQueued>(P.adminRetryScan, { fileId }, scanManager)).toEqual({ queued: 1 });
      const job = await scans().getJob(fileId);
      expect(await job!.getState()).toBe('waiting');
      expect(job!.attemptsMade).toBe(0);
      expect((await t.fail(P.adminRetryScan, { fileId }, scanManager)).code).toBe(ErrorCode.NOT_FOUND);
    });

    it('queues a new scan of an error verdict as an upload does, and marks it pending', async () => {
      const fileId = errored.body.fileId;
      expect(await t.call<AdminQueued>(P.adminRetryScan, { fileId }, scanManager)).toEqual({ queued: 1 });
      const job = await scans().getJob(fileId);
      expect(await job!.getState()).toBe('waiting');
      expect(job!.data).toEqual(toScanJobOf(errored));
      expect(await verdictOf(fileId)).toBe('pending');
      const list = await t.call<AdminFailedScanList>(P.adminFailedScans, { limit: 50 }, scanManager);
      expect(list).toEqual({ scans: [], total: 0 });
    });

    it('stores a rescan’s verdict over an earlier one (a clean file found infected after a signature update)', async () => {
      await verdict(
        clean.body.fileId,
        'infected',
        'ClamAV found Vault.Test.EICAR.UNOFFICIAL in the stored bytes.',
      );
      const files = (await u.call<FileListResponse>(P.list)).files;
      expect(files.find((f) => f.id === clean.body.fileId)?.virusScanResult).toBe('infected');
    });
  });

  describe('rescan-all', () => {
    const lockKey = RescanLockRepository.KEY;
    const rescanJobs = async (): Promise<Job[]> =>
      (await scans().getJobs(['waiting', 'delayed'])).filter((j) => String(j.id).startsWith('rescan-'));
    const runOf = (job: Job) => String(job.id).slice(0, 'rescan-'.length + 36);
    const storedIds = async (): Promise<string[]> =>
      (await t.pg.query(`SELECT id FROM files.files WHERE status = 'active'`)).rows.map((r) => r.id);
    /** The background run has ended once it let its lock go. */
    async function runEnded() {
      for (let i = 0; i < 200 && (await t.redis.client.exists(lockKey)) === 1; i++) await sleep(50);
      expect(await t.redis.client.exists(lockKey)).toBe(0);
    }

    it('queues one scan per stored file (trash included, pending uploads not), once per run', async () => {
      const u = await t.user();
      const kept = await t.upload(u, 'cloudinary', 1_000);
      await u.call(P.remove, { id: kept.body.fileId });
      await t.startUpload(u, uploadBody(500, 'local'));
      const stored = await storedIds();
      expect(stored).toContain(kept.body.fileId);

      const before = new Set((await rescanJobs()).map((j) => String(j.id)));
      expect(await t.call<AdminQueued>(P.adminRescanAll, {}, scanManager)).toEqual({ queued: stored.length });
      await runEnded();

      const added = (await rescanJobs()).filter((j) => !before.has(String(j.id)));
      expect(added.map((j) => j.data.fileId).sort()).toEqual([...stored].sort());
      expect(new Set(added.map(runOf)).size).toBe(1);
      for (const job of added) {
        expect(job.name).toBe(SCAN_FILE_JOB);
        expect(job.data).not.toHaveProperty('plaintextSha256');
        expect(job.opts.attempts).toBe(5);
      }
      // Another run queues every file again, under its own ids.
      expect(await t.call<AdminQueued>(P.adminRescanAll, {}, scanManager)).toEqual({ queued: stored.length });
      await runEnded();
      expect((await rescanJobs()).length).toBe(before.size + 2 * stored.length);
    });

    it('answers at once and queues in the background, 500 per batch, one run at a time', async () => {
      // A store of several batches, written straight into the table (what a scan job needs only).
      await t.pg.query(
        `INSERT INTO files.files (id, owner_id, status, storage_type, object_key, encrypted_name, encrypted_mime_type,
           encrypted_tags, wrapped_key, iv, chunk_size, size, encrypted_size, body_hash, uploaded_at)
         SELECT id, owner, 'active', 'local', owner || '/' || id, 'n', 'm', 't', 'k', 'iv', 65536, 10, 26, 'h', now()
         FROM (SELECT gen_random_uuid() AS id, gen_random_uuid() AS owner FROM generate_series(1, 2600)) AS seeded`,
      );
      const stored = await storedIds();
      const before = new Set((await rescanJobs()).map((j) => String(j.id)));
      const logsBefore = t.logs.length;

      expect(await t.call<AdminQueued>(P.adminRescanAll, {}, scanManager)).toEqual({ queued: stored.length });
      // The reply came while the run still holds its lock (it expires unless refreshed), and a
      // second call meanwhile is refused, queueing nothing.
      const pttl = await t.redis.client.pttl(lockKey);
      expect(pttl).toBeGreaterThan(0);
      expect(pttl).toBeLessThanOrEqual(RESCAN_LOCK_TTL_MS);
      expect(await t.fail(P.adminRescanAll, {}, scanManager)).toMatchObject({
        code: ErrorCode.CONFLICT,
        message: RESCAN_RUNNING,
      });
      await runEnded();

      const added = (await rescanJobs()).filter((j) => !before.has(String(j.id)));
      expect(added).toHaveLength(stored.length);
      expect(new Set(added.map((j) => j.data.fileId))).toEqual(new Set(stored));
      expect(new Set(added.map(runOf)).size).toBe(1);
      const lines = t.logs.slice(logsBefore).join('');
      const n = stored.length;
      expect(lines).toContain(`queueing ${n} scan(s) in the background`);
      for (const done of [500, 1_000, 1_500, 2_000, 2_500, n])
        expect(lines).toContain(`: ${done}/${n} queued`);
      expect(lines).toContain(`done, queued ${n} scan(s)`);
      expect(lines).not.toMatch(SEALED_RE);
    });

    it('answers CONFLICT while another replica’s run holds the lock, and runs once it is gone', async () => {
      await t.redis.client.set(lockKey, randomUUID(), 'PX', 60_000);
      const before = (await rescanJobs()).length;
      const error = await t.fail(P.adminRescanAll, {}, scanManager);
      expect(error).toMatchObject({ code: ErrorCode.CONFLICT, message: RESCAN_RUNNING });
      expect((await rescanJobs()).length).toBe(before);
      // That replica's lock expired (it died) or was released.
      await t.redis.client.del(lockKey);
      const { queued } = await t.call<AdminQueued>(P.adminRescanAll, {}, scanManager);
      expect(queued).toBe((await storedIds()).length);
      await runEnded();
      expect((await rescanJobs()).length).toBe(before + queued);
    });
  });
});
