/**
 * Encrypted files end to end over HTTP (issue 4): real client crypto (@vault/crypto), the gateway, the
 * files service, the blob route and the storage drivers (local disk, S3 via s3rver, Cloudinary via a
 * server that checks the SDK's signatures; the stack starts them, scripts/lib/ephemeral.mjs).
 */
import { randomBytes } from 'node:crypto';
import type { FileCountsResponse, FileListResponse, StorageTypesResponse } from '@vault/contracts';
import { signUp, type TestAccount } from '../support/accounts';
import { assertStatus } from '../support/http';
import {
  absoluteUrl,
  downloadFile,
  openMetadata,
  putBytes,
  requestUpload,
  sealFile,
  sha256,
  uploadFile,
} from '../support/files';

const MiB = 1024 * 1024;

describe('files: upload, list, download and decrypt', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await signUp();
  });

  it('describes every storage kind, configured or not, and the default', async () => {
    const res = assertStatus(
      await account.client.get<StorageTypesResponse>('/api/files/storage-types'),
      200,
      'types',
    );
    expect(res.body.types.map((t) => t.type).sort()).toEqual(['cloudinary', 'local', 's3']);
    // Every kind the product supports, whether configured, and what turns it on; the stack has all three.
    expect(res.body.kinds).toEqual([
      { type: 'local', label: 'Local disk', configured: true, enableWith: ['STORAGE_LOCAL_ENABLED=true'] },
      {
        type: 's3',
        label: 'S3 / R2 / MinIO',
        configured: true,
        enableWith: ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'],
      },
      { type: 'cloudinary', label: 'Cloudinary', configured: true, enableWith: ['CLOUDINARY_URL'] },
    ]);
    expect(res.body.default).toBe('cloudinary');
  });

  it.each([0, 1, 65_536, 65_537])('round-trips %i bytes through the local disk', async (size) => {
    const plaintext = randomBytes(size);
    const { file } = await uploadFile(account, plaintext, {
      name: `f-${size}.bin`,
      mimeType: 'application/zip',
      tags: ['t'],
    });
    expect(file.encryptedSize).toBe(size + 16 * Math.max(1, Math.ceil(size / 65_536)));
    const back = await downloadFile(account, file);
    expect(Buffer.from(back).equals(plaintext)).toBe(true);
    expect(await openMetadata(account, file)).toEqual({
      name: `f-${size}.bin`,
      mimeType: 'application/zip',
      tags: ['t'],
    });
  });

  it.each(['s3', 'cloudinary'] as const)('round-trips 65,537 bytes through %s', async (storage) => {
    const plaintext = randomBytes(65_537);
    const { file } = await uploadFile(
      account,
      plaintext,
      { name: 'x.pdf', mimeType: 'application/pdf', tags: [] },
      storage,
    );
    expect(file.storageType).toBe(storage);
    expect(Buffer.from(await downloadFile(account, file)).equals(plaintext)).toBe(true);
  });

  it('round-trips 100 MiB (the limit)', async () => {
    const plaintext = randomBytes(100 * MiB);
    const { file } = await uploadFile(account, plaintext, {
      name: 'big.zip',
      mimeType: 'application/zip',
      tags: [],
    });
    expect(sha256(await downloadFile(account, file))).toBe(sha256(plaintext));
  }, 180_000);

  it('refuses 100 MiB + 1 byte with the spec message', async () => {
    const sealed = await sealFile(account, new Uint8Array(0), {
      name: 'a',
      mimeType: 'text/plain',
      tags: [],
    });
    const size = 100 * MiB + 1;
    const res = await account.client.post('/api/files/upload-url', {
      ...sealed.body,
      size,
      encryptedSize: size + 16 * Math.ceil(size / 65_536),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'File size exceeds maximum allowed size of 100MB' });
  });

  it('refuses a wrong authKey for download and preview', async () => {
    const { file } = await uploadFile(account, randomBytes(10), {
      name: 'a.txt',
      mimeType: 'text/plain',
      tags: [],
    });
    for (const path of ['download-url', 'preview']) {
      const res = await account.client.post(`/api/files/${file.id}/${path}`, {
        authKey: randomBytes(32).toString('hex'),
      });
      expect([path, res.status, (res.body as { error?: string }).error]).toEqual([
        path,
        401,
        'Invalid password',
      ]);
    }
    const ok = await account.client.post<{ content: string }>(`/api/files/${file.id}/preview`, {
      authKey: account.keys.authKey,
    });
    expect(ok.status).toBe(200);
    expect((await fetch(absoluteUrl(ok.body.content))).status).toBe(200);
  });

  it('refuses a size mismatch at upload-complete', async () => {
    const sealed = await sealFile(account, randomBytes(1_000), {
      name: 'a',
      mimeType: 'text/plain',
      tags: [],
    });
    const started = await requestUpload(account, sealed);
    // A short body is refused by the blob route; nothing was stored, so completing is refused too.
    expect((await putBytes(started.uploadUrl, sealed.ciphertext.subarray(1))).status).toBe(400);
    const res = await account.client.post('/api/files/upload-complete', { fileId: sealed.body.fileId });
    expect(res.status).toBe(400);
    expect(
      (await account.client.get<FileListResponse>('/api/files')).body.files.map((f) => f.id),
    ).not.toContain(sealed.body.fileId);
  });

  it('a tampered stored object fails decryption instead of giving wrong bytes', async () => {
    const plaintext = randomBytes(70_000);
    const sealed = await sealFile(account, plaintext, { name: 'a', mimeType: 'text/plain', tags: [] });
    sealed.ciphertext[100] = sealed.ciphertext[100]! ^ 1;
    const started = await requestUpload(account, sealed);
    expect((await putBytes(started.uploadUrl, sealed.ciphertext)).status).toBe(204);
    const done = assertStatus(
      await account.client.post<{ file: never }>('/api/files/upload-complete', {
        fileId: sealed.body.fileId,
      }),
      200,
      'complete',
    );
    await expect(downloadFile(account, done.body.file)).rejects.toThrow();
  });

  it("answers 404 for another user's file, and an expired-looking or moved link is refused", async () => {
    const { file } = await uploadFile(account, randomBytes(10), {
      name: 'a',
      mimeType: 'text/plain',
      tags: [],
    });
    const other = await signUp();
    for (const [method, path] of [
      ['delete', `/api/files/${file.id}`],
      ['post', `/api/files/${file.id}/restore`],
      ['delete', `/api/files/${file.id}/permanent`],
      ['get', `/api/files/${file.id}/metadata`],
      ['get', `/api/files/${file.id}/optimized`],
    ] as const) {
      const res = method === 'post' ? await other.client.post(path) : await other.client[method](path);
      expect([path, res.status]).toEqual([path, 404]);
    }
    const dl = await other.client.post(`/api/files/${file.id}/download-url`, { authKey: other.keys.authKey });
    expect(dl.status).toBe(404);
    const link = await account.client.post<{ downloadUrl: string }>(`/api/files/${file.id}/download-url`, {
      authKey: account.keys.authKey,
    });
    const url = new URL(absoluteUrl(link.body.downloadUrl));
    url.searchParams.set('exp', String(Number(url.searchParams.get('exp')) + 60));
    expect((await fetch(url)).status).toBe(403);
  });

  it('scans what was stored: ciphertext is checked (framing + ClamAV), plaintext malware from a faulty client is caught', async () => {
    const { file } = await uploadFile(account, randomBytes(5_000), {
      name: 'ok.txt',
      mimeType: 'text/plain',
      tags: [],
    });
    // A faulty client that stores the EICAR test file unencrypted (sizes declared as if sealed).
    const eicar = Buffer.from('X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*');
    const sealed = await sealFile(account, new Uint8Array(eicar.length - 16), {
      name: 'x',
      mimeType: 'text/plain',
      tags: [],
    });
    const started = await requestUpload(account, sealed);
    expect((await putBytes(started.uploadUrl, eicar)).status).toBe(204);
    assertStatus(
      await account.client.post('/api/files/upload-complete', { fileId: sealed.body.fileId }),
      200,
      'complete',
    );

    const verdicts = async () =>
      new Map((await account.client.get<FileListResponse>('/api/files')).body.files.map((f) => [f.id, f]));
    let files = await verdicts();
    for (
      let i = 0;
      i < 150 && [file.id, sealed.body.fileId].some((id) => files.get(id)?.virusScanResult === 'pending');
      i++
    ) {
      await new Promise((r) => setTimeout(r, 200));
      files = await verdicts();
    }
    expect(files.get(file.id)).toMatchObject({ virusScanned: true, virusScanResult: 'clean' });
    expect(files.get(file.id)?.virusScanDetail).toContain('cannot be scanned by the server');
    expect(files.get(sealed.body.fileId)).toMatchObject({ virusScanResult: 'infected' });
    const refused = await account.client.post(`/api/files/${sealed.body.fileId}/download-url`, {
      authKey: account.keys.authKey,
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: 'File is infected and cannot be downloaded' });
  }, 60_000);

  it('trash: delete, restore, permanent delete removes the object, empty trash, counts', async () => {
    const fresh = await signUp();
    const a = await uploadFile(fresh, randomBytes(10), { name: 'a', mimeType: 'text/plain', tags: [] });
    const b = await uploadFile(fresh, randomBytes(20), { name: 'b', mimeType: 'text/plain', tags: [] }, 's3');
    const link = await fresh.client.post<{ downloadUrl: string }>(`/api/files/${a.file.id}/download-url`, {
      authKey: fresh.keys.authKey,
    });
    assertStatus(await fresh.client.delete(`/api/files/${a.file.id}`), 204, 'delete');
    assertStatus(await fresh.client.delete(`/api/files/${b.file.id}`), 204, 'delete');
    expect((await fresh.client.get<FileListResponse>('/api/files/deleted')).body.files).toHaveLength(2);
    assertStatus(await fresh.client.post(`/api/files/${b.file.id}/restore`), 200, 'restore');
    expect((await fresh.client.get<FileCountsResponse>('/api/files/counts')).body).toMatchObject({
      active: 1,
      deleted: 1,
    });
    assertStatus(await fresh.client.delete(`/api/files/${a.file.id}/permanent`), 204, 'purge');
    // The object is gone: even the URL signed before the delete finds nothing.
    expect((await fetch(absoluteUrl(link.body.downloadUrl))).status).toBe(404);
    assertStatus(await fresh.client.delete(`/api/files/${b.file.id}`), 204, 'delete');
    const emptied = assertStatus(
      await fresh.client.delete<{ deleted: number }>('/api/files/trash'),
      200,
      'empty trash',
    );
    expect(emptied.body.deleted).toBe(1);
    expect((await fresh.client.get<FileCountsResponse>('/api/files/counts')).body).toEqual({
      active: 0,
      deleted: 0,
      bytes: 0,
    });
  });
});
