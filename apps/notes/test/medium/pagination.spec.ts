import {
  ErrorCode,
  NOTES_PATTERNS,
  type NoteDto,
  type NoteListResponse,
  type NoteResponse,
  sealedNoteBytes,
} from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { LIST_PAGE_MAX_BYTES, NOTE_JSON_OVERHEAD } from '../../src/services/list-page';
import { encodeCursor } from '../../src/services/note-cursor';
import { noteBody, startNotesTestApp, testAppPerFile, type TestUser } from './support/notes-test-app';

const P = NOTES_PATTERNS;

describe('notes list pagination (keyset on updatedAt, stored order, id)', () => {
  const t = testAppPerFile(() => startNotesTestApp('pages'));

  const list = (u: TestUser, query: object) => u.call<NoteListResponse>(P.list, query);

  async function createMany(u: TestUser, count: number, contentBytes = 40): Promise<NoteDto[]> {
    const notes: NoteDto[] = [];
    for (let i = 0; i < count; i += 1) {
      notes.push((await u.call<NoteResponse>(P.create, noteBody({ content: sealed(contentBytes) }))).note);
    }
    return notes;
  }

  const sealed = (bytes: number) => `${'ab'.repeat(bytes)}:${'0'.repeat(24)}`;

  /** Sets updated_at of the given notes (ms precision), as if they had been saved then. */
  async function setUpdatedAt(ids: string[], at: Date): Promise<void> {
    await t.pg.query(`UPDATE notes.notes SET updated_at = $2 WHERE id = ANY($1::uuid[])`, [ids, at]);
  }

  /** Follows nextCursor to the end; every page is checked against the limit. */
  async function walk(
    u: TestUser,
    limit: number,
  ): Promise<{ pages: NoteDto[][]; cursors: (string | null)[] }> {
    const pages: NoteDto[][] = [];
    const cursors: (string | null)[] = [];
    let cursor: string | undefined;
    for (let guard = 0; guard < 1000; guard += 1) {
      const res = await list(u, cursor === undefined ? { limit } : { limit, cursor });
      expect(res.notes.length).toBeLessThanOrEqual(limit);
      pages.push(res.notes);
      cursors.push(res.nextCursor);
      if (res.nextCursor === null) return { pages, cursors };
      cursor = res.nextCursor;
    }
    throw new Error('the cursor never ended');
  }

  /** The list's order: updatedAt desc, then the order they were stored (`created`, oldest first). */
  const expectedOrder = (notes: NoteDto[], created: NoteDto[]) => {
    const stored = new Map(created.map((n, i) => [n.id, i]));
    return [...notes]
      .sort((a, b) =>
        a.updatedAt === b.updatedAt
          ? stored.get(a.id)! - stored.get(b.id)!
          : a.updatedAt < b.updatedAt
            ? 1
            : -1,
      )
      .map((n) => n.id);
  };

  it('walks every note exactly once, in order, across pages whose notes share one timestamp', async () => {
    const u = await t.user();
    const notes = await createMany(u, 23);
    const same = new Date('2026-05-01T12:00:00.000Z');
    await setUpdatedAt(
      notes.map((n) => n.id),
      same,
    );

    const { pages } = await walk(u, 5);
    expect(pages.map((p) => p.length)).toEqual([5, 5, 5, 5, 3]);
    const walked = pages.flat();
    expect(walked.every((n) => n.updatedAt === same.toISOString())).toBe(true);
    // Notes of one timestamp: in the order they were stored.
    expect(walked.map((n) => n.id)).toEqual(notes.map((n) => n.id));
  });

  it('walks notes of one timestamp and one stored order (stored before the column existed) by id, descending', async () => {
    const u = await t.user();
    const notes = await createMany(u, 13);
    await setUpdatedAt(
      notes.map((n) => n.id),
      new Date('2026-05-02T12:00:00.000Z'),
    );
    await t.pg.query(`UPDATE notes.notes SET stored_order = 0 WHERE id = ANY($1::uuid[])`, [
      notes.map((n) => n.id),
    ]);

    const walked = (await walk(u, 4)).pages.flat();
    expect(walked.map((n) => n.id)).toEqual([...notes.map((n) => n.id)].sort().reverse());
  });

  it('walks groups of equal timestamps that straddle page boundaries', async () => {
    const u = await t.user();
    const notes = await createMany(u, 30);
    const base = Date.parse('2026-06-01T00:00:00.000Z');
    for (let group = 0; group < 6; group += 1) {
      await setUpdatedAt(
        notes.slice(group * 5, group * 5 + 5).map((n) => n.id),
        new Date(base + (group % 3) * 1000),
      );
    }
    const all = (await list(u, {})).notes;
    expect(all).toHaveLength(30);

    const { pages } = await walk(u, 7);
    const walked = pages.flat();
    expect(walked.map((n) => n.id)).toEqual(expectedOrder(all, notes));
    expect(new Set(walked.map((n) => n.id)).size).toBe(30);
  });

  it('answers nextCursor null on the last page, also when the count is a multiple of the limit', async () => {
    const u = await t.user();
    await createMany(u, 6);
    const { pages, cursors } = await walk(u, 3);
    expect(pages.map((p) => p.length)).toEqual([3, 3]);
    expect(cursors).toEqual([expect.any(String), null]);
  });

  it('answers every note without a limit, and the rest of the list for a cursor without a limit', async () => {
    const u = await t.user();
    await createMany(u, 8);
    const all = await list(u, {});
    expect(all.notes).toHaveLength(8);
    expect(all.nextCursor).toBeNull();

    const first = await list(u, { limit: 3 });
    const rest = await list(u, { cursor: first.nextCursor });
    expect([...first.notes, ...rest.notes]).toEqual(all.notes);
    expect(rest.nextCursor).toBeNull();
  });

  it('keeps a page under the byte budget and continues on the next page', async () => {
    const u = await t.user();
    // ~300 KiB of ciphertext each: two fit the 768 KiB page budget, a third would not.
    await createMany(u, 5, 150 * 1024);
    const first = await list(u, { limit: 10 });
    expect(first.notes.length).toBe(2);
    expect(first.nextCursor).not.toBeNull();
    const { pages } = await walk(u, 10);
    expect(pages.flat()).toHaveLength(5);
  });

  it('never answers an empty page: a note over the whole budget comes alone', async () => {
    const u = await t.user();
    // 400 KiB of ciphertext each (a note may hold 1 MiB): every page holds exactly one.
    await createMany(u, 2, 200 * 1024);
    await u.call<NoteResponse>(P.create, noteBody({ content: sealed(400 * 1024) }));
    const { pages } = await walk(u, 10);
    expect(pages.map((p) => p.length)).toEqual([1, 1, 1]);
  });

  it('counts each note as its sealed fields, tags included, plus NOTE_JSON_OVERHEAD, to the byte', async () => {
    /** A note that counts `size` bytes against the page budget. */
    const noteOfSize = (size: number) => {
      const probe = noteBody({ content: '', tags: [sealed(500)] });
      const contentChars = size - (sealedNoteBytes(probe) + NOTE_JSON_OVERHEAD);
      expect((contentChars - 25) % 2).toBe(0);
      return { ...probe, id: randomUUID(), content: sealed((contentChars - 25) / 2) };
    };
    const half = LIST_PAGE_MAX_BYTES / 2;
    const fits = await t.user();
    for (let i = 0; i < 3; i += 1) await fits.call(P.create, noteOfSize(half));
    expect((await list(fits, { limit: 10 })).notes).toHaveLength(2);
    const over = await t.user();
    for (let i = 0; i < 3; i += 1) await over.call(P.create, noteOfSize(half + 2));
    expect((await list(over, { limit: 10 })).notes).toHaveLength(1);
  });

  it('never shows another user’s notes, even with a cursor made from one of them', async () => {
    const u = await t.user();
    const other = await t.user();
    const mine = await createMany(u, 3);
    const theirs = await createMany(other, 3);
    const foreignCursor = encodeCursor({
      updatedAt: new Date(Date.parse(theirs[0]!.updatedAt) + 60_000),
      storedOrder: '0',
      id: theirs[0]!.id,
    });

    const res = await list(u, { limit: 10, cursor: foreignCursor });
    expect(res.notes.map((n) => n.id).sort()).toEqual(mine.map((n) => n.id).sort());
  });

  it.each([
    ['a garbled cursor', { limit: 5, cursor: 'not-a-cursor!' }, 'Invalid cursor'],
    [
      'a cursor naming no UUID',
      { limit: 5, cursor: Buffer.from('1:abc').toString('base64url') },
      'Invalid cursor',
    ],
    ['a limit of 0', { limit: 0 }, />=1/],
    ['a limit of 501', { limit: 501 }, /<=500/],
    ['a fractional limit', { limit: 2.5 }, /expected int/],
    ['an unknown query field', { limit: 5, sort: 'asc' }, 'Unknown field: sort'],
  ])('answers VALIDATION_FAILED to %s', async (_label, query, message) => {
    const u = await t.user();
    const err = await u.fail(P.list, query);
    expect({ code: err.code, message: err.message }).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: expect.stringMatching(message),
    });
  });

  it('accepts the limit as text, the way a query string carries it', async () => {
    const u = await t.user();
    await createMany(u, 3);
    const res = await list(u, { limit: '2' });
    expect(res.notes).toHaveLength(2);
  });

  it('answers a cursor past the end with an empty last page', async () => {
    const u = await t.user();
    await createMany(u, 2);
    const res = await list(u, {
      limit: 5,
      cursor: encodeCursor({ updatedAt: new Date(0), storedOrder: '0', id: randomUUID() }),
    });
    expect(res).toEqual({ notes: [], nextCursor: null });
  });
});
