import {
  ErrorCode,
  FILES_PATTERNS,
  SCAN_QUEUE,
  SCAN_RESULT_QUEUE,
  type CloudinaryUploadUrlResponse,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileCountsResponse,
  type FileEncryptionMetadata,
  type FileListResponse,
  type FileResponse,
  type StorageType,
  type StorageTypesResponse,
  type ThumbnailResponse,
} from '@vault/contracts';
import { SCAN_RESULT_JOB } from '@vault/server-kit';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { FilesService } from '../../src/services/files.service';
import { StorageRepository } from '../../src/repositories/storage.repository';
import {
  sealedValue,
  startFilesTestApp,
  testAppPerFile,
  uploadBody,
  type TestUser,
} from './support/files-test-app';

describe(FilesService.name, () => {
  const t = testAppPerFile(() => startFilesTestApp('svc'));
  const scans = () => t.queue(SCAN_QUEUE);
  const results = () => t.queue(SCAN_RESULT_QUEUE);

  const absolute = (url: string) => t.absolute(url);
  const put = (url: string, bytes: Buffer) => t.put(url, bytes);

  const upload = (user: TestUser, storageType: StorageType, size?: number) =>
    t.upload(user, storageType, size);

  async function download(user: TestUser, id: string): Promise<Buffer> {
    const link = await user.call<DownloadUrlResponse>(FILES_PATTERNS.downloadUrl, {
      id,
      purpose: 'download',
    });
    const res = await fetch(absolute(link.downloadUrl));
    expect(res.status).toBe(200);
    return Buffer.from(await res.arrayBuffer());
  }

  it('lists the configured storage types, Cloudinary first choice when configured', async () => {
    const u = await t.user();
    const types = await u.call<StorageTypesResponse>(FILES_PATTERNS.storageTypes);
    expect(types.types.map((x) => x.type).sort()).toEqual(['cloudinary', 'local', 's3']);
    expect(types.kinds.map((k) => [k.type, k.configured])).toEqual([
      ['local', true],
      ['s3', true],
      ['cloudinary', true],
    ]);
    expect(types.default).toBe('cloudinary');
  });

  it.each(['local', 's3', 'cloudinary'] as const)(
    '%s: upload, complete, list, download the same bytes, and queue one scan',
    async (storage) => {
      const u = await t.user();
      const { body, bytes, file } = await upload(u, storage);
      expect(file).toMatchObject({
        id: body.fileId,
        size: body.size,
        encryptedSize: body.encryptedSize,
        storageType: storage,
        virusScanResult: 'pending',
        deletedAt: null,
      });
      expect((await u.call<FileListResponse>(FILES_PATTERNS.list)).files.map((f) => f.id)).toEqual([
        body.fileId,
      ]);
      expect((await download(u, body.fileId)).equals(bytes)).toBe(true);
      const job = await scans().getJob(body.fileId);
      expect(job?.data).toMatchObject({
        fileId: body.fileId,
        ownerId: u.auth.userId,
        storageType: storage,
        encryptedSize: body.encryptedSize,
      });
      // A repeated complete answers the same file and queues nothing more.
      const again = await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
      expect(again.file.id).toBe(body.fileId);
      expect(await scans().getJobCounts()).toBeDefined();
    },
  );

  it('cloudinary direct upload: signed fields the test server accepts, then complete checks the size', async () => {
    const u = await t.user();
    const { storageType: _s, ...metadata } = uploadBody(1_000, 'cloudinary');
    const direct = await u.call<CloudinaryUploadUrlResponse>(FILES_PATTERNS.createCloudinaryUpload, metadata);
    const form = new FormData();
    for (const [k, v] of Object.entries(direct.fields)) form.set(k, v);
    form.set('file', new Blob([randomBytes(metadata.encryptedSize)]), 'blob');
    const res = await fetch(direct.uploadUrl, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    const done = await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: metadata.fileId });
    expect(done.file.storageType).toBe('cloudinary');
    // The signature pins the public id: the same fields for another object are refused.
    const forged = new FormData();
    for (const [k, v] of Object.entries(direct.fields)) forged.set(k, k === 'public_id' ? `${v}x` : v);
    forged.set('file', new Blob([Buffer.from('x')]), 'blob');
    expect((await fetch(direct.uploadUrl, { method: 'POST', body: forged })).status).toBe(401);
  });

  it('refuses a size mismatch at upload-complete and removes the object, keeping the upload open', async () => {
    const u = await t.user();
    const body = uploadBody(5_000, 'local');
    await u.call(FILES_PATTERNS.createUpload, body);
    // Written behind the blob route's back (the route itself refuses a wrong length).
    const storage = t.service.app.get(StorageRepository);
    const key = `${u.auth.userId}/${body.fileId}`;
    await storage
      .driver('local')
      .put(key, Readable.from([randomBytes(body.encryptedSize - 1)]), { maxBytes: body.encryptedSize });
    const error = await u.fail(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    expect(error.code).toBe(ErrorCode.UPLOAD_SIZE_MISMATCH);
    expect(await storage.driver('local').stat(key)).toBeNull();
    expect((await u.call<FileListResponse>(FILES_PATTERNS.list)).files).toEqual([]);
    const missing = await u.fail(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    expect(missing).toMatchObject({
      code: ErrorCode.UPLOAD_SIZE_MISMATCH,
      message: 'No uploaded data was found for this file',
    });
  });

  it('the blob route refuses a body longer or shorter than signed, a tampered signature and another object', async () => {
    const u = await t.user();
    const body = uploadBody(100, 'local');
    const started = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    expect((await put(started.uploadUrl, randomBytes(body.encryptedSize + 1))).status).toBe(413);
    expect((await put(started.uploadUrl, randomBytes(body.encryptedSize - 1))).status).toBe(400);
    const tampered = started.uploadUrl.replace(
      /sig=([0-9a-f])/,
      (_m, c: string) => `sig=${c === '0' ? '1' : '0'}`,
    );
    expect((await put(tampered, randomBytes(body.encryptedSize))).status).toBe(403);
    const other = uploadBody(100, 'local');
    await u.call(FILES_PATTERNS.createUpload, other);
    const moved = started.uploadUrl.replace(body.fileId, other.fileId);
    expect((await put(moved, randomBytes(other.encryptedSize))).status).toBe(403);
    // The right bytes still go.
    expect((await put(started.uploadUrl, randomBytes(body.encryptedSize))).status).toBe(204);
  });

  it('upload-url is idempotent for the same request and 409 for a different one or another user', async () => {
    const u = await t.user();
    const v = await t.user();
    const body = uploadBody(10, 'local');
    const a = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    const b = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    expect(b.fileId).toBe(a.fileId);
    expect((await u.fail(FILES_PATTERNS.createUpload, { ...body, encryptedName: sealedValue(3) })).code).toBe(
      ErrorCode.CONFLICT,
    );
    expect((await v.fail(FILES_PATTERNS.createUpload, body)).code).toBe(ErrorCode.CONFLICT);
  });

  it("answers 404 for another user's file on every call", async () => {
    const owner = await t.user();
    const other = await t.user();
    const { body } = await upload(owner, 'local');
    for (const [pattern, req] of [
      [FILES_PATTERNS.completeUpload, { fileId: body.fileId }],
      [FILES_PATTERNS.remove, { id: body.fileId }],
      [FILES_PATTERNS.restore, { id: body.fileId }],
      [FILES_PATTERNS.purge, { id: body.fileId }],
      [FILES_PATTERNS.downloadUrl, { id: body.fileId, purpose: 'download' }],
      [FILES_PATTERNS.downloadUrl, { id: body.fileId, purpose: 'preview' }],
      [FILES_PATTERNS.metadata, { id: body.fileId }],
      [FILES_PATTERNS.thumbnail, { id: body.fileId }],
    ] as const) {
      expect([pattern, (await other.fail(pattern, req)).code]).toEqual([pattern, ErrorCode.NOT_FOUND]);
    }
    expect((await other.call<FileListResponse>(FILES_PATTERNS.list)).files).toEqual([]);
    expect((await owner.call<FileListResponse>(FILES_PATTERNS.list)).files).toHaveLength(1);
  });

  it('trash: delete, list deleted, restore, permanent delete removes the stored object, empty trash, counts', async () => {
    const u = await t.user();
    const a = await upload(u, 'local', 10);
    const b = await upload(u, 's3', 20);
    const c = await upload(u, 'cloudinary', 30);
    for (const f of [a, b, c]) expect(await u.call(FILES_PATTERNS.remove, { id: f.body.fileId })).toBeNull();
    expect((await u.call<FileListResponse>(FILES_PATTERNS.list)).files).toEqual([]);
    expect((await u.call<FileListResponse>(FILES_PATTERNS.listDeleted)).files).toHaveLength(3);
    expect((await u.fail(FILES_PATTERNS.downloadUrl, { id: a.body.fileId, purpose: 'download' })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const restored = await u.call<FileResponse>(FILES_PATTERNS.restore, { id: a.body.fileId });
    expect(restored.file.deletedAt).toBeNull();
    expect(await u.call<FileCountsResponse>(FILES_PATTERNS.counts)).toEqual({
      active: 1,
      deleted: 2,
      bytes: a.body.encryptedSize + b.body.encryptedSize + c.body.encryptedSize,
    });

    const storage = t.service.app.get(StorageRepository);
    await u.call(FILES_PATTERNS.purge, { id: b.body.fileId });
    expect(await storage.driver('s3').stat(`${u.auth.userId}/${b.body.fileId}`)).toBeNull();
    expect(await u.call(FILES_PATTERNS.emptyTrash)).toEqual({ deleted: 1 });
    expect(await storage.driver('cloudinary').stat(`${u.auth.userId}/${c.body.fileId}`)).toBeNull();
    expect((await u.call<FileListResponse>(FILES_PATTERNS.listDeleted)).files).toEqual([]);
    expect(await storage.driver('local').stat(`${u.auth.userId}/${a.body.fileId}`)).toEqual({
      size: a.body.encryptedSize,
    });
  });

  it('metadata and the sealed thumbnail (404 when there is none)', async () => {
    const u = await t.user();
    const thumb = sealedValue(2_000);
    const body = uploadBody(10, 'local', { encryptedThumbnail: thumb });
    const started = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    await put(started.uploadUrl, randomBytes(body.encryptedSize));
    const { file } = await u.call<FileResponse>(FILES_PATTERNS.completeUpload, { fileId: body.fileId });
    expect(file.hasThumbnail).toBe(true);
    expect(await u.call<ThumbnailResponse>(FILES_PATTERNS.thumbnail, { id: body.fileId })).toEqual({
      encryptedThumbnail: thumb,
    });
    expect(await u.call<FileEncryptionMetadata>(FILES_PATTERNS.metadata, { id: body.fileId })).toEqual({
      encryptedName: body.encryptedName,
      encryptedMimeType: body.encryptedMimeType,
      originalSize: body.size,
      encryptedSize: body.encryptedSize,
      iv: body.iv,
      chunkSize: body.chunkSize,
      wrappedKey: body.wrappedKey,
    });
    const plain = await upload(u, 'local', 5);
    expect((await u.fail(FILES_PATTERNS.thumbnail, { id: plain.body.fileId })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it('records scan verdicts from the scan worker; an infected file cannot be downloaded', async () => {
    const u = await t.user();
    const clean = await upload(u, 'local');
    const bad = await upload(u, 'local');
    await results().add(SCAN_RESULT_JOB, { fileId: clean.body.fileId, result: 'clean', detail: 'checked' });
    await results().add(SCAN_RESULT_JOB, {
      fileId: bad.body.fileId,
      result: 'infected',
      detail: 'Vault.Test.EICAR.UNOFFICIAL',
    });
    for (let i = 0; i < 100; i++) {
      const files = (await u.call<FileListResponse>(FILES_PATTERNS.list)).files;
      if (files.every((f) => f.virusScanResult !== 'pending')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const files = new Map((await u.call<FileListResponse>(FILES_PATTERNS.list)).files.map((f) => [f.id, f]));
    expect(files.get(clean.body.fileId)).toMatchObject({
      virusScanned: true,
      virusScanResult: 'clean',
      virusScanDetail: 'checked',
    });
    expect(files.get(bad.body.fileId)).toMatchObject({ virusScanResult: 'infected' });
    expect(
      (await u.fail(FILES_PATTERNS.downloadUrl, { id: bad.body.fileId, purpose: 'download' })).code,
    ).toBe(ErrorCode.FILE_INFECTED);
    expect((await download(u, clean.body.fileId)).equals(clean.bytes)).toBe(true);
  });

  it('the cleanup job removes uploads begun and never completed, with their objects', async () => {
    const u = await t.user();
    const body = uploadBody(10, 'local');
    const started = await u.call<CreateUploadResponse>(FILES_PATTERNS.createUpload, body);
    await put(started.uploadUrl, randomBytes(body.encryptedSize));
    const done = await upload(u, 'local', 10);
    const service = t.service.app.get(FilesService);
    expect(await service.cleanupAbandoned(new Date())).toBe(0); // not old enough yet
    const later = new Date(Date.now() + (t.config.cleanup.abandonSeconds + 1) * 1000);
    expect(await service.cleanupAbandoned(later)).toBeGreaterThanOrEqual(1);
    const storage = t.service.app.get(StorageRepository);
    expect(await storage.driver('local').stat(`${u.auth.userId}/${body.fileId}`)).toBeNull();
    expect(
      (await t.pg.query(`SELECT count(*)::int AS n FROM files.files WHERE id = $1`, [body.fileId])).rows[0],
    ).toEqual({ n: 0 });
    expect((await u.call<FileListResponse>(FILES_PATTERNS.list)).files.map((f) => f.id)).toContain(
      done.body.fileId,
    );
  });

  it('validates bodies with the contract messages', async () => {
    const u = await t.user();
    const tooBig = uploadBody(10, 'local', { size: 100 * 1024 * 1024 + 1 });
    expect(await u.fail(FILES_PATTERNS.createUpload, tooBig)).toMatchObject({
      code: ErrorCode.VALIDATION_FAILED,
      message: 'File size exceeds maximum allowed size of 100MB',
    });
    expect(
      await u.fail(FILES_PATTERNS.createUpload, { ...uploadBody(10, 'local'), fileName: 'x.txt' }),
    ).toMatchObject({ message: 'Unknown field: fileName' });
  });

  it('logs no signed URL', () => {
    expect(t.logs.join('\n')).not.toMatch(/sig=[0-9a-f]{16}/);
  });
});
