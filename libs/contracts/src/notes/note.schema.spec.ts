import { parseFirst } from '../common/validation';
import {
  createNoteBatchBodySchema,
  createNoteBodySchema,
  importedDatesProblem,
  listNotesQuerySchema,
  NOTE_DATE_MAX_SKEW_MS,
  NOTE_DATE_MIN,
  NOTE_BATCH_MAX_NOTES,
  NOTE_MAX_BYTES,
  sealedBatchBytes,
  sealedNoteBytes,
  updateNoteBodySchema,
  updateNoteRequestSchema,
} from './note.schema';

const sealedValue = (n = 40) => `${'ab'.repeat(n)}:${'0'.repeat(24)}`;
const note = {
  id: '3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b',
  title: sealedValue(),
  content: sealedValue(),
  tags: [sealedValue()],
  wrappedDEK: `${'1'.repeat(96)}:${'2'.repeat(24)}`,
};

describe('createNoteBodySchema', () => {
  it('accepts a sealed note with a client-made UUID v4', () => {
    expect(parseFirst(createNoteBodySchema, note).ok).toBe(true);
  });

  it('refuses plaintext where a sealed value belongs', () => {
    expect(parseFirst(createNoteBodySchema, { ...note, title: 'My secret title' })).toMatchObject({
      ok: false,
      message: 'Invalid encrypted title',
    });
  });

  it('refuses ids that are not lowercase UUID v4', () => {
    expect(parseFirst(createNoteBodySchema, { ...note, id: note.id.toUpperCase() }).ok).toBe(false);
    expect(parseFirst(createNoteBodySchema, { ...note, id: '3f2b8c1e-9d4a-1e6f-8a1b-2c3d4e5f6a7b' }).ok).toBe(
      false,
    );
  });

  it('allows at most the one sealed tags item of the protocol', () => {
    expect(parseFirst(createNoteBodySchema, { ...note, tags: [] }).ok).toBe(true);
    expect(parseFirst(createNoteBodySchema, { ...note, tags: [sealedValue(), sealedValue()] }).ok).toBe(
      false,
    );
  });
});

describe('createNoteBatchBodySchema', () => {
  const withId = (n: number) => ({ ...note, id: `3f2b8c1e-9d4a-4e6f-8a1b-${String(n).padStart(12, '0')}` });
  const batch = (count: number) => ({ notes: Array.from({ length: count }, (_, i) => withId(i)) });

  it('accepts 1 to 100 notes, each as the single create takes it', () => {
    expect(parseFirst(createNoteBatchBodySchema, batch(1)).ok).toBe(true);
    expect(parseFirst(createNoteBatchBodySchema, batch(NOTE_BATCH_MAX_NOTES)).ok).toBe(true);
  });

  it('refuses an empty batch and one of 101 notes', () => {
    for (const body of [batch(0), batch(NOTE_BATCH_MAX_NOTES + 1)]) {
      expect(parseFirst(createNoteBatchBodySchema, body)).toMatchObject({
        ok: false,
        message: 'A batch holds 1 to 100 notes',
      });
    }
  });

  it('checks every note with the single create’s rules and messages', () => {
    const body = batch(3);
    body.notes[2] = { ...body.notes[2]!, title: 'My secret title' };
    expect(parseFirst(createNoteBatchBodySchema, body)).toMatchObject({
      ok: false,
      message: 'Invalid encrypted title',
      path: ['notes', 2, 'title'],
    });
    expect(parseFirst(createNoteBatchBodySchema, { notes: [{ ...note, isDeleted: false }] })).toMatchObject({
      ok: false,
      message: 'Unknown field: isDeleted',
    });
  });

  it('refuses the same id twice in one batch, naming it', () => {
    const body = batch(3);
    body.notes[2] = { ...body.notes[2]!, id: body.notes[0]!.id };
    expect(parseFirst(createNoteBatchBodySchema, body)).toMatchObject({
      ok: false,
      message: `Duplicate note id in batch: ${body.notes[0]!.id}`,
      path: ['notes', 2, 'id'],
    });
  });

  it('refuses anything but a notes list, and unknown fields beside it', () => {
    expect(parseFirst(createNoteBatchBodySchema, { notes: note }).ok).toBe(false);
    expect(parseFirst(createNoteBatchBodySchema, {}).ok).toBe(false);
    expect(parseFirst(createNoteBatchBodySchema, { ...batch(1), replace: true })).toMatchObject({
      ok: false,
      message: 'Unknown field: replace',
    });
  });

  describe('dates of an import', () => {
    const NOW = Date.parse('2026-06-01T12:00:00.000Z');
    const dated = (createdAt: unknown, updatedAt: unknown) => ({ ...note, createdAt, updatedAt });
    const problem = (n: { id: string; createdAt?: string; updatedAt?: string }) =>
      importedDatesProblem(n, NOW);

    it('takes both dates, ISO 8601 with Z or an offset, any sub-second digits', () => {
      for (const [c, u] of [
        ['2021-01-01T00:00:00.000Z', '2021-06-01T00:00:00.000Z'],
        ['2021-01-01T01:00:00+01:00', '2021-01-01T00:00:00Z'],
        ['2021-01-01T00:00:00.123456Z', '2021-01-01T00:00:00.123456Z'],
      ] as const) {
        expect(parseFirst(createNoteBatchBodySchema, { notes: [dated(c, u)] }).ok).toBe(true);
      }
      expect(parseFirst(createNoteBatchBodySchema, { notes: [note] }).ok).toBe(true);
    });

    it.each([
      ['a date without a time', '2021-01-05'],
      ['a time without a zone', '2021-01-05T10:00:00'],
      ['a day that does not exist', '2021-02-30T00:00:00.000Z'],
      ['a number', 1609459200000],
      ['text', 'yesterday'],
    ])('refuses %s, naming the field and the form', (_label, value) => {
      expect(
        parseFirst(createNoteBatchBodySchema, { notes: [dated(value, '2021-01-06T00:00:00.000Z')] }),
      ).toMatchObject({
        ok: false,
        message: 'createdAt must be an ISO 8601 date and time, e.g. 2024-05-01T12:00:00.000Z',
        path: ['notes', 0, 'createdAt'],
      });
    });

    it('answers the bounds with the note id: not before 2000-01-01, at most 5 minutes ahead, created before updated, both or neither', () => {
      const id = note.id;
      const ahead = (ms: number) => new Date(NOW + ms).toISOString();
      expect(problem({ id, createdAt: NOTE_DATE_MIN, updatedAt: ahead(NOTE_DATE_MAX_SKEW_MS) })).toBeNull();
      expect(problem({ id })).toBeNull();
      expect(problem({ id, createdAt: '1999-12-31T23:59:59.999Z', updatedAt: NOTE_DATE_MIN })).toBe(
        `Note ${id}: createdAt must not be before 2000-01-01`,
      );
      expect(problem({ id, createdAt: NOTE_DATE_MIN, updatedAt: ahead(NOTE_DATE_MAX_SKEW_MS + 1) })).toBe(
        `Note ${id}: updatedAt must not be in the future`,
      );
      expect(
        problem({ id, createdAt: '2021-01-02T00:00:00.000Z', updatedAt: '2021-01-01T23:59:59.999Z' }),
      ).toBe(`Note ${id}: createdAt must not be after updatedAt`);
      expect(problem({ id, updatedAt: NOTE_DATE_MIN })).toBe(
        `Note ${id}: createdAt and updatedAt must be given together`,
      );
      expect(problem({ id, createdAt: NOTE_DATE_MIN })).toBe(
        `Note ${id}: createdAt and updatedAt must be given together`,
      );
    });

    it('checks the bounds in the batch schema against the clock, after each note’s own rules', () => {
      const future = new Date(Date.now() + 3_600_000).toISOString();
      expect(
        parseFirst(createNoteBatchBodySchema, {
          notes: [withId(1), dated('2021-01-01T00:00:00.000Z', future)],
        }),
      ).toMatchObject({
        ok: false,
        message: `Note ${note.id}: updatedAt must not be in the future`,
        path: ['notes', 1],
      });
      expect(
        parseFirst(createNoteBatchBodySchema, {
          notes: [{ ...dated('2021-01-01T00:00:00.000Z', future), title: 'plain' }],
        }),
      ).toMatchObject({ ok: false, message: 'Invalid encrypted title' });
    });

    it('keeps the single create free of dates', () => {
      expect(parseFirst(createNoteBodySchema, dated(NOTE_DATE_MIN, NOTE_DATE_MIN))).toMatchObject({
        ok: false,
        message: 'Unknown field: createdAt, updatedAt',
      });
    });
  });

  it('adds up the sealed bytes of every note of a batch', () => {
    expect(sealedBatchBytes(batch(3).notes)).toBe(3 * sealedNoteBytes(note));
    expect(sealedBatchBytes([])).toBe(0);
  });
});

describe('updateNoteBodySchema', () => {
  it('does not take an id in the body', () => {
    expect(parseFirst(updateNoteBodySchema, note)).toMatchObject({ ok: false, message: 'Unknown field: id' });
  });
});

describe('sealedNoteBytes', () => {
  it('adds up every sealed field', () => {
    const size = sealedNoteBytes(note);
    expect(size).toBe(note.title.length * 3 + note.wrappedDEK.length);
    expect(size).toBeLessThan(NOTE_MAX_BYTES);
  });
});

describe('updateNoteRequestSchema (the notes.update RPC body)', () => {
  it('carries the id of the route beside the re-sealed fields', () => {
    expect(parseFirst(updateNoteRequestSchema, note).ok).toBe(true);
    const { id: _id, ...fields } = note;
    expect(parseFirst(updateNoteRequestSchema, fields).ok).toBe(false);
    expect(parseFirst(updateNoteRequestSchema, { ...note, isDeleted: true })).toMatchObject({
      ok: false,
      message: 'Unknown field: isDeleted',
    });
  });
});

describe('listNotesQuerySchema', () => {
  it('takes the limit as query-string text and as a number, within 1..500', () => {
    expect(parseFirst(listNotesQuerySchema, { limit: '25' })).toEqual({ ok: true, data: { limit: 25 } });
    expect(parseFirst(listNotesQuerySchema, { limit: 500, cursor: 'abc' }).ok).toBe(true);
    expect(parseFirst(listNotesQuerySchema, {}).ok).toBe(true);
    for (const limit of ['0', '501', '2.5', 'ten']) {
      expect(parseFirst(listNotesQuerySchema, { limit }).ok).toBe(false);
    }
  });

  it('refuses unknown parameters', () => {
    expect(parseFirst(listNotesQuerySchema, { sort: 'asc' })).toMatchObject({
      ok: false,
      message: 'Unknown field: sort',
    });
  });
});
