import {
  ErrorCode,
  FILES_PATTERNS,
  UPLOAD_PART_MAX_BYTES,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileResponse,
} from '@vault/contracts';
import { buildBlobUrl } from '@vault/storage';
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BlobService } from '../../src/services/blob.service';
import { FilesService } from '../../src/services/files.service';
import { startFilesTestApp, testAppPerFile, uploadBody, type TestUser } from './support/files-test-app';

/** The blob route taking an upload in ordered parts (`PUT` + `Content-Range`), local storage. */
describe(`${BlobService.name} (upload in parts)`, () => {
  const t = testAppPerFile(() => startFilesTestApp('parts'));

  const absolute = (url: string) => t.absolute(url);

  /** One part: `bytes` at `first`, of an object of `total` bytes (headers overridable). */
  const putPart = (
    url: string,
    bytes: Buffer,
    first: number,
    total: number,
    headers: Record<string, string> = {},
  ) =>
    fetch(absolute(url), {
      method: 'PUT',
      body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
      headers: {
        'content-type': 'application/octet-stream',
        'content-range': `bytes ${first}-${first + bytes.length - 1}/${total}`,
        ...headers,
      },
    });

  async function errorOf(res: Response): Promise<{ code: string; error: string }> {
    return (await res.json()) as { code: string; error: string };
  }

  const partialOf = (user: TestUser, fileId: string) =>
    join(t.localRoot, user.auth.userId, `.${fileId}.upload`);
  const sizeOf = (path: string) =>
    stat(path).then(
      (s) => s.size,
      () => null,
    );

  async function begin(user: TestUser, size = 200_000) {
    const body = uploadBody(size, 'local');
    const started = await user.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    return { body, started, bytes: randomBytes(body.encryptedSize) };
  }

  /** A correctly signed upload URL of `key` that expired a minute ago. */
  function expiredUrl(key: string, len: number): string {
    const exp = Math.floor(Date.now() / 1000) - 60;
    return buildBlobUrl({ key, op: 'put', exp, len }, t.config.storage.signingSecret);
  }

  it('upload-url announces partSize on every storage; S3 adds one URL per part', async () => {
    const u = await t.user();
    for (const storageType of ['local', 'cloudinary'] as const) {
      const started = await u.call<CreateUploadResponse>(
        FILES_PATTERNS.createUpload,
        uploadBody(10, storageType),
      );
      expect(started.partSize).toBe(UPLOAD_PART_MAX_BYTES);
      expect(started.partUrls).toBeUndefined();
    }
    // One part: the whole-object URL itself (store-parts.spec.ts has the multipart uploads).
    const s3 = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, uploadBody(10, 's3'));
    expect(s3.partSize).toBe(UPLOAD_PART_MAX_BYTES);
    expect(s3.partUrls).toEqual([s3.uploadUrl]);
  });

  it('stores parts sent in order, answering 204 to each; complete and download give the same bytes', async () => {
    const u = await t.user();
    const { body, started, bytes } = await begin(u);
    const total = bytes.length;
    const cuts = [0, 70_000, 140_000, total];
    for (let i = 0; i < 3; i++) {
      const res = await putPart(started.uploadUrl, bytes.subarray(cuts[i], cuts[i + 1]), cuts[i]!, total);
      expect(res.status).toBe(204);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
    expect(await sizeOf(partialOf(u, body.fileId))).toBeNull();
    const done = await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    expect(done.file.encryptedSize).toBe(total);
    const link = await u.call<DownloadUrlResponse>(FILES_PATTERNS.downloadUrl, {
      id: body.fileId,
      purpose: 'download',
    });
    const res = await fetch(absolute(link.downloadUrl));
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    // The upload is no longer pending: more parts are refused.
    expect((await putPart(started.uploadUrl, bytes.subarray(0, 10), 0, total)).status).toBe(403);
  });

  it('refuses a part out of order with 409 naming the next offset, and stores nothing', async () => {
    const u = await t.user();
    const { body, started, bytes } = await begin(u);
    const total = bytes.length;
    const skipped = await putPart(started.uploadUrl, bytes.subarray(1000, 2000), 1000, total);
    expect(skipped.status).toBe(409);
    expect(await errorOf(skipped)).toMatchObject({
      code: ErrorCode.CONFLICT,
      error: 'Parts must arrive in order: the next part starts at byte 0',
    });
    expect(await sizeOf(partialOf(u, body.fileId))).toBeNull();

    expect((await putPart(started.uploadUrl, bytes.subarray(0, 1000), 0, total)).status).toBe(204);
    const again = await putPart(started.uploadUrl, bytes.subarray(2000, 3000), 2000, total);
    expect(again.status).toBe(409);
    expect((await errorOf(again)).error).toBe(
      'Parts must arrive in order: the next part starts at byte 1000',
    );
    expect(await sizeOf(partialOf(u, body.fileId))).toBe(1000);
    expect((await u.fail(FILES_PATTERNS.completeUpload, { fileId: body.fileId })).code).toBe(
      ErrorCode.UPLOAD_SIZE_MISMATCH,
    );
  });

  it('refuses a wrong total, an oversized part, a body of another length and a garbled header', async () => {
    const u = await t.user();
    const { body, started, bytes } = await begin(u);
    const total = bytes.length;
    const wrongTotal = await putPart(started.uploadUrl, bytes.subarray(0, 100), 0, total + 1);
    expect(wrongTotal.status).toBe(400);
    expect((await errorOf(wrongTotal)).code).toBe(ErrorCode.UPLOAD_SIZE_MISMATCH);

    const short = await putPart(started.uploadUrl, bytes.subarray(0, 50), 0, total, {
      'content-range': `bytes 0-99/${total}`,
    });
    expect(short.status).toBe(400);
    expect((await errorOf(short)).code).toBe(ErrorCode.UPLOAD_SIZE_MISMATCH);
    const long = await putPart(started.uploadUrl, bytes.subarray(0, 150), 0, total, {
      'content-range': `bytes 0-99/${total}`,
    });
    expect(long.status).toBe(413);

    for (const header of [
      'bytes 0-99',
      'bytes */123',
      `bytes 100-99/${total}`,
      `bytes 0-${total}/${total}`,
    ]) {
      const garbled = await putPart(started.uploadUrl, bytes.subarray(0, 100), 0, total, {
        'content-range': header,
      });
      expect(garbled.status).toBe(400);
      expect((await errorOf(garbled)).code).toBe(ErrorCode.VALIDATION_FAILED);
    }
    expect(await sizeOf(partialOf(u, body.fileId))).toBeNull();

    // A bigger file, so a part over the limit stays inside the total.
    const big = uploadBody(UPLOAD_PART_MAX_BYTES + 1024, 'local');
    const bigStarted = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, big);
    const oversized = await putPart(bigStarted.uploadUrl, Buffer.alloc(10), 0, big.encryptedSize, {
      'content-range': `bytes 0-${UPLOAD_PART_MAX_BYTES}/${big.encryptedSize}`,
    });
    expect(oversized.status).toBe(413);
    expect((await errorOf(oversized)).error).toContain(`at most ${UPLOAD_PART_MAX_BYTES} bytes`);
    expect(await sizeOf(partialOf(u, big.fileId))).toBeNull();
  });

  it('a part refused for its length can be resent; a part at 0 starts over', async () => {
    const u = await t.user();
    const { body, started, bytes } = await begin(u, 5_000);
    const total = bytes.length;
    expect((await putPart(started.uploadUrl, bytes.subarray(0, 2000), 0, total)).status).toBe(204);
    const short = await putPart(started.uploadUrl, bytes.subarray(2000, 2500), 2000, total, {
      'content-range': `bytes 2000-2999/${total}`,
    });
    expect(short.status).toBe(400);
    expect(await sizeOf(partialOf(u, body.fileId))).toBe(2000);
    // Start over with other bytes: the earlier partial is dropped.
    const other = randomBytes(total);
    expect((await putPart(started.uploadUrl, other.subarray(0, 3000), 0, total)).status).toBe(204);
    expect((await putPart(started.uploadUrl, other.subarray(3000), 3000, total)).status).toBe(204);
    await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    const link = await u.call<DownloadUrlResponse>(FILES_PATTERNS.downloadUrl, {
      id: body.fileId,
      purpose: 'download',
    });
    expect(Buffer.from(await (await fetch(absolute(link.downloadUrl))).arrayBuffer()).equals(other)).toBe(
      true,
    );
  });

  it('an expired URL may only continue an upload that began in time, at the right offset', async () => {
    const u = await t.user();
    const { body, started, bytes } = await begin(u, 5_000);
    const total = bytes.length;
    const key = `${u.auth.userId}/${body.fileId}`;
    const expired = expiredUrl(key, total);
    expect((await putPart(expired, bytes.subarray(0, 1000), 0, total)).status).toBe(403);
    expect((await putPart(expired, bytes.subarray(1000, 2000), 1000, total)).status).toBe(403);
    expect(await sizeOf(partialOf(u, body.fileId))).toBeNull();

    expect((await putPart(started.uploadUrl, bytes.subarray(0, 1000), 0, total)).status).toBe(204);
    // Wrong offset with an expired URL: an invalid link, not a hint where to resume.
    expect((await putPart(expired, bytes.subarray(2000, 3000), 2000, total)).status).toBe(403);
    expect((await putPart(expired, bytes.subarray(1000), 1000, total)).status).toBe(204);
    const done = await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    expect(done.file.encryptedSize).toBe(total);
    // A whole PUT with an expired URL stays refused.
    const whole = await fetch(absolute(expired), { method: 'PUT', body: new Blob([bytes]) });
    expect(whole.status).toBe(403);
  });

  it('a tampered signature is refused for continuation parts too', async () => {
    const u = await t.user();
    const { started, bytes } = await begin(u, 5_000);
    const total = bytes.length;
    expect((await putPart(started.uploadUrl, bytes.subarray(0, 1000), 0, total)).status).toBe(204);
    const tampered = started.uploadUrl.replace(
      /sig=([0-9a-f])/,
      (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`,
    );
    expect((await putPart(tampered, bytes.subarray(1000), 1000, total)).status).toBe(403);
  });

  it('storage the browser reaches directly (S3) has no blob route to take parts', async () => {
    const u = await t.user();
    const body = uploadBody(1_000, 's3');
    await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    const url = buildBlobUrl(
      {
        key: `${u.auth.userId}/${body.fileId}`,
        op: 'put',
        exp: Math.floor(Date.now() / 1000) + 60,
        len: body.encryptedSize,
      },
      t.config.storage.signingSecret,
    );
    const res = await putPart(url, randomBytes(100), 0, body.encryptedSize);
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe(ErrorCode.VALIDATION_FAILED);
  });

  it('the abandoned-upload cleanup removes a half-sent upload in parts, and a late part is refused', async () => {
    const u = await t.user();
    const { body, started, bytes } = await begin(u, 5_000);
    expect((await putPart(started.uploadUrl, bytes.subarray(0, 1000), 0, bytes.length)).status).toBe(204);
    expect(await sizeOf(partialOf(u, body.fileId))).toBe(1000);
    const later = new Date(Date.now() + (t.config.cleanup.abandonSeconds + 1) * 1000);
    expect(await t.service.app.get(FilesService).cleanupAbandoned(later)).toBeGreaterThanOrEqual(1);
    expect(await sizeOf(partialOf(u, body.fileId))).toBeNull();
    expect((await putPart(started.uploadUrl, bytes.subarray(1000), 1000, bytes.length)).status).toBe(403);
  });
});
