import { ErrorCode, FILES_PATTERNS, SCAN_QUEUE, type FileResponse } from '@vault/contracts';
import { randomBytes } from 'node:crypto';
import { JOB_QUEUES } from '@vault/server-kit';
import { FilesService } from '../../src/services/files.service';
import { startFilesTestApp, testAppPerFile, uploadBody, type TestUser } from './support/files-test-app';

describe(`${FilesService.name}: the opt-in plaintext fingerprint at upload-complete`, () => {
  const t = testAppPerFile(() => startFilesTestApp('fingerprint'));
  const scans = () => t.queue(SCAN_QUEUE);

  async function uploaded(u: TestUser) {
    const body = uploadBody(2_000, 'local');
    await t.startUpload(u, body);
    return body.fileId;
  }

  it('passes the fingerprint to the scan job only, which is removed once it ends', async () => {
    const u = await t.user();
    const fileId = await uploaded(u);
    const plaintextSha256 = randomBytes(32).toString('hex');
    await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId, plaintextSha256 });

    const job = await scans().getJob(fileId);
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
    const job = await scans().getJob(fileId);
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
