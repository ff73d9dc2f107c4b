import {
  ErrorCode,
  NOTE_BATCH_MAX_BYTES,
  NOTE_BATCH_MAX_NOTES,
  NOTE_MAX_BYTES,
  NOTE_MESSAGES,
  NOTES_PATTERNS,
  sealedNoteBytes,
  type CreateNoteBatchItem,
  type CreateNoteBatchResponse,
  type CreateNoteBody,
  type NoteListResponse,
  type NoteResponse,
} from '@vault/contracts';
import { Client } from 'pg';
import { NotesService } from '../../src/services/notes.service';
import {
  noteBody,
  sealedFieldsOf,
  sealedValue,
  sleep,
  startNotesTestApp,
  testAppPerFile,
  type TestUser,
} from './support/notes-test-app';

const P = NOTES_PATTERNS;

/** A note whose sealed fields add up to exactly `total` characters. */
function noteOfSize(total: number): CreateNoteBody {
  const base = noteBody();
  const fixed = sealedNoteBytes({ ...base, content: '' });
  return { ...base, content: `${'a'.repeat(total - fixed - 25)}:${'0'.repeat(24)}` };
}

describe(`${NotesService.name} batch create`, () => {
  const t = testAppPerFile(() => startNotesTestApp('batch'));

  beforeAll(async () => {
    // Counts INSERT statements on the table (not rows), so a test can tell one INSERT per batch
    // from one per note. Only in this test's own database.
    await t.pg.query(`
      CREATE TABLE public.insert_statements (n int NOT NULL);
      INSERT INTO public.insert_statements VALUES (0);
      CREATE FUNCTION public.count_insert_statement() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN UPDATE public.insert_statements SET n = n + 1; RETURN NULL; END $$;
      CREATE TRIGGER count_insert_statements AFTER INSERT ON notes.notes
        FOR EACH STATEMENT EXECUTE FUNCTION public.count_insert_statement();
    `);
  });

  const batch = (u: TestUser, notes: CreateNoteBatchItem[]) =>
    u.call<CreateNoteBatchResponse>(P.createBatch, { notes });
  const list = async (u: TestUser) => (await u.call<NoteListResponse>(P.list, {})).notes;
  const insertStatements = async () =>
    Number((await t.pg.query(`SELECT n FROM public.insert_statements`)).rows[0].n);
  const rowsOf = async (ids: string[]) =>
    (await t.pg.query(`SELECT id, owner_id, xmin::text AS xmin FROM notes.notes WHERE id = ANY($1)`, [ids]))
      .rows as { id: string; owner_id: string; xmin: string }[];
  const many = (n: number) => Array.from({ length: n }, () => noteBody());
  const lockWaits = async () =>
    Number(
      (
        await t.pg.query(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0].n,
    );
  const waitFor = async (check: () => Promise<boolean>, ms = 5000) => {
    const until = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > until) throw new Error('timed out waiting');
      await sleep(10);
    }
  };

  it('creates 100 notes with one INSERT in one transaction and answers them in the order sent', async () => {
    const u = await t.user();
    const notes = many(NOTE_BATCH_MAX_NOTES);
    const before = await insertStatements();

    const res = await batch(u, notes);

    expect(await insertStatements()).toBe(before + 1);
    expect(res.notes.map((n) => n.id)).toEqual(notes.map((n) => n.id));
    res.notes.forEach((note, i) => {
      const sent = notes[i]!;
      expect(note).toEqual({
        ...sent,
        isEncrypted: true,
        isDeleted: false,
        createdAt: res.notes[0]!.createdAt,
        updatedAt: res.notes[0]!.createdAt,
        deletedAt: null,
      });
    });
    const rows = await rowsOf(notes.map((n) => n.id));
    expect(rows).toHaveLength(NOTE_BATCH_MAX_NOTES);
    expect(new Set(rows.map((r) => r.owner_id))).toEqual(new Set([u.auth.userId]));
    expect(new Set(rows.map((r) => r.xmin)).size).toBe(1);
    expect((await list(u)).map((n) => n.id).sort()).toEqual(notes.map((n) => n.id).sort());
  });

  it('keeps the dates a note brings (to the millisecond) and lists notes of one date in the order sent', async () => {
    const u = await t.user();
    const same = { createdAt: '2021-03-01T08:00:00.000Z', updatedAt: '2021-03-02T08:00:00.123Z' };
    // Ids descending would be the order of ties by id: send them ascending.
    const notes = many(6)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((n) => ({ ...n, ...same }));
    const newest = {
      ...noteBody(),
      createdAt: '2021-03-01T08:00:00.000+02:00',
      updatedAt: '2022-01-01T00:00:00Z',
    };

    const res = await batch(u, [...notes.slice(0, 3), newest, ...notes.slice(3)]);

    expect(res.notes[3]).toMatchObject({
      createdAt: '2021-03-01T06:00:00.000Z',
      updatedAt: '2022-01-01T00:00:00.000Z',
    });
    expect((await list(u)).map((n) => [n.id, n.createdAt, n.updatedAt])).toEqual([
      [newest.id, '2021-03-01T06:00:00.000Z', '2022-01-01T00:00:00.000Z'],
      ...notes.map((n) => [n.id, same.createdAt, same.updatedAt]),
    ]);
    const orders = (
      await t.pg.query(`SELECT id, stored_order::text AS o FROM notes.notes WHERE id = ANY($1)`, [
        notes.map((n) => n.id),
      ])
    ).rows as { id: string; o: string }[];
    const byId = new Map(orders.map((r) => [r.id, BigInt(r.o)]));
    const sent = notes.map((n) => byId.get(n.id)!);
    expect([...sent].sort((a, b) => (a < b ? -1 : 1))).toEqual(sent);
  });

  it('answers CONFLICT to a note sent again under its id with other dates', async () => {
    const u = await t.user();
    const note = {
      ...noteBody(),
      createdAt: '2021-03-01T08:00:00.000Z',
      updatedAt: '2021-03-01T08:00:00.000Z',
    };
    await batch(u, [note]);
    expect(await batch(u, [{ ...note, createdAt: '2021-03-01T08:00:00Z' }])).toMatchObject({
      notes: [{ id: note.id }],
    });
    const err = await u.fail(P.createBatch, { notes: [{ ...note, updatedAt: '2021-03-01T08:00:00.001Z' }] });
    expect({ code: err.code, message: err.message }).toEqual({
      code: ErrorCode.CONFLICT,
      message: NOTE_MESSAGES.idTaken,
    });
  });

  it('checks the dates again itself: out of bounds is VALIDATION_FAILED and stores nothing', async () => {
    const u = await t.user();
    const ok = noteBody();
    const late = {
      ...noteBody(),
      createdAt: '2021-01-01T00:00:00.000Z',
      updatedAt: new Date(Date.now() + 3_600_000).toISOString(),
    };
    const err = await u.fail(P.createBatch, { notes: [ok, late] });
    expect({ code: err.code, message: err.message }).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: NOTE_MESSAGES.dateInFuture(late.id, 'updatedAt'),
    });
    expect(await list(u)).toEqual([]);
  });

  it('is idempotent per note: the same batch again answers the same notes and changes nothing', async () => {
    const u = await t.user();
    const notes = many(5);
    const first = await batch(u, notes);

    const again = await batch(
      u,
      notes.map((n) => ({ ...n })),
    );

    expect(again).toEqual(first);
    expect(await list(u)).toHaveLength(5);
  });

  it('creates the new notes of a batch and answers the ones already there as they are now', async () => {
    const u = await t.user();
    const single = noteBody();
    await u.call<NoteResponse>(P.create, single);
    const edited = noteBody();
    await u.call<NoteResponse>(P.create, edited);
    const { note: updated } = await u.call<NoteResponse>(P.update, {
      id: edited.id,
      ...sealedFieldsOf(noteBody()),
    });
    const fresh = many(2);

    const res = await batch(u, [fresh[0]!, single, edited, fresh[1]!]);

    expect(res.notes.map((n) => n.id)).toEqual([fresh[0]!.id, single.id, edited.id, fresh[1]!.id]);
    expect(res.notes[2]).toEqual(updated);
    expect(res.notes[1]).toMatchObject({ title: single.title, content: single.content });
    expect(await list(u)).toHaveLength(4);
  });

  it('answers CONFLICT naming the taken ids when an id holds a different body, and stores nothing', async () => {
    const u = await t.user();
    const kept = noteBody();
    const { note } = await u.call<NoteResponse>(P.create, kept);
    const fresh = many(3);

    const err = await u.fail(P.createBatch, {
      notes: [fresh[0], { ...kept, content: sealedValue(50) }, fresh[1], fresh[2]],
    });

    expect({ code: err.code, message: err.message, extra: err.extra }).toEqual({
      code: ErrorCode.CONFLICT,
      message: NOTE_MESSAGES.idTaken,
      extra: { ids: [kept.id] },
    });
    expect(await list(u)).toEqual([note]);
    expect(await rowsOf(fresh.map((n) => n.id))).toEqual([]);
  });

  it("answers CONFLICT to another user's ids, even with the same bodies, and leaves their notes alone", async () => {
    const owner = await t.user();
    const other = await t.user();
    const theirs = many(2);
    const created = await batch(owner, theirs);
    const mine = noteBody();

    const err = await other.fail(P.createBatch, { notes: [theirs[1], mine, theirs[0]] });

    expect({ code: err.code, extra: err.extra }).toEqual({
      code: ErrorCode.CONFLICT,
      extra: { ids: [theirs[1]!.id, theirs[0]!.id] },
    });
    expect(await list(other)).toEqual([]);
    expect(await rowsOf([mine.id])).toEqual([]);
    expect((await list(owner)).map((n) => n.id).sort()).toEqual(created.notes.map((n) => n.id).sort());
  });

  it.each([
    ['no notes', () => ({ notes: [] }), 'A batch holds 1 to 100 notes'],
    ['101 notes', () => ({ notes: many(NOTE_BATCH_MAX_NOTES + 1) }), 'A batch holds 1 to 100 notes'],
    [
      'the same id twice',
      () => {
        const [a, b] = many(2);
        return { notes: [a, b, { ...noteBody(), id: a!.id }] };
      },
      /^Duplicate note id in batch: [0-9a-f-]{36}$/,
    ],
    [
      'plaintext in one note',
      () => ({ notes: [noteBody(), { ...noteBody(), title: 'Secret' }] }),
      'Invalid encrypted title',
    ],
    [
      'an unknown field in one note',
      () => ({ notes: [{ ...noteBody(), isDeleted: true }] }),
      'Unknown field: isDeleted',
    ],
    ['a single note instead of a list', () => noteBody(), 'notes must be a list of 1 to 100 notes'],
  ])('answers VALIDATION_FAILED to %s, and stores nothing', async (_label, make, message) => {
    const u = await t.user();
    const body = make();
    const err = await u.fail(P.createBatch, body);
    expect({ code: err.code, message: err.message }).toEqual({
      code: ErrorCode.VALIDATION_FAILED,
      message: message instanceof RegExp ? expect.stringMatching(message) : message,
    });
    expect(await list(u)).toEqual([]);
  });

  it('answers the single create’s PAYLOAD_TOO_LARGE when one note is over 1 MiB, and stores nothing', async () => {
    const u = await t.user();
    const small = noteBody();
    const err = await u.fail(P.createBatch, { notes: [small, noteOfSize(NOTE_MAX_BYTES + 1)] });

    expect({ code: err.code, message: err.message, extra: err.extra }).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: NOTE_MESSAGES.tooLarge,
      extra: { maxBytes: NOTE_MAX_BYTES },
    });
    expect(await rowsOf([small.id])).toEqual([]);
  });

  it('takes notes that add up to the batch limit, and answers PAYLOAD_TOO_LARGE one byte over', async () => {
    const u = await t.user();
    const half = NOTE_BATCH_MAX_BYTES / 2;
    await batch(u, [noteOfSize(half), noteOfSize(half)]);

    const over = [noteOfSize(half), noteOfSize(half + 1)];
    const err = await u.fail(P.createBatch, { notes: over });
    expect({ code: err.code, message: err.message }).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: NOTE_MESSAGES.batchTooLarge,
    });
    expect(await rowsOf(over.map((n) => n.id))).toEqual([]);
    expect(await list(u)).toHaveLength(2);
  });

  it('answers UNAUTHENTICATED without a caller', async () => {
    expect((await t.fail(P.createBatch, { notes: [noteBody()] })).code).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('lets two batches of the same notes in opposite orders meet mid-way without a deadlock', async () => {
    const u = await t.user();
    const notes = many(40);
    const middle = notes[20]!;
    // Another transaction holds the middle id, uncommitted, so that both batches have inserted
    // their first half and wait there. Inserting in request order, each would then wait for
    // the other's first half: a deadlock. In id order both wait in the same order.
    const holder = new Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(
        `INSERT INTO notes.notes (id, owner_id, title, content, wrapped_dek, body_hash) VALUES ($1, $2, '', '', '', '')`,
        [middle.id, u.auth.userId],
      );
      const both = Promise.all([batch(u, notes), batch(u, [...notes].reverse())]);
      await waitFor(async () => (await lockWaits()) >= 2);
      await holder.query('ROLLBACK');

      const [asSent, reversed] = await both;
      expect(reversed.notes).toEqual([...asSent.notes].reverse());
      expect(await list(u)).toHaveLength(40);
    } finally {
      await holder.end();
    }
  });

  it('never writes a sealed field to its log', async () => {
    const u = await t.user();
    const notes = many(3);
    await batch(u, notes);
    await u.fail(P.createBatch, { notes: [{ ...notes[0]!, title: sealedValue() }] });
    const text = t.logs.join('');
    expect(text).toContain('Batch of 3 note(s)');
    for (const note of notes) {
      for (const value of [note.title, note.content, note.tags[0]!, note.wrappedDEK]) {
        expect(text).not.toContain(value.split(':')[0]);
      }
    }
  });
});
