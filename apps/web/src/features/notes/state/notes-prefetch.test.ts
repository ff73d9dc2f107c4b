import type { NoteListResponse } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import type { NotesPageQuery } from '../api/get-notes';
import { NotesPrefetch, PREFETCH_MAX_AGE_MS } from './notes-prefetch';

/** Pages of ids over `total` notes, cursor = last id; `fail` makes the page at that cursor reject once. */
function pages(total: number, fail?: string) {
  const queries: NotesPageQuery[] = [];
  let failed = false;
  const fetchPage = async (query: NotesPageQuery): Promise<NoteListResponse> => {
    queries.push(query);
    if (fail !== undefined && (query.cursor ?? '') === fail && !failed) {
      failed = true;
      throw new Error('network');
    }
    const start = query.cursor ? Number(query.cursor) + 1 : 0;
    const end = Math.min(total, start + query.limit);
    const notes = Array.from({ length: end - start }, (_, i) => ({ id: String(start + i) }) as never);
    return { notes, nextCursor: end < total ? String(end - 1) : null };
  };
  return { fetchPage, queries };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('NotesPrefetch', () => {
  it('follows the store sequence (first page, then full pages by cursor) to the end', async () => {
    const p = pages(1_200);
    new NotesPrefetch('u1', p.fetchPage, Date.now, 50, 500);
    for (let i = 0; i < 10; i++) await settle();
    expect(p.queries).toEqual([
      { limit: 50, cursor: null },
      { limit: 500, cursor: '49' },
      { limit: 500, cursor: '549' },
      { limit: 500, cursor: '1049' },
    ]);
  });

  it('hands each fetched page over once; an unknown query gets null', async () => {
    const p = pages(600);
    const prefetch = new NotesPrefetch('u1', p.fetchPage, Date.now, 50, 500);
    for (let i = 0; i < 10; i++) await settle();
    const first = prefetch.take({ limit: 50, cursor: null });
    expect((await first)?.notes).toHaveLength(50);
    expect(prefetch.take({ limit: 50, cursor: null })).toBeNull();
    expect(prefetch.take({ limit: 500, cursor: '12' })).toBeNull();
    expect((await prefetch.take({ limit: 500, cursor: '49' }))?.notes).toHaveLength(500);
    expect(p.queries).toHaveLength(3);
  });

  it('gives nothing once stale, and stops requesting then or after stop()', async () => {
    let now = 1_000;
    const p = pages(10_000);
    // Each page answers only when released, so the test sees the run ahead step by step.
    const waiting: Array<() => void> = [];
    const slow = (query: NotesPageQuery) =>
      new Promise<void>((resolve) => waiting.push(resolve)).then(() => p.fetchPage(query));
    const release = async () => {
      waiting.shift()?.();
      for (let i = 0; i < 5; i++) await settle();
    };
    const stale = new NotesPrefetch('u1', slow, () => now, 50, 500);
    await release();
    expect(p.queries).toHaveLength(1);
    now += PREFETCH_MAX_AGE_MS + 1;
    expect(stale.take({ limit: 50, cursor: null })).toBeNull();
    await release();
    await release();
    expect(p.queries).toHaveLength(2); // the page in flight when it went stale, and no more

    const stopped = new NotesPrefetch('u2', slow, () => now, 50, 500);
    await release();
    stopped.stop();
    await release();
    await release();
    expect(p.queries).toHaveLength(4);
    expect(stopped.take({ limit: 500, cursor: '49' })).toBeNull();
  });

  it('a failed page ends the run ahead; taking it gives the rejection for the caller to refetch', async () => {
    const p = pages(1_000, '49');
    const prefetch = new NotesPrefetch('u1', p.fetchPage, Date.now, 50, 500);
    for (let i = 0; i < 10; i++) await settle();
    expect(p.queries).toHaveLength(2);
    await expect(prefetch.take({ limit: 500, cursor: '49' })).rejects.toThrow('network');
  });
});
