import { parseFirst } from '../common/validation';
import {
  createNoteBodySchema,
  listNotesQuerySchema,
  NOTE_MAX_BYTES,
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
