import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@vault/contracts';
import { partCount, S3StorageDriver } from '../../src';
import { freshKey, readAll, s3rverPerFile } from './storage-behaviour';

const MIB = 1024 * 1024;
const PART = 5 * MIB;

/** PUTs one part's bytes to its presigned URL, as the browser does (no Content-Range). */
function putPart(url: string, bytes: Buffer): Promise<Response> {
  return fetch(url, {
    method: 'PUT',
    body: Uint8Array.from(bytes),
    headers: { 'content-type': 'application/octet-stream' },
  });
}

const partOf = (bytes: Buffer, n: number) => bytes.subarray((n - 1) * PART, n * PART);

/** Multipart uploads the browser sends straight to S3: presigned UploadPart URLs, ListParts, complete, abort. */
describe(`${S3StorageDriver.name} (multipart uploads from the browser)`, () => {
  const t = s3rverPerFile();

  /** A started upload of `total` random bytes with its part URLs. */
  async function begin(total = 2 * PART + 1234) {
    const key = freshKey();
    const bytes = randomBytes(total);
    const layout = { total, partSize: PART };
    const uploadId = await t.driver.startMultipart(key);
    const urls = await t.driver.signMultipartParts(key, uploadId, { ...layout, expiresInSeconds: 300 });
    return { key, bytes, layout, uploadId, urls: urls.map((u) => u.url) };
  }

  it('signs one UploadPart URL per part; parts sent in any order join into the exact object', async () => {
    const { key, bytes, layout, uploadId, urls } = await begin();
    expect(urls).toHaveLength(3);
    expect(partCount(layout)).toBe(3);
    for (const [i, url] of urls.entries()) {
      const u = new URL(url);
      expect(u.pathname).toBe(`/${t.s3.bucket}/${key}`);
      expect(u.searchParams.get('partNumber')).toBe(String(i + 1));
      expect(u.searchParams.get('uploadId')).toBe(uploadId);
      expect(u.searchParams.get('X-Amz-Expires')).toBe('300');
    }
    // Nothing is visible before the upload is completed.
    for (const n of [3, 1, 2]) expect((await putPart(urls[n - 1]!, partOf(bytes, n))).status).toBe(200);
    expect(await t.driver.stat(key)).toBeNull();
    expect(await t.driver.completeMultipart(key, uploadId, layout)).toEqual({ size: bytes.length });
    expect((await readAll(await t.driver.get(key))).equals(bytes)).toBe(true);
    expect(t.s3.multipartUploads.has(uploadId)).toBe(false);
    // Completed: the store no longer knows the upload, and its URLs write nothing.
    expect(await t.driver.completeMultipart(key, uploadId, layout)).toBeNull();
    expect((await putPart(urls[0]!, partOf(bytes, 1))).status).toBe(404);
  });

  it('completes only the declared parts: a missing, short, long or extra part is UPLOAD_SIZE_MISMATCH and changes nothing', async () => {
    const { key, bytes, layout, uploadId, urls } = await begin();
    await putPart(urls[0]!, partOf(bytes, 1));
    await putPart(urls[2]!, partOf(bytes, 3));
    await expect(t.driver.completeMultipart(key, uploadId, layout)).rejects.toMatchObject({
      code: ErrorCode.UPLOAD_SIZE_MISMATCH,
      message: 'Part 2 of 3 of the upload is missing',
    });
    await putPart(urls[1]!, partOf(bytes, 2).subarray(1));
    await expect(t.driver.completeMultipart(key, uploadId, layout)).rejects.toMatchObject({
      message: `Part 2 of the upload has ${PART - 1} bytes; ${PART} were expected`,
    });
    await putPart(urls[1]!, partOf(bytes, 2));
    await putPart(urls[2]!, Buffer.concat([partOf(bytes, 3), Buffer.from('x')]));
    await expect(t.driver.completeMultipart(key, uploadId, layout)).rejects.toMatchObject({
      code: ErrorCode.UPLOAD_SIZE_MISMATCH,
    });
    await putPart(urls[2]!, partOf(bytes, 3));
    // A part beyond the layout (signed by hand: the driver signs only the layout's parts).
    const extra = new URL(urls[2]!);
    const four = await t.driver['signer'].presignedUrl('PUT', t.driver.bucket, key, 60, {
      partNumber: '4',
      uploadId,
    });
    expect(extra.searchParams.get('partNumber')).toBe('3');
    await putPart(four, Buffer.from('y'));
    await expect(t.driver.completeMultipart(key, uploadId, layout)).rejects.toMatchObject({
      message: 'The upload has more than 3 parts',
    });
    expect(await t.driver.stat(key)).toBeNull();
  });

  it('abort frees the parts: the URLs and complete find no upload, and a second abort is fine', async () => {
    const { key, bytes, layout, uploadId, urls } = await begin();
    await putPart(urls[0]!, partOf(bytes, 1));
    await t.driver.abortMultipart(key, uploadId);
    expect(t.s3.multipartUploads.has(uploadId)).toBe(false);
    const late = await putPart(urls[1]!, partOf(bytes, 2));
    expect(late.status).toBe(404);
    expect(await late.text()).toContain('NoSuchUpload');
    expect(await t.driver.completeMultipart(key, uploadId, layout)).toBeNull();
    await expect(t.driver.abortMultipart(key, uploadId)).resolves.toBeUndefined();
    expect(await t.driver.stat(key)).toBeNull();
  });

  it('a part URL is good for its own part, upload and key only', async () => {
    const { key, bytes, uploadId, urls } = await begin();
    const other = new URL(urls[0]!);
    other.searchParams.set('partNumber', '2');
    expect((await putPart(other.toString(), partOf(bytes, 2))).status).toBe(403);
    const otherKey = new URL(urls[0]!);
    otherKey.pathname = `/${t.s3.bucket}/${freshKey('owner-b')}`;
    expect((await putPart(otherKey.toString(), partOf(bytes, 1))).status).toBe(403);
    expect(t.s3.multipartUploads.get(uploadId)?.parts.size).toBe(0);
    expect(t.s3.multipartUploads.get(uploadId)?.key).toBe(key);
  });

  it('a part cut off mid-transfer is sent again; the object is whole', async () => {
    const { key, bytes, layout, uploadId, urls } = await begin();
    t.s3.faults.add({
      action: 'reset',
      afterBytes: MIB,
      match: (r) => r.method === 'PUT' && r.url.includes('partNumber=2'),
    });
    await putPart(urls[0]!, partOf(bytes, 1));
    await expect(putPart(urls[1]!, partOf(bytes, 2))).rejects.toThrow();
    expect(t.s3.faults.hits.at(-1)).toMatchObject({ method: 'PUT', action: 'reset' });
    await putPart(urls[2]!, partOf(bytes, 3));
    // Whatever of part 2 arrived is not the part: complete refuses, the resend makes it whole.
    await expect(t.driver.completeMultipart(key, uploadId, layout)).rejects.toMatchObject({
      code: ErrorCode.UPLOAD_SIZE_MISMATCH,
    });
    expect((await putPart(urls[1]!, partOf(bytes, 2))).status).toBe(200);
    await t.driver.completeMultipart(key, uploadId, layout);
    expect((await readAll(await t.driver.get(key))).equals(bytes)).toBe(true);
  });

  it('a store that is stopped refuses connections; started again it has everything it stored', async () => {
    const { key, bytes, layout, uploadId, urls } = await begin();
    await putPart(urls[0]!, partOf(bytes, 1));
    await t.s3.stop();
    try {
      await expect(putPart(urls[1]!, partOf(bytes, 2))).rejects.toThrow();
      await expect(t.driver.stat(key)).rejects.toThrow();
    } finally {
      await t.s3.start();
    }
    await putPart(urls[1]!, partOf(bytes, 2));
    await putPart(urls[2]!, partOf(bytes, 3));
    await t.driver.completeMultipart(key, uploadId, layout);
    expect((await readAll(await t.driver.get(key))).equals(bytes)).toBe(true);
  });

  it('the test server checks CompleteMultipartUpload as S3 does (EntityTooSmall, InvalidPart)', async () => {
    const key = freshKey();
    const uploadId = await t.driver.startMultipart(key);
    const urls = await t.driver.signMultipartParts(key, uploadId, {
      total: 2 * PART,
      partSize: PART,
      expiresInSeconds: 60,
    });
    const first = await putPart(urls[0]!.url, Buffer.from('small'));
    const etag = (first.headers.get('etag') ?? '').replace(/"/g, '');
    await putPart(urls[1]!.url, Buffer.from('last'));
    const second = [...(t.s3.multipartUploads.get(uploadId)?.parts.values() ?? [])][1]!.etag;
    await expect(
      t.driver.client.completeMultipartUpload(t.driver.bucket, key, uploadId, [
        { part: 1, etag },
        { part: 2, etag: second },
      ]),
    ).rejects.toMatchObject({ code: 'EntityTooSmall' });
    await expect(
      t.driver.client.completeMultipartUpload(t.driver.bucket, key, uploadId, [
        { part: 1, etag: 'f'.repeat(32) },
      ]),
    ).rejects.toMatchObject({ code: 'InvalidPart' });
    await expect(
      t.driver.client.completeMultipartUpload(t.driver.bucket, key, uploadId, [
        { part: 2, etag: second },
        { part: 1, etag },
      ]),
    ).rejects.toMatchObject({ code: 'InvalidPartOrder' });
    await t.driver.abortMultipart(key, uploadId);
  });

  it('refuses a layout S3 cannot take (parts under 5 MiB, more than 10,000 parts)', async () => {
    const key = freshKey();
    await expect(
      t.driver.signMultipartParts(key, 'x', { total: 10 * MIB, partSize: MIB, expiresInSeconds: 60 }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
    await expect(
      t.driver.signMultipartParts(key, 'x', { total: 10_001 * PART, partSize: PART, expiresInSeconds: 60 }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
  });
});
