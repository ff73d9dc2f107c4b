import { randomUUID } from 'node:crypto';
import { SCAN_QUEUE } from '@vault/contracts';
import { CLEANUP_ABANDONED_UPLOADS_JOB, FILES_MAINTENANCE_QUEUE } from '@vault/server-kit';
import { queryPlan } from '@vault/server-kit/testing';
import type Redis from 'ioredis';
import { FILES_REDIS } from '../../src/repositories/connections';
import { ScanRequeueService } from '../../src/services/scan-requeue.service';
import { startFilesTestApp, testAppPerFile, uploadBody } from './support/files-test-app';

describe(`${ScanRequeueService.name}: scans lost with the queue are queued again`, () => {
  const t = testAppPerFile(() => startFilesTestApp('scan-requeue'));
  const scans = () => t.queue(SCAN_QUEUE);
  const requeue = () => t.service.app.get(ScanRequeueService);

  it('queues the scan of a stored file still pending whose job is gone, once', async () => {
    const u = await t.user();
    const { file } = await t.upload(u, 'local');
    // What a Redis that comes back empty leaves: the verdict pending, no job.
    await scans().remove(file.id);
    expect(await scans().getJob(file.id)).toBeUndefined();

    expect(await requeue().requeuePending(0, 'test')).toBeGreaterThanOrEqual(1);
    const job = await scans().getJob(file.id);
    expect(job?.data).toMatchObject({ fileId: file.id, ownerId: u.auth.userId, storageType: 'local' });
    expect(job?.data).not.toHaveProperty('plaintextSha256');

    // Again: the job id is the file's, so nothing more is queued.
    await requeue().requeuePending(0, 'test');
    expect(
      (await scans().getJobs(['waiting', 'delayed', 'active'])).filter((j) => j.id === file.id),
    ).toHaveLength(1);
  });

  it('schedules the abandoned-upload cleanup again when Redis comes back without it', async () => {
    const maintenance = t.queue(FILES_MAINTENANCE_QUEUE);
    const schedulers = async () => (await maintenance.getJobSchedulers()).map((s) => s.key);
    expect(await schedulers()).toContain(CLEANUP_ABANDONED_UPLOADS_JOB);
    // What a Redis that comes back empty leaves: no scheduler, so no cleanup would ever run.
    await maintenance.removeJobScheduler(CLEANUP_ABANDONED_UPLOADS_JOB);
    expect(await schedulers()).not.toContain(CLEANUP_ABANDONED_UPLOADS_JOB);

    t.service.app.get<Redis>(FILES_REDIS).emit('ready');
    const deadline = Date.now() + 5_000;
    while (!(await schedulers()).includes(CLEANUP_ABANDONED_UPLOADS_JOB) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await schedulers()).toEqual([CLEANUP_ABANDONED_UPLOADS_JOB]);
  });

  it('leaves files with a verdict, pending uploads and verdicts younger than the age asked for', async () => {
    const u = await t.user();
    const { file: scanned } = await t.upload(u, 'local');
    const { file: young } = await t.upload(u, 'local');
    const unfinished = uploadBody(2_000, 'local');
    await t.startUpload(u, unfinished);
    await t.pg.query(
      `UPDATE files.files SET virus_scan_result = 'clean', virus_scanned = true WHERE id = $1`,
      [scanned.id],
    );
    await scans().remove(scanned.id);
    await scans().remove(young.id);

    await requeue().requeuePending(60_000, 'test');
    expect(await scans().getJob(scanned.id)).toBeUndefined();
    expect(await scans().getJob(young.id)).toBeUndefined();
    await t.pg.query(`UPDATE files.files SET uploaded_at = now() - interval '2 minutes' WHERE id = $1`, [
      young.id,
    ]);
    await requeue().requeuePending(60_000, 'test');
    await t.pg.query(`UPDATE files.files SET created_at = now() - interval '2 minutes' WHERE id = $1`, [
      unfinished.fileId,
    ]);
    await requeue().requeuePending(0, 'test');
    expect(await scans().getJob(young.id)).toBeDefined();
    expect(await scans().getJob(scanned.id)).toBeUndefined();
    expect(await scans().getJob(unfinished.fileId)).toBeUndefined();
  });

  it('reads the pending verdicts through files_scan_pending_idx, never by scanning the table', async () => {
    // A few thousand files with a verdict and a few still pending: what the sweep meets in a real install.
    await t.pg.query(
      `INSERT INTO files.files (id, owner_id, status, storage_type, object_key, encrypted_name, encrypted_mime_type,
                               encrypted_tags, wrapped_key, iv, chunk_size, size, encrypted_size, virus_scanned,
                               virus_scan_result, body_hash, uploaded_at)
       SELECT gen_random_uuid(), gen_random_uuid(), 'active', 'local', 'k' || n, 'n', 'm', 't', 'w', 'iv', 65536,
              10, 26, n % 500 <> 0, CASE WHEN n % 500 = 0 THEN 'pending' ELSE 'clean' END, 'h',
              now() - n * interval '1 second'
       FROM generate_series(1, 5000) n`,
    );
    await t.pg.query('ANALYZE files.files');
    const [sql, params] = requeue()
      .pendingQuery(new Date(), { uploadedAt: new Date(Date.now() - 3_600_000), id: randomUUID() })
      .getQueryAndParameters();
    const planNodes = await queryPlan(t.pg, sql, params);
    expect(planNodes.filter((n) => n['Index Name']).map((n) => n['Index Name'])).toEqual([
      'files_scan_pending_idx',
    ]);
    expect(planNodes.map((n) => n['Node Type'])).not.toContain('Seq Scan');
    expect(planNodes.map((n) => n['Node Type'])).not.toContain('Sort');
  });
});
