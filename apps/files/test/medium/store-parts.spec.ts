import {
  ErrorCode,
  FILES_PATTERNS,
  UPLOAD_PART_MAX_BYTES,
  type CreateUploadResponse,
  type FileResponse,
} from '@vault/contracts';
import { AccountPurgeService } from '../../src/services/account-purge.service';
import { FilesService } from '../../src/services/files.service';
import { startFilesTestApp, testAppPerFile, type TestUser } from './support/files-test-app';

const PART = UPLOAD_PART_MAX_BYTES;
/** Plaintext size of a file whose ciphertext is two parts: one full, one of about 1 MiB. */
const TWO_PARTS = PART + 1024 * 1024;

/**
 * Uploads in parts to stores that track them (S3 multipart uploads the browser sends straight to
 * the bucket; Cloudinary chunked uploads through the blob route), and how upload-complete, the
 * cleanup and deletes end them.
 */
describe('uploads in parts to S3 and Cloudinary', () => {
  const t = testAppPerFile(() => startFilesTestApp('storeparts'));

  /** A PUT of bytes, with `Content-Range` when a range is given (the blob route's parts). */
  const put = (url: string, bytes: Buffer, range?: { first: number; total: number }) =>
    fetch(t.absolute(url), {
      method: 'PUT',
      body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
      headers: {
        'content-type': 'application/octet-stream',
        ...(range
          ? { 'content-range': `bytes ${range.first}-${range.first + bytes.length - 1}/${range.total}` }
          : {}),
      },
    });
  const partOf = (bytes: Buffer, i: number) => bytes.subarray(i * PART, (i + 1) * PART);
  const uploadIdOf = async (fileId: string) =>
    (
      (await t.pg.query('SELECT upload_id FROM files.files WHERE id = $1', [fileId])).rows[0] as
        { upload_id: string | null } | undefined
    )?.upload_id;

  const begin = (user: TestUser, storageType: 's3' | 'cloudinary', size = TWO_PARTS) =>
    t.begin(user, storageType, size);
  const downloaded = (user: TestUser, fileId: string) => t.downloaded(user, fileId);
  const listed = (user: TestUser) => t.listed(user);

  describe('S3: multipart uploads straight to the bucket', () => {
    it('upload-url begins a multipart upload and signs one URL per part; complete joins exactly the parts', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 's3');
      expect(started.partSize).toBe(PART);
      expect(started.partUrls).toHaveLength(2);
      const uploadId = await uploadIdOf(body.fileId);
      expect(uploadId).toBeTruthy();
      expect(t.s3.multipartUploads.get(uploadId!)?.key).toBe(`${u.auth.userId}/${body.fileId}`);
      for (const [i, url] of started.partUrls!.entries()) {
        const signed = new URL(url);
        expect(signed.searchParams.get('uploadId')).toBe(uploadId);
        expect(signed.searchParams.get('partNumber')).toBe(String(i + 1));
        // The parts live until the cleanup would abort the upload; the whole-object URL 5 minutes.
        expect(signed.searchParams.get('X-Amz-Expires')).toBe(String(t.config.cleanup.abandonSeconds));
      }
      expect(new URL(started.uploadUrl).searchParams.get('X-Amz-Expires')).toBe('300');
      // Any order (S3 joins them by number).
      expect((await put(started.partUrls![1]!, partOf(bytes, 1))).status).toBe(200);
      expect((await put(started.partUrls![0]!, partOf(bytes, 0))).status).toBe(200);
      const done = await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect(done.file.encryptedSize).toBe(bytes.length);
      expect(await uploadIdOf(body.fileId)).toBeNull();
      expect(t.s3.multipartUploads.has(uploadId!)).toBe(false);
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('parts that are not the declared ones: 400, the multipart upload aborted, the record pending; upload-url again works', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 's3');
      const first = (await uploadIdOf(body.fileId))!;
      await put(started.partUrls![0]!, partOf(bytes, 0));
      const missing = await u.fail(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect(missing.code).toBe(ErrorCode.UPLOAD_SIZE_MISMATCH);
      expect(missing.message).toBe('Part 2 of 2 of the upload is missing');
      expect(t.s3.multipartUploads.has(first)).toBe(false);
      expect(await uploadIdOf(body.fileId)).toBeNull();
      expect(await listed(u)).not.toContain(body.fileId);
      // A late part of the aborted upload lands nowhere.
      expect((await put(started.partUrls![1]!, partOf(bytes, 1))).status).toBe(404);

      const again = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
      expect(again.fileId).toBe(body.fileId);
      for (const [i, url] of again.partUrls!.entries())
        expect((await put(url, partOf(bytes, i))).status).toBe(200);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('a repeated upload-url aborts the multipart upload it replaces', async () => {
      const u = await t.user();
      const { body } = await begin(u, 's3');
      const first = (await uploadIdOf(body.fileId))!;
      await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
      const second = await uploadIdOf(body.fileId);
      expect(second).not.toBe(first);
      expect(t.s3.multipartUploads.has(first)).toBe(false);
      expect(t.s3.multipartUploads.has(second!)).toBe(true);
    });

    it('a client that PUTs the whole object to uploadUrl instead still completes (the multipart upload is aborted)', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 's3');
      const uploadId = (await uploadIdOf(body.fileId))!;
      expect((await put(started.uploadUrl, bytes)).status).toBe(200);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect(t.s3.multipartUploads.has(uploadId)).toBe(false);
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('the abandoned-upload cleanup and an account purge abort unfinished multipart uploads', async () => {
      const u = await t.user();
      const abandoned = await begin(u, 's3');
      const purged = await begin(u, 's3');
      const ids = [(await uploadIdOf(abandoned.body.fileId))!, (await uploadIdOf(purged.body.fileId))!];
      await put(abandoned.started.partUrls![0]!, partOf(abandoned.bytes, 0));
      await t.pg.query(`UPDATE files.files SET created_at = now() - interval '2 days' WHERE id = $1`, [
        abandoned.body.fileId,
      ]);
      expect(await t.service.app.get(FilesService).cleanupAbandoned()).toBeGreaterThanOrEqual(1);
      expect(t.s3.multipartUploads.has(ids[0]!)).toBe(false);
      expect(t.s3.multipartUploads.has(ids[1]!)).toBe(true);
      await t.service.app.get(AccountPurgeService).purgeOwner(u.auth.userId);
      expect(t.s3.multipartUploads.has(ids[1]!)).toBe(false);
    });

    it('complete after an earlier complete whose answer was lost: the joined object is checked and listed', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 's3');
      for (const [i, url] of started.partUrls!.entries()) await put(url, partOf(bytes, i));
      // The store completed it; the service never heard (its reply lost, its process gone).
      const uploadId = (await uploadIdOf(body.fileId))!;
      const s3 = t.service.app.get(FilesService)['storage'].driver('s3');
      await s3.completeMultipart!(`${u.auth.userId}/${body.fileId}`, uploadId, {
        total: bytes.length,
        partSize: PART,
      });
      const done = await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect(done.file.id).toBe(body.fileId);
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });
  });

  describe('Cloudinary: parts passed on as chunks of its chunked upload', () => {
    it('parts in order become one asset; each went to Cloudinary as a chunk of one X-Unique-Upload-Id', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 'cloudinary');
      expect(started.partSize).toBe(PART);
      const total = bytes.length;
      expect((await put(started.uploadUrl, partOf(bytes, 0), { first: 0, total })).status).toBe(204);
      const uploadId = await uploadIdOf(body.fileId);
      expect(t.cloudinary.chunkedUploads()).toContainEqual({
        uploadId,
        publicId: `vault/${u.auth.userId}/${body.fileId}`,
        ranges: [[0, PART - 1]],
      });
      expect((await put(started.uploadUrl, partOf(bytes, 1), { first: PART, total })).status).toBe(204);
      expect(t.cloudinary.chunkedUploads().some((c) => c.uploadId === uploadId)).toBe(false);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect(await uploadIdOf(body.fileId)).toBeNull();
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('parts sent at once (as the browser does) wait for each other in byte order, even when the last arrives first', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 'cloudinary', 2 * PART + 4096);
      const total = bytes.length;
      // On separate connections they may arrive in any order: here the last arrives first.
      const answers = await Promise.all(
        [2, 1, 0].map(async (i, n) => {
          await new Promise((r) => setTimeout(r, n * 150));
          return put(started.uploadUrl, partOf(bytes, i), { first: i * PART, total });
        }),
      );
      expect(answers.map((a) => a.status)).toEqual([204, 204, 204]);
      expect(t.cloudinary.chunkedUploads().some((c) => c.publicId.endsWith(body.fileId))).toBe(false);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('refuses a part out of order (409 with the offset) and a part under 5 MiB that is not the last', async () => {
      const u = await t.user();
      const { started, bytes } = await begin(u, 'cloudinary');
      const total = bytes.length;
      const early = await put(started.uploadUrl, partOf(bytes, 1), { first: PART, total });
      expect(early.status).toBe(409);
      expect(await early.json()).toMatchObject({ code: ErrorCode.CONFLICT, stored: 0 });
      const small = await put(started.uploadUrl, bytes.subarray(0, 1024), { first: 0, total });
      expect(small.status).toBe(400);
      expect(await small.json()).toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
      // Once a part is stored, the next must start where it ended.
      expect((await put(started.uploadUrl, partOf(bytes, 0), { first: 0, total })).status).toBe(204);
      const skipped = await put(started.uploadUrl, bytes.subarray(PART + 1024), {
        first: PART + 1024,
        total,
      });
      expect(skipped.status).toBe(409);
      expect(await skipped.json()).toMatchObject({ code: ErrorCode.CONFLICT, stored: PART });
    });
  });
});
