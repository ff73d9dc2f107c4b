import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../lib/api-client';
import { json } from '../../../testing/fake-server';
import { FakeFilesApi, makeVaultKey, sealFile } from '../testing/files-harness';
import { emptyFilesTrash } from './empty-files-trash';
import { getFileCounts } from './get-file-counts';
import { getFiles } from './get-files';
import { getStorageTypes } from './get-storage-types';
import { getThumbnail } from './get-thumbnail';

const client = (fetch: typeof globalThis.fetch) => new ApiClient({ baseUrl: '/api', fetch });

describe('files API calls', () => {
  it('parse their answers with the contract schemas; a mismatch is an error', async () => {
    const key = await makeVaultKey();
    const api = new FakeFilesApi([await sealFile(key, { name: 'a.txt' })]);
    expect(await getStorageTypes(client(api.fetch))).toEqual(api.storageTypes);
    expect((await getFiles(client(api.fetch))).map((f) => f.id)).toEqual([api.active[0]!.id]);
    const broken = client(async () => json(200, { files: [{ id: 1 }] }));
    await expect(getFiles(broken)).rejects.toThrow('Unexpected response from server');
  });

  it('GET /files/{id}/optimized: the sealed thumbnail, or null on 404', async () => {
    const key = await makeVaultKey();
    const pic = await sealFile(
      key,
      { name: 'p.png', mimeType: 'image/png' },
      { thumbnail: new Uint8Array([1, 2]) },
    );
    const api = new FakeFilesApi([pic]);
    expect(await getThumbnail(client(api.fetch), pic.dto.id)).toBe(pic.encryptedThumbnail);
    expect(await getThumbnail(client(api.fetch), '0d1e2f30-4152-4637-a8b9-cadbecfd0e1f')).toBeNull();
    const failing = client(async () => json(503, { error: 'down' }));
    await expect(getThumbnail(failing, pic.dto.id)).rejects.toThrow('down');
  });

  it('DELETE /files/trash answers 204 (null) or {deleted}', async () => {
    const api = new FakeFilesApi();
    expect(await emptyFilesTrash(client(api.fetch))).toBeNull();
    api.emptyTrashAnswersCount = true;
    expect(await emptyFilesTrash(client(api.fetch))).toBe(0);
  });

  it('GET /files/counts: a failed or malformed answer is an error (the query stays failed, and is asked again)', async () => {
    expect(await getFileCounts(client(new FakeFilesApi().fetch))).toEqual({
      active: 0,
      deleted: 0,
      bytes: 0,
    });
    await expect(getFileCounts(client(async () => json(503, { error: 'down' })))).rejects.toThrow('down');
    await expect(getFileCounts(client(async () => json(200, { active: 'x' })))).rejects.toThrow(
      'Unexpected response from server',
    );
  });
});
