import {
  ACCOUNT_PURGE_JOB,
  ACCOUNT_PURGE_QUEUES,
  FILES_PATTERNS,
  type FileResponse,
  type StorageType,
} from '@vault/contracts';
import { AccountPurgeConsumer } from '@vault/server-kit';
import { runQueuedJob } from '@vault/server-kit/testing';
import type { Job } from 'bullmq';
import { StorageRepository } from '../../src/repositories/storage.repository';
import { startFilesTestApp, testAppPerFile, uploadBody, type TestUser } from './support/files-test-app';

describe(AccountPurgeConsumer.name, () => {
  const t = testAppPerFile(() => startFilesTestApp('purge'));
  const storage = () => t.service.app.get(StorageRepository);

  /** upload-url and PUT; upload-complete unless `complete` is false (a pending upload). */
  async function upload(u: TestUser, storageType: StorageType, complete = true) {
    const body = uploadBody(3_000, storageType);
    await t.startUpload(u, body);
    if (complete) await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    return { storageType, key: `${u.auth.userId}/${body.fileId}`, fileId: body.fileId };
  }

  const rowsOf = async (userId: string): Promise<number> =>
    Number(
      (await t.pg.query<{ n: string }>(`SELECT count(*) AS n FROM files.files WHERE owner_id = $1`, [userId]))
        .rows[0]?.n,
    );

  const runJob = (data: unknown, jobId: string): Promise<Job> =>
    runQueuedJob(t.queue(ACCOUNT_PURGE_QUEUES.files), ACCOUNT_PURGE_JOB, data, { jobId, attempts: 3 });

  it('deletes every file row and stored object of the user (trash and pending uploads too), nobody else’s', async () => {
    const victim = await t.user();
    const bystander = await t.user();
    const objects = [
      await upload(victim, 'local'),
      await upload(victim, 's3'),
      await upload(victim, 'local', false),
    ];
    const trashed = await upload(victim, 'local');
    await victim.call(FILES_PATTERNS.remove, { id: trashed.fileId });
    objects.push(trashed);
    const kept = await upload(bystander, 'local');
    expect(await rowsOf(victim.auth.userId)).toBe(4);
    for (const o of objects) expect(await storage().driver(o.storageType).stat(o.key)).not.toBeNull();

    const job = await runJob(
      { userId: victim.auth.userId, requestedAt: new Date().toISOString() },
      `purge-${victim.auth.userId}`,
    );
    expect(await job.getState()).toBe('completed');
    expect(job.returnvalue).toBe(4);
    expect(await rowsOf(victim.auth.userId)).toBe(0);
    for (const o of objects) expect(await storage().driver(o.storageType).stat(o.key)).toBeNull();
    expect(await rowsOf(bystander.auth.userId)).toBe(1);
    expect(await storage().driver('local').stat(kept.key)).not.toBeNull();
  });

  it('is idempotent: a replay finds nothing and succeeds', async () => {
    const victim = await t.user();
    await upload(victim, 'local');
    const data = { userId: victim.auth.userId, requestedAt: new Date().toISOString() };
    expect((await runJob(data, `first-${victim.auth.userId}`)).returnvalue).toBe(1);
    const replay = await runJob(data, `replay-${victim.auth.userId}`);
    expect(await replay.getState()).toBe('completed');
    expect(replay.returnvalue).toBe(0);
  });
});
