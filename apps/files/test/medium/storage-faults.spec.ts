import {
  ErrorCode,
  FILES_PATTERNS,
  UPLOAD_PART_MAX_BYTES,
  type CreateUploadResponse,
  type StorageType,
} from '@vault/contracts';
import { randomBytes } from 'node:crypto';
import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startFilesTestApp, testAppPerFile, uploadBody, type TestUser } from './support/files-test-app';

const PART = UPLOAD_PART_MAX_BYTES;
const MIB = 1024 * 1024;

/**
 * Storage failing in the middle of an upload (issue 17): the local disk refusing writes, S3
 * cut off or stopped, Cloudinary failing a chunk. What must hold: the client gets a non-2xx with
 * a code, no file record points at a missing or partial object (the record stays pending, not
 * listed), the same upload tried again succeeds, and a completed upload's object is whole.
 */
describe('storage failing mid-upload', () => {
  const t = testAppPerFile(() => startFilesTestApp('faults'));
  afterEach(() => {
    t.s3.faults.clear();
    t.cloudinary.faults.clear();
  });

  const put = (
    url: string,
    body: Buffer | ReadableStream<Uint8Array>,
    range?: { first: number; total: number; length: number },
  ) =>
    fetch(t.absolute(url), {
      method: 'PUT',
      body: body instanceof Buffer ? new Blob([body as Uint8Array<ArrayBuffer>]) : body,
      headers: {
        'content-type': 'application/octet-stream',
        ...(range
          ? { 'content-range': `bytes ${range.first}-${range.first + range.length - 1}/${range.total}` }
          : {}),
        ...(body instanceof Buffer ? {} : { 'content-length': String(range?.length) }),
      },
      ...(body instanceof Buffer ? {} : { duplex: 'half' }),
    } as RequestInit);
  const putPart = (url: string, bytes: Buffer, first: number, total: number) =>
    put(url, bytes, { first, total, length: bytes.length });
  const partOf = (bytes: Buffer, i: number) => bytes.subarray(i * PART, (i + 1) * PART);
  const codeOf = async (res: Response) => ((await res.json()) as { code: string }).code;

  const begin = (user: TestUser, storageType: StorageType, size: number) => t.begin(user, storageType, size);
  const downloaded = (user: TestUser, fileId: string) => t.downloaded(user, fileId);
  const listed = (user: TestUser) => t.listed(user);
  const statusOf = async (fileId: string) =>
    (
      (await t.pg.query('SELECT status FROM files.files WHERE id = $1', [fileId])).rows[0] as {
        status: string;
      }
    ).status;

  /** Not a file yet: pending, not listed, and upload-complete refuses it. */
  async function expectPendingOnly(user: TestUser, fileId: string): Promise<void> {
    expect(await statusOf(fileId)).toBe('pending');
    expect(await listed(user)).not.toContain(fileId);
    const refused = await user.fail(FILES_PATTERNS.completeUpload, { fileId });
    expect([ErrorCode.UPLOAD_SIZE_MISMATCH, ErrorCode.STORAGE_UNAVAILABLE]).toContain(refused.code);
    expect(await statusOf(fileId)).toBe('pending');
  }

  /** The user's folder on the local disk becomes a plain file: every write under it fails (as root, too). */
  async function breakLocalFolder(user: TestUser): Promise<() => Promise<void>> {
    const folder = join(t.localRoot, user.auth.userId);
    const kept = await stat(folder).then(
      () => true,
      () => false,
    );
    if (kept) await rename(folder, `${folder}.away`);
    await writeFile(folder, '');
    return async () => {
      await rm(folder, { force: true });
      if (kept) await rename(`${folder}.away`, folder);
    };
  }

  describe('local disk', () => {
    it('a whole upload whose disk fails half-way: 503 STORAGE_UNAVAILABLE, nothing listed; sent again it completes whole', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 'local', 3 * MIB);
      let release: () => void = () => undefined;
      const halfway = new Promise<void>((resolve) => (release = resolve));
      let restore: () => Promise<void> = async () => undefined;
      const slow = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(bytes.subarray(0, MIB));
          await new Promise((r) => setTimeout(r, 300));
          restore = await breakLocalFolder(u); // the disk goes while the body is on its way
          release();
          controller.enqueue(bytes.subarray(MIB));
          controller.close();
        },
      });
      const res = await put(started.uploadUrl, slow, {
        first: 0,
        total: bytes.length,
        length: bytes.length,
      }).catch(() => null);
      await halfway;
      if (res) {
        expect(res.status).toBe(503);
        expect(await codeOf(res)).toBe(ErrorCode.STORAGE_UNAVAILABLE);
      }
      await expectPendingOnly(u, body.fileId);
      await restore();
      expect((await put(started.uploadUrl, bytes)).status).toBe(204);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('an upload in parts whose disk fails between parts: 503 for the part; started over it completes whole', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 'local', 300_000);
      const total = bytes.length;
      expect((await putPart(started.uploadUrl, bytes.subarray(0, 100_000), 0, total)).status).toBe(204);
      const restore = await breakLocalFolder(u);
      const failed = await putPart(started.uploadUrl, bytes.subarray(100_000, 200_000), 100_000, total);
      expect(failed.status).toBe(503);
      expect(await codeOf(failed)).toBe(ErrorCode.STORAGE_UNAVAILABLE);
      await expectPendingOnly(u, body.fileId);
      await restore();
      const cuts = [0, 100_000, 200_000, total];
      for (let i = 0; i < 3; i++) {
        const res = await putPart(started.uploadUrl, bytes.subarray(cuts[i], cuts[i + 1]), cuts[i]!, total);
        expect(res.status).toBe(204);
      }
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });
  });

  describe('S3', () => {
    it('a whole upload cut off mid-transfer leaves no object; upload-complete refuses (400), the upload again completes whole', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 's3', 4 * MIB);
      t.s3.faults.add({ action: 'reset', afterBytes: MIB, match: (r) => r.method === 'PUT' });
      await expect(put(started.uploadUrl, bytes)).rejects.toThrow();
      expect(t.s3.faults.hits).toHaveLength(1);
      await expectPendingOnly(u, body.fileId);
      expect((await put(started.uploadUrl, bytes)).status).toBe(200);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('a multipart upload whose part is cut off: complete refuses (400) and aborts it; the upload again completes whole', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 's3', PART + MIB);
      t.s3.faults.add({ action: 'reset', afterBytes: 2 * MIB, match: (r) => r.url.includes('partNumber=1') });
      await expect(put(started.partUrls![0]!, partOf(bytes, 0))).rejects.toThrow();
      expect((await put(started.partUrls![1]!, partOf(bytes, 1))).status).toBe(200);
      const refused = await u.fail(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect(refused.code).toBe(ErrorCode.UPLOAD_SIZE_MISMATCH);
      expect(t.s3.multipartUploads.size).toBe(0);
      expect(await listed(u)).not.toContain(body.fileId);
      const again = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
      for (const [i, url] of again.partUrls!.entries())
        expect((await put(url, partOf(bytes, i))).status).toBe(200);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('S3 stopped: upload-url and upload-complete answer 503 STORAGE_UNAVAILABLE and change nothing; started again, both work', async () => {
      const u = await t.user();
      const body = uploadBody(PART + MIB, 's3');
      await t.s3.stop();
      try {
        expect((await u.fail(FILES_PATTERNS.createUpload, body)).code).toBe(ErrorCode.STORAGE_UNAVAILABLE);
      } finally {
        await t.s3.start();
      }
      const started = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
      const bytes = randomBytes(body.encryptedSize);
      for (const [i, url] of started.partUrls!.entries()) await put(url, partOf(bytes, i));
      await t.s3.stop();
      try {
        expect((await u.fail(FILES_PATTERNS.completeUpload, { fileId: body.fileId })).code).toBe(
          ErrorCode.STORAGE_UNAVAILABLE,
        );
        expect(await statusOf(body.fileId)).toBe('pending');
      } finally {
        await t.s3.start();
      }
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });
  });

  describe('Cloudinary', () => {
    it('a chunk Cloudinary cuts off or refuses: 503 for that part, nothing moves on; the part sent again completes it whole', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 'cloudinary', PART + MIB);
      const total = bytes.length;
      expect((await putPart(started.uploadUrl, partOf(bytes, 0), 0, total)).status).toBe(204);
      t.cloudinary.faults.add({
        action: 'reset',
        afterBytes: 64 * 1024,
        match: (r) => String(r.headers['content-range']).startsWith(`bytes ${PART}-`),
      });
      const cut = await putPart(started.uploadUrl, partOf(bytes, 1), PART, total);
      expect(cut.status).toBe(503);
      expect(await codeOf(cut)).toBe(ErrorCode.STORAGE_UNAVAILABLE);
      t.cloudinary.faults.add({ action: 'refuse', status: 502 });
      const refused = await putPart(started.uploadUrl, partOf(bytes, 1), PART, total);
      expect(refused.status).toBe(503);
      await expectPendingOnly(u, body.fileId);
      expect((await putPart(started.uploadUrl, partOf(bytes, 1), PART, total)).status).toBe(204);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });

    it('a whole upload Cloudinary cuts off: 503, no asset; sent again it completes whole', async () => {
      const u = await t.user();
      const { body, started, bytes } = await begin(u, 'cloudinary', 2 * MIB);
      t.cloudinary.faults.add({ action: 'reset', afterBytes: MIB });
      const cut = await put(started.uploadUrl, bytes);
      expect(cut.status).toBe(503);
      await expectPendingOnly(u, body.fileId);
      expect((await put(started.uploadUrl, bytes)).status).toBe(204);
      await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect((await downloaded(u, body.fileId)).equals(bytes)).toBe(true);
    });
  });

  it('under load, with every store failing somewhere: every upload answered 2xx is whole, no record is half done', async () => {
    const u = await t.user();
    const plans: { storageType: StorageType; size: number; parts: boolean }[] = [
      { storageType: 'local', size: 2 * MIB, parts: false },
      { storageType: 'local', size: PART + MIB, parts: true },
      { storageType: 's3', size: 3 * MIB, parts: false },
      { storageType: 's3', size: PART + MIB, parts: true },
      { storageType: 'cloudinary', size: 2 * MIB, parts: false },
      { storageType: 'cloudinary', size: PART + MIB, parts: true },
    ];
    // One failure in each store, hitting whichever request comes first.
    t.s3.faults.add({ action: 'reset', afterBytes: MIB, match: (r) => r.method === 'PUT' });
    t.cloudinary.faults.add({ action: 'refuse', status: 500, match: (r) => r.method === 'POST' });
    const restoreLocal = await breakLocalFolder(u);
    setTimeout(() => void restoreLocal(), 200);

    /** One try of an upload: upload-url, the bytes, upload-complete. True when complete answered. */
    async function attempt(plan: (typeof plans)[number], body: ReturnType<typeof uploadBody>, bytes: Buffer) {
      try {
        const started = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
        if (!plan.parts) {
          const res = await put(started.uploadUrl, bytes);
          if (!res.ok) return false;
        } else if (started.partUrls) {
          for (const [i, url] of started.partUrls.entries())
            if (!(await put(url, partOf(bytes, i))).ok) return false;
        } else {
          for (let first = 0; first < bytes.length; first += PART) {
            const res = await putPart(
              started.uploadUrl,
              bytes.subarray(first, first + PART),
              first,
              bytes.length,
            );
            if (!res.ok) return false;
          }
        }
        await u.call(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
        return true;
      } catch {
        return false;
      }
    }

    const outcomes = await Promise.all(
      plans.map(async (plan) => {
        const body = uploadBody(plan.size, plan.storageType);
        const bytes = randomBytes(body.encryptedSize);
        const first = await attempt(plan, body, bytes);
        if (!first) {
          // Not a file: not listed, pending (or gone), never active with a partial object.
          expect(await listed(u)).not.toContain(body.fileId);
          expect(await statusOf(body.fileId)).toBe('pending');
        }
        let done = first;
        for (let i = 0; !done && i < 3; i++) {
          await new Promise((r) => setTimeout(r, 250));
          done = await attempt(plan, body, bytes);
        }
        return { plan, body, bytes, first, done };
      }),
    );
    // Some first tries failed (the faults hit), and every upload got through on a retry.
    expect(outcomes.filter((o) => !o.first).length).toBeGreaterThanOrEqual(2);
    expect(outcomes.every((o) => o.done)).toBe(true);
    // Every upload answered 2xx is listed and whole; nothing else is listed.
    const ids = await listed(u);
    expect(ids.sort()).toEqual(outcomes.map((o) => o.body.fileId).sort());
    for (const o of outcomes) expect((await downloaded(u, o.body.fileId)).equals(o.bytes)).toBe(true);
    const pending = await t.pg.query(
      `SELECT id FROM files.files WHERE owner_id = $1 AND status = 'pending'`,
      [u.auth.userId],
    );
    expect(pending.rows).toEqual([]);
    expect(t.s3.multipartUploads.size).toBe(0);
  });
});
