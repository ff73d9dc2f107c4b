import {
  ErrorCode,
  FILES_PATTERNS,
  SCAN_QUEUE,
  type CreateUploadResponse,
  type FileResponse,
} from '@vault/contracts';
import { JOB_QUEUES, createQueueConnection, queuePrefix } from '@vault/server-kit';
import { Queue } from 'bullmq';
import { randomBytes } from 'node:crypto';
import { FilesService } from '../../src/services/files.service';
import { startFilesTestApp, uploadBody, type FilesTestApp, type TestUser } from './support/files-test-app';

describe(`${FilesService.name}: the opt-in plaintext fingerprint at upload-complete`, () => {
  let t: FilesTestApp;
  let scans: Queue;
  let connection: ReturnType<typeof createQueueConnection>;

  beforeAll(async () => {
    t = await startFilesTestApp('fingerprint');
    connection = createQueueConnection(t.config.redis.url);
    scans = new Queue(SCAN_QUEUE, { connection, prefix: queuePrefix(t.config.redis.prefix) });
  });

  afterAll(async () => {
    await scans?.close();
    connection?.disconnect();
    await t?.close();
  });

  async function uploaded(u: TestUser) {
    const body = uploadBody(2_000, 'local');
    const started = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    const res = await fetch(`${t.blobBase}${started.uploadUrl}`, {
      method: 'PUT',
      body: new Blob([randomBytes(body.encryptedSize) as Uint8Array<ArrayBuffer>]),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.status).toBeLessThan(300);
    return body.fileId;
  }

  it('passes the fingerprint to the scan job only, which is removed once it ends', async () => {
    const u = await t.user();
    const fileId = await uploaded(u);
    const plaintextSha256 = randomBytes(32).toString('hex');
    await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId, plaintextSha256 });

    const job = await scans.getJob(fileId);
    expect(job?.data).toMatchObject({ fileId, plaintextSha256 });
    expect(job?.opts).toMatchObject({ removeOnComplete: true, removeOnFail: true });
    const row = await t.pg.query(`SELECT f::text AS row FROM files.files f WHERE id = $1`, [fileId]);
    expect(row.rows).toHaveLength(1);
    expect(row.rows[0].row).not.toContain(plaintextSha256);
  });

  it('queues no fingerprint when none is sent', async () => {
    const u = await t.user();
    const fileId = await uploaded(u);
    await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId });
    const job = await scans.getJob(fileId);
    expect(job?.data).not.toHaveProperty('plaintextSha256');
    // The scan queue's policy: removed once done; a failure is kept (bounded) for inspection.
    expect(job?.opts).toMatchObject({
      removeOnComplete: true,
      removeOnFail: JOB_QUEUES.scan.policy.removeOnFail,
    });
  });

  it('refuses a fingerprint that is not 64 lowercase hex characters', async () => {
    const u = await t.user();
    const fileId = await uploaded(u);
    for (const plaintextSha256 of ['ab', 'AB'.repeat(32), 'zz'.repeat(32)]) {
      const error = await u.fail(FILES_PATTERNS.completeUpload, { fileId, plaintextSha256 });
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    }
  });
});
