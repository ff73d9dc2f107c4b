import { createHash } from 'node:crypto';
import { decryptFileBytes, decryptFileMetadata, unwrapFileKey } from '@vault/crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountSettingsQueryKey } from '../../../lib/account-settings';
import { ApiClient } from '../../../lib/api-client';
import { QueryCache } from '../../../lib/query';
import { InlineFilesCrypto } from '../../../workers/files-crypto';
import { readFingerprintSetting } from '../api/get-fingerprint-setting';
import { FakeFilesApi, makeVaultKey } from '../testing/files-harness';
import { UploadQueue, type UploadStatus } from './upload-queue';
import { resolveUploadUrl } from './upload-transport';

const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * seed + 3) & 0xff);
const fileOf = (name: string, data: Uint8Array | number, type: string) =>
  new File([typeof data === 'number' ? new Uint8Array(data) : (data as BlobPart)], name, { type });

async function setup(configure: (api: FakeFilesApi) => void = () => undefined) {
  const api = new FakeFilesApi();
  configure(api);
  const vaultKey = await makeVaultKey();
  const crypto = new InlineFilesCrypto({ putPart: api.storage.putPart });
  const onUploaded = vi.fn();
  const client = new ApiClient({ baseUrl: '/api', fetch: api.fetch as typeof fetch });
  // The session's query cache, as in files-registry.ts (the Settings toggle invalidates its key).
  const cache = new QueryCache();
  const queue = new UploadQueue({
    api: client,
    crypto,
    transport: api.storage,
    vaultKey,
    apiBaseUrl: '/api',
    pageOrigin: 'https://vault.example',
    onUploaded,
    completionDelayMs: 1000,
    fingerprintCheck: () => readFingerprintSetting(client, cache),
  });
  /** Every status each row went through, in order (repeats collapsed). */
  const trail = new Map<string, UploadStatus[]>();
  queue.subscribe(() => {
    for (const item of queue.getSnapshot().items) {
      const seen = trail.get(item.name) ?? [];
      if (seen.at(-1) !== item.status) seen.push(item.status);
      trail.set(item.name, seen);
    }
  });
  const idle = () => vi.waitFor(() => expect(queue.getSnapshot().finished).toBe(true), { timeout: 5000 });
  return { api, queue, vaultKey, crypto, onUploaded, trail, idle, cache };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('UploadQueue', () => {
  it('local storage: encrypting → uploading → completing → completed; the stored ciphertext decrypts back', async () => {
    const { api, queue, vaultKey, trail, idle } = await setup();
    const data = bytes(200_000);
    queue.add([fileOf('Report.pdf', data, 'application/pdf')]);
    expect(queue.getSnapshot().items[0]).toMatchObject({ status: 'queued', started: false });
    queue.start({ storageType: 'local', tags: ['work', 'taxes'] });
    await idle();

    expect(trail.get('Report.pdf')).toEqual(['queued', 'encrypting', 'uploading', 'completing', 'completed']);
    const item = queue.getSnapshot().items[0]!;
    expect(item.progress).toBe(100);
    const fileId = item.fileId!;

    const [urlCall] = api.calls('POST /api/files/upload-url');
    const body = urlCall!.body as Record<string, unknown>;
    expect(body).toMatchObject({ fileId, size: data.length, storageType: 'local', chunkSize: 65536 });
    expect(body['encryptedSize']).toBe(data.length + 16 * 4);
    // The relative URL of local storage, resolved against the API's origin.
    expect(api.storage.requests[0]).toMatchObject({
      method: 'PUT',
      url: `https://vault.example/api/files/blob/${fileId}?op=put&sig=abc`,
    });
    expect(api.calls('POST /api/files/upload-complete')[0]!.body).toEqual({ fileId });

    const dto = api.active.find((f) => f.id === fileId)!;
    expect(await decryptFileMetadata(vaultKey, fileId, dto)).toEqual({
      name: 'Report.pdf',
      mimeType: 'application/pdf',
      tags: ['work', 'taxes'],
    });
    const fileKey = await unwrapFileKey(vaultKey, fileId, dto.wrappedKey);
    const plain = await decryptFileBytes(
      { fileKey, fileId, iv: dto.iv, size: dto.size },
      api.stored.get(fileId)!,
    );
    expect(plain).toEqual(data);
  });

  it('storage that takes parts: sealed and sent part by part (Content-Range in order), one pass; decrypts back', async () => {
    const { api, queue, vaultKey, trail, idle } = await setup((a) => {
      a.partSize = 100_000;
    });
    const data = bytes(250_000);
    queue.add([fileOf('Big.zip', data, 'application/zip')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    expect(trail.get('Big.zip')).toEqual(['queued', 'encrypting', 'uploading', 'completing', 'completed']);
    const fileId = queue.getSnapshot().items[0]!.fileId!;
    const total = data.length + 16 * 4;
    expect(api.storage.requests.map((r) => r.range)).toEqual([
      `bytes 0-99999/${total}`,
      `bytes 100000-199999/${total}`,
      `bytes 200000-${total - 1}/${total}`,
    ]);
    expect(api.storage.requests[0]!.url).toBe(
      `https://vault.example/api/files/blob/${fileId}?op=put&sig=abc`,
    );
    const dto = api.active.find((f) => f.id === fileId)!;
    const fileKey = await unwrapFileKey(vaultKey, fileId, dto.wrappedKey);
    expect(
      await decryptFileBytes({ fileKey, fileId, iv: dto.iv, size: dto.size }, api.stored.get(fileId)!),
    ).toEqual(data);
  });

  it('S3: each part to its own presigned URL (partUrls), without Content-Range; decrypts back', async () => {
    const { api, queue, vaultKey, idle } = await setup((a) => {
      a.partSize = 100_000;
    });
    const data = bytes(250_000);
    queue.add([fileOf('Big.zip', data, 'application/zip')]);
    queue.start({ storageType: 's3', tags: [] });
    await idle();
    const fileId = queue.getSnapshot().items[0]!.fileId!;
    expect(
      api.storage.requests.map((r) => [new URL(r.url).searchParams.get('partNumber'), r.range, r.size]),
    ).toEqual([
      ['1', undefined, 100_000],
      ['2', undefined, 100_000],
      ['3', undefined, data.length + 16 * 4 - 200_000],
    ]);
    const dto = api.active.find((f) => f.id === fileId)!;
    const fileKey = await unwrapFileKey(vaultKey, fileId, dto.wrappedKey);
    expect(
      await decryptFileBytes({ fileKey, fileId, iv: dto.iv, size: dto.size }, api.stored.get(fileId)!),
    ).toEqual(data);
  });

  it('a part the storage refuses ends the row in an error with its status; nothing is completed', async () => {
    const { api, queue, idle } = await setup((a) => {
      a.partSize = 100_000;
    });
    api.storage.fail(409);
    queue.add([fileOf('a.bin', bytes(150_000), 'application/zip')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    expect(queue.getSnapshot().items[0]).toMatchObject({
      status: 'error',
      error: 'Upload failed with status 409',
    });
    expect(api.calls('POST /api/files/upload-complete')).toHaveLength(0);
  });

  it('shows a percent at most every 250 ms (the latest one); a status change shows at once', async () => {
    const { queue, crypto } = await setup((a) => {
      a.partSize = 100_000;
    });
    // The worker's progress reports, driven by hand: sealed bytes, then stored bytes.
    let report: (sealed: number, total: number, stored: number) => void = () => undefined;
    let finish: () => void = () => undefined;
    Object.assign(crypto, {
      sendUpload: (...args: unknown[]) => {
        report = args[4] as typeof report;
        return new Promise((resolve) => (finish = () => resolve({})));
      },
    });
    const shown: string[] = [];
    queue.subscribe(() => {
      const { status, progress } = queue.getSnapshot().items[0]!;
      if (shown.at(-1) !== `${status} ${progress}`) shown.push(`${status} ${progress}`);
    });
    queue.add([fileOf('a.bin', 1000, 'application/zip')]);
    queue.start({ storageType: 'local', tags: [] });
    await vi.waitFor(() => expect(shown).toContain('encrypting 0'));
    await vi.waitFor(() => expect(queue.getSnapshot().items[0]!.fileId).toBeDefined());
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    shown.length = 0;

    report(100, 1000, 0);
    report(200, 1000, 0);
    report(300, 1000, 0);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(250);
    expect(shown).toEqual(['encrypting 30']);
    // The first stored bytes change the status: at once.
    report(400, 1000, 100);
    expect(shown).toEqual(['encrypting 30', 'uploading 10']);
    report(1000, 1000, 600);
    vi.advanceTimersByTime(100);
    expect(shown).toHaveLength(2);
    // 'completing' replaces the waiting percent, which never shows after it. (The fake storage
    // got no bytes, so upload-complete then refuses: the row ends in an error.)
    finish();
    await vi.waitFor(() => expect(shown).toContain('completing 100'));
    vi.advanceTimersByTime(1000);
    expect(shown.slice(0, 3)).toEqual(['encrypting 30', 'uploading 10', 'completing 100']);
    expect(shown).not.toContain('uploading 60');
  });

  it('starts the sealing worker as soon as a file that can be uploaded is chosen', async () => {
    const { queue, crypto } = await setup();
    const warm = vi.fn();
    Object.assign(crypto, { warmUploads: warm });
    queue.add([fileOf('notes.txt', 10, 'text/plain')]);
    expect(warm).toHaveBeenCalledTimes(1);
  });

  it('the completion callback fires 1 second after each success', async () => {
    const { queue, onUploaded, idle } = await setup();
    queue.add([fileOf('a.txt', 10, 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    const completedAt = Date.now();
    expect(onUploaded).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(onUploaded).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(Date.now() - completedAt).toBeGreaterThanOrEqual(900);
    expect(onUploaded.mock.calls[0]![0]).toBe(queue.getSnapshot().items[0]!.fileId);
  });

  it('S3: the absolute presigned URL is used as it is', async () => {
    const { api, queue, idle } = await setup();
    queue.add([fileOf('photo.png', 1000, 'image/png')]);
    queue.start({ storageType: 's3', tags: [] });
    await idle();
    expect(api.storage.requests[0]!.url).toMatch(
      /^https:\/\/bucket\.s3\.test\/vault\/[0-9a-f-]+\?X-Amz-Signature=abc$/,
    );
    expect(queue.getSnapshot().items[0]!.status).toBe('completed');
  });

  it('Cloudinary: the same signed upload URL (the blob route streams to Cloudinary), then upload-complete', async () => {
    const { api, queue, trail, idle } = await setup();
    queue.add([fileOf('scan.pdf', 5000, 'application/pdf')]);
    queue.start({ storageType: 'cloudinary', tags: ['x'] });
    await idle();
    expect(trail.get('scan.pdf')).toEqual(['queued', 'encrypting', 'uploading', 'completing', 'completed']);
    const body = api.calls('POST /api/files/upload-url')[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ storageType: 'cloudinary' });
    expect(api.calls('POST /api/files/cloudinary/upload-url')).toHaveLength(0);
    expect(api.calls('POST /api/files/upload-complete')).toHaveLength(1);
    expect(api.active).toHaveLength(1);
  });

  it('refused files are error rows from the start and never sent; the others go one after another', async () => {
    const { api, queue, idle } = await setup();
    api.storage.hold();
    queue.add([
      fileOf('one.txt', 10, 'text/plain'),
      fileOf('page.html', 10, 'text/html'),
      fileOf('two.txt', 10, 'text/plain'),
    ]);
    const rows = () => queue.getSnapshot().items.map((i) => [i.name, i.status, i.error ?? null]);
    expect(rows()).toEqual([
      ['one.txt', 'queued', null],
      ['page.html', 'error', 'File type text/html is not allowed'],
      ['two.txt', 'queued', null],
    ]);
    queue.start({ storageType: 'local', tags: [] });
    await vi.waitFor(() => expect(queue.getSnapshot().items[0]!.status).toBe('uploading'));
    expect(queue.getSnapshot().items[2]!.status).toBe('queued');
    expect(queue.getSnapshot().busy).toBe(true);
    api.storage.release();
    await idle();
    expect(rows()).toEqual([
      ['one.txt', 'completed', null],
      ['page.html', 'error', 'File type text/html is not allowed'],
      ['two.txt', 'completed', null],
    ]);
    expect(api.calls('POST /api/files/upload-url')).toHaveLength(2);
    // Finished rows go; the failures that were started are handed back (none here).
    expect(queue.clearFinished()).toEqual([]);
    expect(queue.getSnapshot().items).toEqual([]);
  });

  it("'Upload failed with status {n}' and 'Upload failed' from the storage; the server's message from the API", async () => {
    const { api, queue, idle } = await setup((a) =>
      a.fail('POST /api/files/upload-complete', 400, 'The uploaded file does not match its declared size'),
    );
    api.storage.fail(500).fail(0);
    queue.add([
      fileOf('a.txt', 10, 'text/plain'),
      fileOf('b.txt', 10, 'text/plain'),
      fileOf('c.txt', 10, 'text/plain'),
    ]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    expect(queue.getSnapshot().items.map((i) => i.error)).toEqual([
      'Upload failed with status 500',
      'Upload failed',
      'The uploaded file does not match its declared size',
    ]);
    const failed = queue.clearFinished();
    expect(failed.map((i) => i.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });

  it('a refused upload-url answer (e.g. 413) is shown with its message', async () => {
    const { queue, idle } = await setup((a) =>
      a.fail('POST /api/files/upload-url', 413, 'File size exceeds maximum allowed size of 100MB'),
    );
    queue.add([fileOf('a.txt', 10, 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    expect(queue.getSnapshot().items[0]).toMatchObject({
      status: 'error',
      error: 'File size exceeds maximum allowed size of 100MB',
    });
  });

  it('asks for a thumbnail only for the image types', async () => {
    const { queue, crypto, idle } = await setup();
    const spy = vi.spyOn(crypto, 'sealUploadMeta');
    queue.add([fileOf('a.png', 10, 'image/png'), fileOf('b.pdf', 10, 'application/pdf')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    expect(spy.mock.calls.map((c) => [c[1].name, c[1].thumbnail])).toEqual([
      ['a.png', true],
      ['b.pdf', false],
    ]);
  });

  it('dispose() (sign-out, lock) aborts the running upload and stops encryption', async () => {
    const { api, queue, crypto, onUploaded } = await setup();
    const cancel = vi.spyOn(crypto, 'cancelUploads');
    api.storage.hold();
    queue.add([fileOf('a.txt', 10, 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await vi.waitFor(() => expect(queue.getSnapshot().items[0]!.status).toBe('uploading'));
    queue.dispose();
    expect(cancel).toHaveBeenCalled();
    expect(queue.getSnapshot().items).toEqual([]);
    await new Promise((r) => setTimeout(r, 20));
    expect(api.calls('POST /api/files/upload-complete')).toHaveLength(0);
    expect(onUploaded).not.toHaveBeenCalled();
  });
});

describe('UploadQueue: malware-fingerprint opt-in', () => {
  const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

  it.each(['local', 's3', 'cloudinary'] as const)(
    'on: %s upload-complete carries the plaintext SHA-256 (never the upload-url body)',
    async (storageType) => {
      const { api, queue, idle } = await setup((a) => {
        a.malwareFingerprintCheck = true;
      });
      const data = bytes(70_000, 11);
      queue.add([fileOf('a.pdf', data, 'application/pdf')]);
      queue.start({ storageType, tags: [] });
      await idle();
      expect(queue.getSnapshot().items[0]!.status).toBe('completed');
      const fileId = queue.getSnapshot().items[0]!.fileId!;
      expect(api.calls('POST /api/files/upload-complete')[0]!.body).toEqual({
        fileId,
        plaintextSha256: sha256(data),
      });
      expect(JSON.stringify(api.calls('POST /api/files/upload-url')[0]!.body)).not.toContain(sha256(data));
    },
  );

  it('off: upload-complete is {fileId} only, and nothing is hashed', async () => {
    const { api, queue, crypto, idle } = await setup();
    const spy = vi.spyOn(crypto, 'sealUploadMeta');
    queue.add([fileOf('a.txt', 10, 'text/plain'), fileOf('b.txt', 0, 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    const bodies = api.calls('POST /api/files/upload-complete').map((c) => c.body);
    expect(bodies).toEqual(queue.getSnapshot().items.map((i) => ({ fileId: i.fileId })));
    expect(spy.mock.calls.map((c) => c[1].fingerprint)).toEqual([false, false]);
    // Read once for the session, not once per file.
    expect(api.calls('GET /api/auth/settings')).toHaveLength(1);
  });

  it('follows the Settings toggle: the next upload reads the setting again', async () => {
    const { api, queue, cache, idle } = await setup();
    queue.add([fileOf('a.txt', bytes(5), 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    expect(api.calls('POST /api/files/upload-complete')[0]!.body).not.toHaveProperty('plaintextSha256');

    // What malware-check-section.tsx does after PUT /api/auth/settings.
    api.malwareFingerprintCheck = true;
    cache.invalidate(accountSettingsQueryKey);
    const data = bytes(9, 3);
    queue.add([fileOf('b.txt', data, 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await vi.waitFor(() => expect(api.calls('POST /api/files/upload-complete')).toHaveLength(2));
    await idle();
    expect(api.calls('POST /api/files/upload-complete')[1]!.body).toMatchObject({
      plaintextSha256: sha256(data),
    });

    api.malwareFingerprintCheck = false;
    cache.invalidate(accountSettingsQueryKey);
    queue.add([fileOf('c.txt', 4, 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await vi.waitFor(() => expect(api.calls('POST /api/files/upload-complete')).toHaveLength(3));
    expect(api.calls('POST /api/files/upload-complete')[2]!.body).not.toHaveProperty('plaintextSha256');
    expect(api.calls('GET /api/auth/settings')).toHaveLength(3);
  });

  it('a server without the setting (404) uploads without it; another failure stops the upload', async () => {
    const { api, queue, idle } = await setup((a) => a.fail('GET /api/auth/settings', 404, 'Not found'));
    queue.add([fileOf('a.txt', 10, 'text/plain')]);
    queue.start({ storageType: 'local', tags: [] });
    await idle();
    expect(queue.getSnapshot().items[0]!.status).toBe('completed');
    expect(api.calls('POST /api/files/upload-complete')[0]!.body).not.toHaveProperty('plaintextSha256');

    const second = await setup((a) => a.fail('GET /api/auth/settings', 503, 'Service unavailable'));
    second.queue.add([fileOf('b.txt', 10, 'text/plain')]);
    second.queue.start({ storageType: 'local', tags: [] });
    await second.idle();
    expect(second.queue.getSnapshot().items[0]).toMatchObject({
      status: 'error',
      error: 'Service unavailable',
    });
    expect(second.api.calls('POST /api/files/upload-url')).toHaveLength(0);
  });
});

describe('resolveUploadUrl', () => {
  it('resolves relative URLs against the API origin and keeps absolute ones', () => {
    expect(resolveUploadUrl('/api/files/blob/x?sig=1', '/api', 'http://localhost:8080')).toBe(
      'http://localhost:8080/api/files/blob/x?sig=1',
    );
    expect(
      resolveUploadUrl('/api/files/blob/x', 'https://api.example.com/api', 'https://app.example.com'),
    ).toBe('https://api.example.com/api/files/blob/x');
    expect(resolveUploadUrl('https://s3.example.com/b/k?sig', '/api', 'https://app.example.com')).toBe(
      'https://s3.example.com/b/k?sig',
    );
    expect(() => resolveUploadUrl('javascript:alert(1)', '/api', 'https://app.example.com')).toThrow();
  });
});
