import type { NoteDto, NoteListResponse } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-error';
import { InlineNotesCrypto, type NotesCrypto } from '../../../workers/notes-crypto';
import type { NotesPageQuery } from '../api/get-notes';
import { makeVaultKey, sealMany, sealNote } from '../testing/notes-harness';
import { NoteFreshness } from './note-freshness';
import { NotesStore, ROLLED_BACK_ERROR, type NotesSnapshot, type NotesStoreOptions } from './notes-store';

/** Keyset pages over a fixed list, like the API: the cursor is the last id of the page. */
function pager(all: NoteDto[]) {
  const queries: NotesPageQuery[] = [];
  const held = new Map<string, () => void>();
  const holdCursors = new Set<string>();
  const failCursors = new Map<string, number>();
  const fetchPage = async (query: NotesPageQuery): Promise<NoteListResponse> => {
    queries.push(query);
    const key = query.cursor ?? '';
    if (holdCursors.has(key)) await new Promise<void>((resolve) => held.set(key, resolve));
    const fails = failCursors.get(key) ?? 0;
    if (fails > 0) {
      failCursors.set(key, fails - 1);
      throw new ApiError(0, 'Network error');
    }
    const start = query.cursor ? all.findIndex((n) => n.id === query.cursor) + 1 : 0;
    const notes = all.slice(start, start + query.limit);
    const more = start + notes.length < all.length;
    return { notes, nextCursor: more ? notes[notes.length - 1]!.id : null };
  };
  return {
    fetchPage,
    queries,
    hold: (cursor: string) => holdCursors.add(cursor),
    release: (cursor: string) => {
      holdCursors.delete(cursor);
      held.get(cursor)?.();
    },
    failOnce: (cursor: string) => failCursors.set(cursor, 1),
  };
}

/** Records every batch the store asks the crypto to decrypt. */
class RecordingCrypto extends InlineNotesCrypto {
  readonly batches: string[][] = [];
  override async decryptBatch(key: CryptoKey, notes: readonly NoteDto[]) {
    this.batches.push(notes.map((n) => n.id));
    return super.decryptBatch(key, notes);
  }
}

function until(store: NotesStore, predicate: (s: NotesSnapshot) => boolean): Promise<NotesSnapshot> {
  return new Promise((resolve) => {
    if (predicate(store.getSnapshot())) return resolve(store.getSnapshot());
    const off = store.subscribe(() => {
      if (predicate(store.getSnapshot())) {
        off();
        resolve(store.getSnapshot());
      }
    });
  });
}

/** A store over `fetchPage` with the real notes crypto in-thread; `options` sets the page sizes. */
const storeOver = (
  key: CryptoKey,
  fetchPage: NotesStoreOptions['fetchPage'],
  options: Partial<NotesStoreOptions> = {},
) => new NotesStore({ vaultKey: key, crypto: new InlineNotesCrypto(), fetchPage, ...options });

describe('NotesStore: paged loading and batch decryption (real @vault/crypto)', () => {
  it('shows the first 50 (newest) as soon as they are decrypted, while the rest is still on its way', async () => {
    const key = await makeVaultKey();
    const all = await sealMany(key, 180);
    const api = pager(all);
    const crypto = new RecordingCrypto();
    const store = new NotesStore({
      vaultKey: key,
      crypto,
      fetchPage: api.fetchPage,
      nextPageSize: 60,
      batchSize: 40,
    });
    api.hold(all[49]!.id); // the second page waits

    void store.load();
    const first = await until(store, (s) => s.status === 'ready');
    expect(first.decryptedCount).toBe(50);
    expect(first.complete).toBe(false);
    expect(first.items.filter((i) => i.kind === 'decrypted').map((i) => i.id)).toEqual(
      all.slice(0, 50).map((n) => n.id),
    );
    expect(api.queries).toEqual([
      { limit: 50, cursor: null },
      { limit: 60, cursor: all[49]!.id },
    ]);
    // The first batch sent to the worker is exactly the first screen, newest first.
    expect(crypto.batches[0]).toEqual(all.slice(0, 50).map((n) => n.id));

    api.release(all[49]!.id);
    await store.whenComplete();
    const done = store.getSnapshot();
    expect(done.complete).toBe(true);
    expect(done.decryptedCount).toBe(180);
    expect(done.pendingCount).toBe(0);
    expect(done.items.map((i) => i.id)).toEqual(all.map((n) => n.id));
    // Later pages are decrypted in batches of the configured size, in order.
    expect(crypto.batches.map((b) => b.length)).toEqual([50, 40, 20, 40, 20, 10]);
    expect(crypto.batches.flat()).toEqual(all.map((n) => n.id));
    // decryptedNotes keyed by id.
    expect(done.decrypted.get(all[123]!.id)).toMatchObject({ title: 'Note 123', content: '', tags: [] });
  });

  it('sends no later page to the workers before the first screen is decrypted, even with pages already fetched', async () => {
    const key = await makeVaultKey();
    const all = await sealMany(key, 170);
    const api = pager(all);
    // The first screen's batch waits until released; later ones go through at once.
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    class HoldingCrypto extends RecordingCrypto {
      override async decryptBatch(k: CryptoKey, notes: readonly NoteDto[]) {
        const answer = super.decryptBatch(k, notes);
        if (this.batches.length === 1) await firstHeld;
        return answer;
      }
    }
    const crypto = new HoldingCrypto();
    const store = new NotesStore({ vaultKey: key, crypto, fetchPage: api.fetchPage, nextPageSize: 60 });

    void store.load();
    // Every page arrives while the first batch is in the worker.
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (let i = 0; i < 200 && api.queries.length < 3; i++) await sleep(5);
    expect(api.queries).toHaveLength(3);
    await sleep(50);
    expect(crypto.batches).toHaveLength(1);
    expect(store.getSnapshot().status).toBe('loading');

    releaseFirst();
    await store.whenComplete();
    expect(crypto.batches[0]).toEqual(all.slice(0, 50).map((n) => n.id));
    expect(crypto.batches.flat()).toEqual(all.map((n) => n.id));
    expect(store.getSnapshot().decryptedCount).toBe(170);
  });

  it('a note that fails to decrypt becomes a failed item; every other note works', async () => {
    const key = await makeVaultKey();
    const otherKey = await makeVaultKey();
    const good = await sealMany(key, 5, (i) => ({ title: `Good ${i}`, content: `Body ${i}`, tags: ['t'] }));
    const foreign = await sealNote(
      otherKey,
      { title: 'Sealed under another key' },
      { updatedAt: '2026-05-31T12:00:00.000Z' },
    );
    const tamperedSource = await sealNote(
      key,
      { title: 'Tampered' },
      { updatedAt: '2026-05-31T11:00:00.000Z' },
    );
    const flipped = tamperedSource.title.startsWith('0') ? '1' : '0';
    const tampered = { ...tamperedSource, title: flipped + tamperedSource.title.slice(1) };
    const all = [good[0]!, good[1]!, good[2]!, good[3]!, good[4]!, foreign, tampered];
    const store = storeOver(key, pager(all).fetchPage);
    await store.whenComplete();
    const s = store.getSnapshot();
    expect(s.decryptedCount).toBe(5);
    expect(s.failedCount).toBe(2);
    expect(s.items.map((i) => i.kind)).toEqual([
      'decrypted',
      'decrypted',
      'decrypted',
      'decrypted',
      'decrypted',
      'failed',
      'failed',
    ]);
    expect(s.items[0]).toMatchObject({
      kind: 'decrypted',
      note: { title: 'Good 0', content: 'Body 0', tags: ['t'] },
    });
    expect(s.items[5]).toMatchObject({ kind: 'failed', id: foreign.id });
  });

  it('a worker failure marks that batch as failed and loading goes on', async () => {
    const key = await makeVaultKey();
    const all = await sealMany(key, 8);
    const inner = new InlineNotesCrypto();
    let calls = 0;
    const crypto: NotesCrypto = {
      ...inner,
      encrypt: inner.encrypt.bind(inner),
      update: inner.update.bind(inner),
      sealBackup: inner.sealBackup.bind(inner),
      openBackup: inner.openBackup.bind(inner),
      decryptBatch: (k, notes) =>
        ++calls === 1 ? Promise.reject(new Error('worker died')) : inner.decryptBatch(k, notes),
    };
    const store = new NotesStore({
      vaultKey: key,
      crypto,
      fetchPage: pager(all).fetchPage,
      firstPageSize: 3,
      nextPageSize: 5,
    });
    await store.whenComplete();
    const s = store.getSnapshot();
    expect(s.items.slice(0, 3).every((i) => i.kind === 'failed')).toBe(true);
    expect(s.decryptedCount).toBe(5);
  });

  it("a first page that fails is an error ('Failed to load notes: ...') and Retry loads it", async () => {
    const key = await makeVaultKey();
    const all = await sealMany(key, 3);
    const api = pager(all);
    api.failOnce('');
    const store = storeOver(key, api.fetchPage);
    await store.load();
    expect(store.getSnapshot()).toMatchObject({
      status: 'error',
      error: 'Failed to load notes: Network error',
    });
    await store.retry();
    expect(store.getSnapshot()).toMatchObject({
      status: 'ready',
      error: null,
      complete: true,
      decryptedCount: 3,
    });
  });

  it('a later page that fails keeps what is loaded; Retry resumes from the cursor without duplicates', async () => {
    const key = await makeVaultKey();
    const all = await sealMany(key, 12);
    const api = pager(all);
    api.failOnce(all[3]!.id);
    const store = storeOver(key, api.fetchPage, { firstPageSize: 4, nextPageSize: 4 });
    await store.load();
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', complete: false, decryptedCount: 4 });
    expect(store.getSnapshot().error).toMatch(/^Failed to load notes/);
    await store.retry();
    const s = store.getSnapshot();
    expect(s).toMatchObject({ complete: true, decryptedCount: 12, error: null });
    expect(new Set(s.items.map((i) => i.id)).size).toBe(12);
  });

  it('whenComplete rejects when loading fails', async () => {
    const key = await makeVaultKey();
    const api = pager([]);
    api.failOnce('');
    const store = storeOver(key, api.fetchPage);
    await expect(store.whenComplete()).rejects.toThrow('Failed to load notes: Network error');
  });

  it('an empty vault is ready and complete after one call', async () => {
    const key = await makeVaultKey();
    const api = pager([]);
    const store = storeOver(key, api.fetchPage);
    await store.load();
    expect(store.getSnapshot()).toMatchObject({ status: 'ready', complete: true, items: [] });
    expect(api.queries).toHaveLength(1);
  });

  it('a note deleted while later pages load does not come back', async () => {
    const key = await makeVaultKey();
    const all = await sealMany(key, 6);
    const api = pager(all);
    api.hold(all[1]!.id);
    const store = storeOver(key, api.fetchPage, { firstPageSize: 2, nextPageSize: 2 });
    void store.load();
    await until(store, (s) => s.status === 'ready');
    store.remove(all[0]!.id);
    store.remove(all[3]!.id); // not loaded yet
    api.release(all[1]!.id);
    await store.whenComplete();
    expect(store.getSnapshot().items.map((i) => i.id)).toEqual([
      all[1]!.id,
      all[2]!.id,
      all[4]!.id,
      all[5]!.id,
    ]);
  });

  it('created and updated notes move to the top (newest updatedAt first)', async () => {
    const key = await makeVaultKey();
    const all = await sealMany(key, 3);
    const store = storeOver(key, pager(all).fetchPage);
    await store.whenComplete();
    const later = { ...all[2]!, updatedAt: '2027-01-01T00:00:00.000Z' };
    store.upsert(later, { title: 'Edited', content: 'now', tags: ['x'] });
    expect(store.getSnapshot().items.map((i) => i.id)).toEqual([all[2]!.id, all[0]!.id, all[1]!.id]);
    expect(store.getSnapshot().decrypted.get(all[2]!.id)).toMatchObject({
      title: 'Edited',
      searchText: 'edited\nnow\nx',
    });
  });

  it('an import keeps notes of equal updatedAt in the order given, after those of that date already listed', async () => {
    const key = await makeVaultKey();
    const at = '2021-05-01T00:00:00.000Z';
    const listed = await sealNote(
      key,
      { title: 'Listed' },
      { id: '00000000-0000-4000-8000-000000000005', updatedAt: at },
    );
    const store = storeOver(key, pager([listed]).fetchPage);
    await store.whenComplete();
    // Ids ascending: the order of the file, not the one an id tie-break would give.
    const ids = ['1', '2', '3', '4'].map((n) => `00000000-0000-4000-8000-00000000000${n}`);
    const newer = await sealNote(
      key,
      { title: 'Newer' },
      { id: ids[3], updatedAt: '2021-06-01T00:00:00.000Z' },
    );
    const same = await Promise.all(
      ids.slice(0, 3).map((id) => sealNote(key, { title: id }, { id, updatedAt: at })),
    );
    store.upsertMany(
      [same[0]!, newer, same[1]!, same[2]!].map((sealed) => ({
        sealed,
        plain: { title: 't', content: '', tags: [] },
      })),
    );
    expect(store.getSnapshot().items.map((i) => i.id)).toEqual([ids[3], listed.id, ids[0], ids[1], ids[2]]);
  });

  it('filters change without rebuilding the lists', async () => {
    const key = await makeVaultKey();
    const store = storeOver(key, pager(await sealMany(key, 2)).fetchPage);
    await store.whenComplete();
    const before = store.getSnapshot();
    store.setSearchQuery('note');
    store.toggleTag('a');
    store.toggleTag('b');
    store.toggleTag('a');
    const after = store.getSnapshot();
    expect(after).toMatchObject({ searchQuery: 'note', selectedTags: ['b'] });
    expect(after.items).toBe(before.items);
    store.clearTags();
    expect(store.getSnapshot().selectedTags).toEqual([]);
  });

  it('dispose forgets every note and plaintext', async () => {
    const key = await makeVaultKey();
    const store = storeOver(key, pager(await sealMany(key, 2)).fetchPage);
    await store.whenComplete();
    store.dispose();
    expect(store.getSnapshot()).toMatchObject({ items: [], decryptedCount: 0 });
    expect(store.getSnapshot().decrypted.size).toBe(0);
    expect(store.get('x')).toBeUndefined();
  });
});

describe('NotesStore: a note older than one already shown (a rollback) is refused', () => {
  const at = (day: string) => `2026-03-${day}T10:00:00.000Z`;

  it('the next load with the same freshness refuses an older version, unopened; same or newer versions open', async () => {
    const key = await makeVaultKey();
    const freshness = new NoteFreshness();
    const v1 = await sealNote(key, { title: 'First words' }, { createdAt: at('01'), updatedAt: at('01') });
    const v2 = await sealNote(
      key,
      { title: 'Second words' },
      { id: v1.id, createdAt: at('01'), updatedAt: at('02') },
    );
    const other = await sealNote(key, { title: 'Other' }, { updatedAt: at('03') });
    const first = storeOver(key, pager([other, v2]).fetchPage, { freshness });
    await first.whenComplete();
    expect(first.getSnapshot().decryptedCount).toBe(2);
    first.dispose();

    // The server answers the first version again (its own date): it would open fine.
    const crypto = new RecordingCrypto();
    const again = storeOver(key, pager([other, v1]).fetchPage, { freshness, crypto });
    await again.whenComplete();
    const item = again.get(v1.id);
    expect(item).toMatchObject({ kind: 'failed', error: ROLLED_BACK_ERROR, rolledBack: true });
    expect(again.getSnapshot().decrypted.has(v1.id)).toBe(false);
    expect(again.get(other.id)?.kind).toBe('decrypted');
    // Never sent to the crypto: nothing of it is decrypted.
    expect(crypto.batches.flat()).toEqual([other.id]);

    // The version seen, and a newer one, open.
    const same = storeOver(key, pager([other, v2]).fetchPage, { freshness });
    await same.whenComplete();
    expect(same.get(v2.id)?.kind).toBe('decrypted');
    const v3 = await sealNote(
      key,
      { title: 'Third' },
      { id: v1.id, createdAt: at('01'), updatedAt: at('04') },
    );
    const newer = storeOver(key, pager([v3, other]).fetchPage, { freshness });
    await newer.whenComplete();
    expect(newer.get(v1.id)?.kind).toBe('decrypted');
  });

  it('a version saved here counts as seen: the list may not answer the one before it', async () => {
    const key = await makeVaultKey();
    const freshness = new NoteFreshness();
    const v1 = await sealNote(key, { title: 'Before' }, { updatedAt: at('01') });
    const store = storeOver(key, pager([v1]).fetchPage, { freshness });
    await store.whenComplete();
    store.upsert({ ...v1, updatedAt: at('05') }, { title: 'After', content: '', tags: [] });
    store.dispose();
    const later = storeOver(key, pager([v1]).fetchPage, { freshness });
    await later.whenComplete();
    expect(later.get(v1.id)).toMatchObject({ kind: 'failed', rolledBack: true });
  });

  it('the limit: a page that has seen nothing (after a reload) opens the older version', async () => {
    const key = await makeVaultKey();
    const v1 = await sealNote(key, { title: 'Old' }, { updatedAt: at('01') });
    const v2 = await sealNote(key, { title: 'New' }, { id: v1.id, updatedAt: at('02') });
    const before = storeOver(key, pager([v2]).fetchPage, { freshness: new NoteFreshness() });
    await before.whenComplete();
    const reloaded = storeOver(key, pager([v1]).fetchPage, { freshness: new NoteFreshness() });
    await reloaded.whenComplete();
    expect(reloaded.get(v1.id)).toMatchObject({ kind: 'decrypted', note: { title: 'Old' } });
  });
});
