/**
 * Uploads in PARTS over HTTP. Through the gateway to the files service's blob route (local disk,
 * and Cloudinary, where each part goes on as one chunk of Cloudinary's chunked upload):
 * upload-url announces partSize, each part is a PUT of the same signed URL with Content-Range, and
 * the last part puts the object in place for upload-complete. To S3: one presigned URL per part
 * (a multipart upload the files service begins and upload-complete joins). The whole-object PUT
 * stays as it was (files.e2e-spec.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  UPLOAD_PART_MAX_BYTES,
  type CreateUploadResponse,
  type FileResponse,
  type StorageType,
} from '@vault/contracts';
import { signUp, type TestAccount } from '../support/accounts';
import { assertStatus } from '../support/http';
import { downloadFile, putBytes, requestUpload, sealFile, sha256, type SealedFile } from '../support/files';

const MiB = 1024 * 1024;

/** The Content-Range of a part: `bytes` at `first` of an object of `total` bytes. */
const range = (first: number, bytes: Uint8Array, total: number) => ({
  'content-range': `bytes ${first}-${first + bytes.length - 1}/${total}`,
});

describe('files: uploads in parts', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await signUp();
  });

  async function begin(
    size: number,
    storage: StorageType = 'local',
  ): Promise<{ sealed: SealedFile; started: CreateUploadResponse }> {
    const sealed = await sealFile(
      account,
      randomBytes(size),
      { name: 'parts.bin', mimeType: 'application/octet-stream', tags: [] },
      storage,
    );
    return { sealed, started: await requestUpload(account, sealed) };
  }

  async function complete(fileId: string) {
    return account.client.post<FileResponse>('/api/files/upload-complete', { fileId });
  }

  it('upload-url offers partSize on every storage; S3 one URL per part', async () => {
    for (const storage of ['local', 'cloudinary'] as const) {
      const { started } = await begin(10, storage);
      expect(started.partSize).toBe(UPLOAD_PART_MAX_BYTES);
      expect(started.partUrls).toBeUndefined();
    }
    const s3 = await sealFile(account, randomBytes(10), { name: 'a', mimeType: 'b', tags: [] }, 's3');
    const small = await requestUpload(account, s3, 'upload-url s3');
    expect(small.partUrls).toEqual([small.uploadUrl]);
  });

  it('S3: a 17 MiB file sent as a multipart upload straight to the bucket completes and decrypts', async () => {
    const plaintext = randomBytes(17 * MiB);
    const sealed = await sealFile(account, plaintext, { name: 's3.bin', mimeType: 'x/y', tags: [] }, 's3');
    const { partSize, partUrls } = await requestUpload(account, sealed);
    expect(partUrls).toHaveLength(2);
    // Both parts at once, the second first: S3 joins them by number.
    const puts = await Promise.all(
      [1, 0].map((i) =>
        putBytes(partUrls![i]!, sealed.ciphertext.subarray(i * partSize!, (i + 1) * partSize!)),
      ),
    );
    expect(puts.map((r) => r.status)).toEqual([200, 200]);
    const done = assertStatus(await complete(sealed.body.fileId), 200, 'upload-complete');
    expect(sha256(await downloadFile(account, done.body.file))).toBe(sha256(plaintext));
  }, 60_000);

  it('Cloudinary: a 17 MiB file in Content-Range parts through the gateway completes and decrypts', async () => {
    const plaintext = randomBytes(17 * MiB);
    const sealed = await sealFile(
      account,
      plaintext,
      { name: 'c.bin', mimeType: 'x/y', tags: [] },
      'cloudinary',
    );
    const { uploadUrl, partSize } = await requestUpload(account, sealed);
    const total = sealed.ciphertext.length;
    for (let first = 0; first < total; first += partSize!) {
      const part = sealed.ciphertext.subarray(first, first + partSize!);
      expect((await putBytes(uploadUrl, part, range(first, part, total))).status).toBe(204);
    }
    const done = assertStatus(await complete(sealed.body.fileId), 200, 'upload-complete');
    expect(sha256(await downloadFile(account, done.body.file))).toBe(sha256(plaintext));
  }, 60_000);

  it('a 5 MiB+ file sent in 3 parts completes, downloads and decrypts to the original', async () => {
    const plaintext = randomBytes(5 * MiB + 12_345);
    const sealed = await sealFile(account, plaintext, {
      name: 'five.bin',
      mimeType: 'application/octet-stream',
      tags: ['p'],
    });
    const { uploadUrl, partSize } = await requestUpload(account, sealed);
    const total = sealed.ciphertext.length;
    expect(total).toBe(sealed.body.encryptedSize);
    const cuts = [0, 2 * MiB, 4 * MiB, total];
    for (let i = 0; i < 3; i++) {
      const part = sealed.ciphertext.subarray(cuts[i], cuts[i + 1]);
      expect(part.length).toBeLessThanOrEqual(partSize!);
      const res = await putBytes(uploadUrl, part, range(cuts[i]!, part, total));
      expect(res.status).toBe(204);
    }
    const done = assertStatus(await complete(sealed.body.fileId), 200, 'upload-complete');
    expect(done.body.file.encryptedSize).toBe(total);
    expect(sha256(await downloadFile(account, done.body.file))).toBe(sha256(plaintext));
  }, 60_000);

  it('a part out of order is 409 naming the next offset, and nothing is stored', async () => {
    const { sealed, started } = await begin(200_000);
    const total = sealed.ciphertext.length;
    const tail = sealed.ciphertext.subarray(100_000);
    const res = await putBytes(started.uploadUrl, tail, range(100_000, tail, total));
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({
      code: ErrorCode.CONFLICT,
      error: 'Parts must arrive in order: the next part starts at byte 0',
    });
    const early = await complete(sealed.body.fileId);
    expect(early.status).toBe(400);
    expect(early.body).toMatchObject({
      code: ErrorCode.UPLOAD_SIZE_MISMATCH,
      error: 'No uploaded data was found for this file',
    });
    // The upload stays open: the parts in order still go through.
    const head = sealed.ciphertext.subarray(0, 100_000);
    expect((await putBytes(started.uploadUrl, head, range(0, head, total))).status).toBe(204);
    expect((await putBytes(started.uploadUrl, tail, range(100_000, tail, total))).status).toBe(204);
    assertStatus(await complete(sealed.body.fileId), 200, 'upload-complete');
  });

  it('a part whose total is not the encryptedSize is 400', async () => {
    const { sealed, started } = await begin(10_000);
    const total = sealed.ciphertext.length;
    const part = sealed.ciphertext.subarray(0, 1000);
    const res = await putBytes(started.uploadUrl, part, range(0, part, total + 1));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: ErrorCode.UPLOAD_SIZE_MISMATCH });
  });

  it('a part bigger than partSize is refused with 413 before its body is read', async () => {
    const { sealed, started } = await begin(UPLOAD_PART_MAX_BYTES + 1);
    const total = sealed.ciphertext.length;
    // The range claims one byte more than a part may hold; only 1 KiB is actually sent.
    const res = await putBytes(started.uploadUrl, sealed.ciphertext.subarray(0, 1024), {
      'content-range': `bytes 0-${UPLOAD_PART_MAX_BYTES}/${total}`,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: ErrorCode.PAYLOAD_TOO_LARGE });
    expect((await complete(sealed.body.fileId)).status).toBe(400);
  }, 60_000);

  it('the whole-object PUT without Content-Range still works on the same kind of URL', async () => {
    const { sealed, started } = await begin(70_000);
    expect((await putBytes(started.uploadUrl, sealed.ciphertext)).status).toBe(204);
    assertStatus(await complete(sealed.body.fileId), 200, 'upload-complete');
  });
});
