import {
  ACCOUNT_PURGE_JOB,
  ACCOUNT_PURGE_QUEUES,
  FILES_PATTERNS,
  type CreateUploadResponse,
  type FileResponse,
  type StorageType,
} from '@vault/contracts';
import { createQueueConnection, queuePrefix } from '@vault/server-kit';
import { Queue, type Job } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { AccountPurgeConsumer } from '../../src/handlers/account-purge.consumer';
import { StorageRepository } from '../../src/repositories/storage.repository';
import { startFilesTestApp, uploadBody, type FilesTestApp, type TestUser } from './support/files-test-app';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(AccountPurgeConsumer.name, () => {
  let t: FilesTestApp;
  let queue: Queue;
  let connection: ReturnType<typeof createQueueConnection>;
  let storage: StorageRepository;

  beforeAll(async () => {
    t = await startFilesTestApp('purge');
    connection = createQueueConnection(t.config.redis.url);
    queue = new Queue(ACCOUNT_PURGE_QUEUES.files, { connection, prefix: queuePrefix(t.config.redis.prefix) });
    storage = t.service.app.get(StorageRepository);
  });

  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await t?.close();
  });

  const absolute = (url: string) => (url.startsWith('/') ? `${t.blobBase}${url}` : url);

  /** upload-url and PUT; upload-complete unless `complete` is false (a pending upload). */
  async function upload(u: TestUser, storageType: StorageType, complete = true) {
    const body = uploadBody(3_000, storageType);
    const started = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    const res = await fetch(absolute(started.uploadUrl), {
      method: 'PUT',
      body: new Blob([randomBytes(body.encryptedSize) as Uint8Array<ArrayBuffer>]),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBeLessThan(300);
    if (complete) await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    return { storageType, key: `${u.auth.userId}/${body.fileId}`, fileId: body.fileId };
  }

  const rowsOf = async (userId: string): Promise<number> =>
    Number(
      (await t.pg.query<{ n: string }>(`SELECT count(*) AS n FROM files.files WHERE owner_id = $1`, [userId]))
        .rows[0]?.n,
    );

  async function runJob(data: unknown, jobId: string): Promise<Job> {
    await queue.add(ACCOUNT_PURGE_JOB, data, { jobId, attempts: 3 });
    for (let i = 0; i < 400; i += 1) {
      const job = await queue.getJob(jobId);
      const state = await job?.getState();
      if (state === 'completed' || state === 'failed') return job!;
      await sleep(50);
    }
    throw new Error(`job ${jobId} did not finish`);
  }

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
    for (const o of objects) expect(await storage.driver(o.storageType).stat(o.key)).not.toBeNull();

    const job = await runJob(
      { userId: victim.auth.userId, requestedAt: new Date().toISOString() },
      `purge-${victim.auth.userId}`,
    );
    expect(await job.getState()).toBe('completed');
    expect(job.returnvalue).toBe(4);
    expect(await rowsOf(victim.auth.userId)).toBe(0);
    for (const o of objects) expect(await storage.driver(o.storageType).stat(o.key)).toBeNull();
    expect(await rowsOf(bystander.auth.userId)).toBe(1);
    expect(await storage.driver('local').stat(kept.key)).not.toBeNull();
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
