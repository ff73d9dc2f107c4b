import type { FileDto } from '@vault/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { InlineFilesCrypto } from '../../../workers/files-crypto';
import { makeVaultKey, sealFile } from '../testing/files-harness';
import { FilesStore, type FilesSnapshot } from './files-store';

const at = (minutesAgo: number) =>
  new Date(Date.parse('2026-06-01T12:00:00.000Z') - minutesAgo * 60_000).toISOString();

describe('FilesStore', () => {
  it('lists the sealed files newest first, then decrypts them in batches', async () => {
    const key = await makeVaultKey();
    const sealed = await Promise.all(
      ['c.txt', 'a.pdf', 'b.png', 'd.zip', 'e.docx'].map((name, i) =>
        sealFile(key, { name, tags: [`t${i}`] }, { uploadedAt: at([3, 0, 1, 4, 2][i]!) }),
      ),
    );
    const { store, snapshots } = await setupWithKey(
      key,
      sealed.map((s) => s.dto),
    );
    await store.load();
    const first = snapshots.find((s) => s.status === 'ready')!;
    expect(first.items.map((f) => f.status)).toEqual(Array(5).fill('decrypting'));
    expect(first.decryptingCount).toBe(5);
    // Batches of 2: 2, then 4, then all decrypted.
    const counts = snapshots.filter((s) => s.status === 'ready').map((s) => s.decryptingCount);
    expect(counts).toEqual([5, 3, 1, 0]);
    const last = store.getSnapshot();
    expect(last.items.map((f) => f.name)).toEqual(['a.pdf', 'b.png', 'e.docx', 'c.txt', 'd.zip']);
    expect(last.items[0]).toMatchObject({ status: 'ready', mimeType: 'text/plain', tags: ['t1'] });
  });

  it("a file that cannot be decrypted is 'Encrypted File' of type application/octet-stream; others are unaffected", async () => {
    const key = await makeVaultKey();
    const other = await makeVaultKey();
    const good = await sealFile(key, { name: 'good.txt' }, { uploadedAt: at(1) });
    const foreign = await sealFile(other, { name: 'foreign.txt' }, { uploadedAt: at(2) });
    const longName = await sealFile(key, { name: 'n'.repeat(1000) }, { uploadedAt: at(3) });
    const { store } = await setupWithKey(key, [good.dto, foreign.dto, longName.dto]);
    await store.load();
    expect(store.getSnapshot().items.map((f) => [f.status, f.name, f.mimeType])).toEqual([
      ['ready', 'good.txt', 'text/plain'],
      ['failed', 'Encrypted File', 'application/octet-stream'],
      ['failed', 'Encrypted File', 'application/octet-stream'],
    ]);
  });

  it("'Failed to load files' with the reason; Retry loads again", async () => {
    const key = await makeVaultKey();
    const file = await sealFile(key, { name: 'later.txt' });
    let fail = true;
    const { store } = await setupWithKey(key, async () => {
      if (fail) throw new ApiError(503, 'Service unavailable');
      return [file.dto];
    });
    await store.load();
    expect(store.getSnapshot()).toMatchObject({
      status: 'error',
      error: 'Failed to load files: Service unavailable',
    });
    fail = false;
    await store.retry();
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', error: null });
    expect(store.getSnapshot().items[0]!.name).toBe('later.txt');
  });

  it('refresh keeps what is decrypted (fresh record: new scan result), decrypts new files, drops gone ones', async () => {
    const key = await makeVaultKey();
    const a = await sealFile(key, { name: 'a.txt' }, { uploadedAt: at(5), virusScanResult: 'pending' });
    const b = await sealFile(key, { name: 'b.txt' }, { uploadedAt: at(4) });
    const c = await sealFile(key, { name: 'c.txt' }, { uploadedAt: at(1) });
    let list = [a.dto, b.dto];
    const { store, crypto } = await setupWithKey(key, async () => list);
    const spy = vi.spyOn(crypto, 'decryptMetadata');
    await store.load();
    expect(spy).toHaveBeenCalledTimes(1);
    list = [{ ...a.dto, virusScanned: true, virusScanResult: 'clean' }, c.dto];
    await store.refresh();
    const items = store.getSnapshot().items;
    expect(items.map((f) => f.name)).toEqual(['c.txt', 'a.txt']);
    expect(items[1]!.dto.virusScanResult).toBe('clean');
    // Only the new file went to the worker.
    expect(spy).toHaveBeenCalledTimes(2);
    expect(spy.mock.calls[1]![1].map((f) => f.id)).toEqual([c.dto.id]);
  });

  it('search and tag filter are kept in the snapshot (the list is not rebuilt)', async () => {
    const key = await makeVaultKey();
    const { store } = await setupWithKey(key, [(await sealFile(key, { name: 'x.txt' })).dto]);
    await store.load();
    const items = store.getSnapshot().items;
    store.setSearchQuery('report');
    store.setTag('work');
    expect(store.getSnapshot()).toMatchObject({ searchQuery: 'report', selectedTag: 'work' });
    expect(store.getSnapshot().items).toBe(items);
    store.setTag(null);
    expect(store.getSnapshot().selectedTag).toBeNull();
  });

  it('decrypts thumbnails on request into object URLs, once, and revokes them when the file leaves', async () => {
    const key = await makeVaultKey();
    const webp = new Uint8Array(
      [...'RIFF']
        .map((c) => c.charCodeAt(0))
        .concat(
          [0, 0, 0, 0],
          [...'WEBP'].map((c) => c.charCodeAt(0)),
        ),
    );
    const pic = await sealFile(
      key,
      { name: 'cat.webp', mimeType: 'image/webp' },
      { thumbnail: webp, uploadedAt: at(1) },
    );
    const plain = await sealFile(key, { name: 'notes.txt' }, { uploadedAt: at(2) });
    let list = [pic.dto, plain.dto];
    const { store, urls, revoked, blobs } = await setupWithKey(
      key,
      async () => list,
      new Map([[pic.dto.id, pic.encryptedThumbnail!]]),
    );
    // Not before the file is decrypted.
    store.requestThumbnail(pic.dto.id);
    await store.load();
    store.requestThumbnail(pic.dto.id);
    store.requestThumbnail(pic.dto.id);
    store.requestThumbnail(plain.dto.id); // has no thumbnail: nothing is fetched
    await vi.waitFor(() => expect(store.getSnapshot().thumbnails.get(pic.dto.id)).toBe('blob:thumb-1'));
    expect(urls).toEqual(['blob:thumb-1']);
    expect(blobs[0]!.type).toBe('image/webp');

    list = [plain.dto];
    await store.refresh();
    expect(revoked).toEqual(['blob:thumb-1']);
    expect(store.getSnapshot().thumbnails.size).toBe(0);
  });

  it('remove() and insert() keep the list in order; dispose() forgets everything and revokes URLs', async () => {
    const key = await makeVaultKey();
    const webp = new Uint8Array([0xff, 0xd8, 0xff, 0]);
    const a = await sealFile(
      key,
      { name: 'a.jpg', mimeType: 'image/jpeg' },
      { uploadedAt: at(1), thumbnail: webp },
    );
    const b = await sealFile(key, { name: 'b.txt' }, { uploadedAt: at(3) });
    const c = await sealFile(key, { name: 'c.txt' }, { uploadedAt: at(2) });
    const { store, revoked } = await setupWithKey(
      key,
      [a.dto, b.dto],
      new Map([[a.dto.id, a.encryptedThumbnail!]]),
    );
    await store.load();
    store.requestThumbnail(a.dto.id);
    await vi.waitFor(() => expect(store.getSnapshot().thumbnails.size).toBe(1));
    store.remove(b.dto.id);
    await store.insert(c.dto);
    expect(store.getSnapshot().items.map((f) => f.name)).toEqual(['a.jpg', 'c.txt']);
    const listener = vi.fn();
    store.subscribe(listener);
    store.dispose();
    expect(revoked).toEqual(['blob:thumb-1']);
    expect(store.getSnapshot().items).toEqual([]);
    expect(store.isDisposed).toBe(true);
    await store.refresh();
    expect(listener).not.toHaveBeenCalled();
  });
});

async function setupWithKey(
  key: CryptoKey,
  files: FileDto[] | (() => Promise<FileDto[]>),
  thumbnails = new Map<string, string>(),
) {
  const urls: string[] = [];
  const revoked: string[] = [];
  const blobs: Blob[] = [];
  const crypto = new InlineFilesCrypto();
  let n = 0;
  const store = new FilesStore({
    vaultKey: key,
    crypto,
    fetchFiles: typeof files === 'function' ? files : async () => files,
    fetchThumbnail: async (id) => thumbnails.get(id) ?? null,
    batchSize: 2,
    createObjectURL: (blob) => {
      blobs.push(blob);
      const url = `blob:thumb-${++n}`;
      urls.push(url);
      return url;
    },
    revokeObjectURL: (url) => revoked.push(url),
  });
  const snapshots: FilesSnapshot[] = [];
  store.subscribe(() => snapshots.push(store.getSnapshot()));
  return { store, crypto, snapshots, urls, revoked, blobs };
}
