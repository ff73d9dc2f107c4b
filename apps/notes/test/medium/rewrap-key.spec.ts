import {
  ErrorCode,
  NOTE_MESSAGES,
  NOTES_PATTERNS,
  type DeletedNoteListResponse,
  type NoteListResponse,
  type NoteResponse,
} from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { NotesService } from '../../src/services/notes.service';
import {
  noteBody,
  sealedValue,
  sleep,
  startNotesTestApp,
  testAppPerFile,
  wrappedKey,
  type TestUser,
} from './support/notes-test-app';

const P = NOTES_PATTERNS;

describe(`${NotesService.name}: notes.rewrap-key (legacy-key re-wrap after an access reset)`, () => {
  const t = testAppPerFile(() => startNotesTestApp('rewrap'));

  const create = async (u: TestUser) => (await u.call<NoteResponse>(P.create, noteBody())).note;
  const active = async (u: TestUser) => (await u.call<NoteListResponse>(P.list, {})).notes;
  const trash = async (u: TestUser) => (await u.call<DeletedNoteListResponse>(P.listDeleted)).notes;

  it('replaces only wrappedDEK of an active note: updatedAt, the sealed fields and the order stay', async () => {
    const u = await t.user();
    const older = await create(u);
    await sleep(5);
    const newer = await create(u);
    await sleep(5);
    const rewrapped = wrappedKey();

    expect(await u.call(P.rewrapKey, { id: older.id, wrappedDEK: rewrapped })).toBeNull();

    const notes = await active(u);
    expect(notes.map((n) => n.id)).toEqual([newer.id, older.id]);
    expect(notes[1]).toEqual({ ...older, wrappedDEK: rewrapped });
    expect(notes[0]).toEqual(newer);
  });

  it('re-wraps a note in the trash, which stays there with its deletedAt', async () => {
    const u = await t.user();
    const note = await create(u);
    await u.call(P.remove, { id: note.id });
    const [before] = await trash(u);
    const rewrapped = wrappedKey();

    await u.call(P.rewrapKey, { id: note.id, wrappedDEK: rewrapped });

    expect(await trash(u)).toEqual([{ ...before, wrappedDEK: rewrapped }]);
    expect(await active(u)).toEqual([]);
  });

  it('is idempotent: the same key twice answers 204 both times', async () => {
    const u = await t.user();
    const note = await create(u);
    const rewrapped = wrappedKey();
    await u.call(P.rewrapKey, { id: note.id, wrappedDEK: rewrapped });
    await u.call(P.rewrapKey, { id: note.id, wrappedDEK: rewrapped });
    expect((await active(u))[0]?.wrappedDEK).toBe(rewrapped);
  });

  it('answers 404 to another user’s note (active or trashed) and leaves it untouched', async () => {
    const owner = await t.user();
    const other = await t.user();
    const kept = await create(owner);
    const trashed = await create(owner);
    await owner.call(P.remove, { id: trashed.id });

    for (const id of [kept.id, trashed.id]) {
      const error = await other.fail(P.rewrapKey, { id, wrappedDEK: wrappedKey() });
      expect({ code: error.code, message: error.message }).toEqual({
        code: ErrorCode.NOT_FOUND,
        message: NOTE_MESSAGES.notFound,
      });
    }
    expect((await active(owner))[0]?.wrappedDEK).toBe(kept.wrappedDEK);
    expect((await trash(owner))[0]?.wrappedDEK).toBe(trashed.wrappedDEK);
  });

  it('answers 404 to an unknown id and to a purged note', async () => {
    const u = await t.user();
    expect((await u.fail(P.rewrapKey, { id: randomUUID(), wrappedDEK: wrappedKey() })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
    const note = await create(u);
    await u.call(P.remove, { id: note.id });
    await u.call(P.purge, { id: note.id });
    expect((await u.fail(P.rewrapKey, { id: note.id, wrappedDEK: wrappedKey() })).code).toBe(
      ErrorCode.NOT_FOUND,
    );
  });

  it('answers 400 to a malformed wrapped key, a bad id or any other field, and changes nothing', async () => {
    const u = await t.user();
    const note = await create(u);
    const bad = [
      { id: note.id, wrappedDEK: 'not-sealed' },
      { id: note.id, wrappedDEK: sealedValue(32).toUpperCase() },
      { id: note.id, wrappedDEK: `${sealedValue(32)}:extra` },
      { id: note.id },
      { id: 'not-a-uuid', wrappedDEK: wrappedKey() },
      { id: note.id, wrappedDEK: wrappedKey(), title: sealedValue(10) },
    ];
    for (const body of bad) {
      expect({ body, code: (await u.fail(P.rewrapKey, body)).code }).toEqual({
        body,
        code: ErrorCode.VALIDATION_FAILED,
      });
    }
    expect((await active(u))[0]).toEqual(note);
  });

  it('answers UNAUTHENTICATED without a caller, and logs no key', async () => {
    const rewrapped = wrappedKey();
    expect((await t.fail(P.rewrapKey, { id: randomUUID(), wrappedDEK: rewrapped })).code).toBe(
      ErrorCode.UNAUTHENTICATED,
    );
    const u = await t.user();
    const note = await create(u);
    await u.call(P.rewrapKey, { id: note.id, wrappedDEK: rewrapped });
    expect(t.logs.join('\n')).not.toContain(rewrapped);
  });
});
