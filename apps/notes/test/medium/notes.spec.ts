import {
  ErrorCode,
  NOTE_MAX_BYTES,
  NOTES_PATTERNS,
  sealedNoteBytes,
  type DeletedNoteListResponse,
  type EmptyTrashResponse,
  type NoteCountsResponse,
  type NoteDto,
  type NoteListResponse,
  type NoteResponse,
} from '@vault/contracts';
import { serviceVersion } from '@vault/server-kit';
import { randomUUID } from 'node:crypto';
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

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const P = NOTES_PATTERNS;

describe(NotesService.name, () => {
  const t = testAppPerFile(() => startNotesTestApp('crud'));

  const create = (u: TestUser, body = noteBody()) => u.call<NoteResponse>(P.create, body);
  const list = (u: TestUser, query: object = {}) => u.call<NoteListResponse>(P.list, query);
  const ids = (notes: NoteDto[]) => notes.map((n) => n.id);
  const row = async (id: string) =>
    (await t.pg.query(`SELECT * FROM notes.notes WHERE id = $1`, [id])).rows[0] as
      Record<string, unknown> | undefined;

  describe('the caller', () => {
    it('answers UNAUTHENTICATED without a caller in the context', async () => {
      expect((await t.fail(P.list, {})).code).toBe(ErrorCode.UNAUTHENTICATED);
      expect((await t.fail(P.create, noteBody())).code).toBe(ErrorCode.UNAUTHENTICATED);
    });

    it('answers UNAUTHENTICATED to a garbled caller', async () => {
      const err = await t.fail(P.list, {}, { auth: { userId: 'x', sessionId: 'y', role: 'user' } });
      expect(err.code).toBe(ErrorCode.UNAUTHENTICATED);
    });

    it('answers SESSION_REVOKED once the session is gone', async () => {
      const u = await t.user();
      await list(u);
      await t.redis.client.del(`sess:${u.auth.sessionId}`);
      expect((await u.fail(P.list, {})).code).toBe(ErrorCode.SESSION_REVOKED);
    });

    it('answers SESSION_REVOKED to a context that names another user than the session’s', async () => {
      const victim = await t.user();
      const attacker = await t.user();
      await create(victim);
      const forged = { auth: { ...attacker.auth, userId: victim.auth.userId } };
      expect((await t.fail(P.list, {}, forged)).code).toBe(ErrorCode.SESSION_REVOKED);
    });
  });

  describe('create', () => {
    it('stores the sealed note under its client-made id and answers it as a NoteDto', async () => {
      const u = await t.user();
      const body = noteBody();
      const { note } = await create(u, body);

      expect(note).toEqual({
        id: body.id,
        title: body.title,
        content: body.content,
        tags: body.tags,
        wrappedDEK: body.wrappedDEK,
        isEncrypted: true,
        isDeleted: false,
        createdAt: expect.stringMatching(ISO),
        updatedAt: note.createdAt,
        deletedAt: null,
      });
      expect(await row(body.id)).toMatchObject({
        owner_id: u.auth.userId,
        title: body.title,
        tags: body.tags,
        wrapped_dek: body.wrappedDEK,
        is_encrypted: true,
        is_deleted: false,
        deleted_at: null,
        body_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });
    });

    it('accepts a note without tags', async () => {
      const u = await t.user();
      const { note } = await create(u, noteBody({ tags: [] }));
      expect(note.tags).toEqual([]);
    });

    it('is idempotent: the same id with the same body answers the same note and changes nothing', async () => {
      const u = await t.user();
      const body = noteBody();
      const first = await create(u, body);
      await sleep(5);
      const again = await create(u, { ...body });

      expect(again).toEqual(first);
      expect((await list(u)).notes).toHaveLength(1);
    });

    it('answers a late retry with the note as it is now, after an update', async () => {
      const u = await t.user();
      const body = noteBody();
      await create(u, body);
      const updated = await u.call<NoteResponse>(P.update, { id: body.id, ...sealedFieldsOf(noteBody()) });

      expect(await create(u, body)).toEqual(updated);
    });

    it('answers CONFLICT to the same id with a different body, and keeps the first note', async () => {
      const u = await t.user();
      const body = noteBody();
      const { note } = await create(u, body);
      const err = await u.fail(P.create, { ...body, content: sealedValue(50) });

      expect({ code: err.code, status: err.status }).toEqual({ code: ErrorCode.CONFLICT, status: 409 });
      expect((await list(u)).notes).toEqual([note]);
    });

    it('answers CONFLICT to an id another user already holds, even with the same body, and leaves their note alone', async () => {
      const owner = await t.user();
      const other = await t.user();
      const body = noteBody();
      const { note } = await create(owner, body);

      expect((await other.fail(P.create, body)).code).toBe(ErrorCode.CONFLICT);
      expect((await list(other)).notes).toEqual([]);
      expect((await list(owner)).notes).toEqual([note]);
    });

    it.each([
      ['a plaintext title', { title: 'My secret title' }, 'Invalid encrypted title'],
      ['plaintext content', { content: 'hello world' }, 'Invalid encrypted content'],
      ['a plaintext tag', { tags: ['work'] }, 'Invalid encrypted tags'],
      ['two tags items', { tags: [sealedValue(), sealedValue()] }, 'Invalid encrypted tags'],
      ['a wrappedDEK that is no sealed key', { wrappedDEK: sealedValue(10) }, 'Invalid wrapped note key'],
      ['an id that is no UUID v4', { id: 'note-1' }, 'Invalid id'],
      ['an unknown field', { isDeleted: true }, 'Unknown field: isDeleted'],
    ])(
      'answers VALIDATION_FAILED to %s (checked again behind the gateway)',
      async (_label, change, message) => {
        const u = await t.user();
        const err = await u.fail(P.create, { ...noteBody(), ...change });
        expect({ code: err.code, message: err.message }).toEqual({
          code: ErrorCode.VALIDATION_FAILED,
          message,
        });
      },
    );

    it('accepts a sealed note of exactly 1 MiB and answers PAYLOAD_TOO_LARGE one byte over', async () => {
      const u = await t.user();
      const base = noteBody();
      const fixed = sealedNoteBytes({ ...base, content: '' });
      const exact = { ...base, content: `${'a'.repeat(NOTE_MAX_BYTES - fixed - 25)}:${'0'.repeat(24)}` };
      expect(sealedNoteBytes(exact)).toBe(NOTE_MAX_BYTES);
      await create(u, exact);

      const over = {
        ...base,
        id: randomUUID(),
        content: `${'a'.repeat(NOTE_MAX_BYTES - fixed - 24)}:${'0'.repeat(24)}`,
      };
      expect(sealedNoteBytes(over)).toBe(NOTE_MAX_BYTES + 1);
      const err = await u.fail(P.create, over);
      expect({ code: err.code, status: err.status }).toEqual({
        code: ErrorCode.PAYLOAD_TOO_LARGE,
        status: 413,
      });
      expect(await row(over.id)).toBeUndefined();
    });
  });

  describe('list', () => {
    it("answers the caller's active notes only, newest updatedAt first, with nextCursor null", async () => {
      const u = await t.user();
      const other = await t.user();
      const a = (await create(u)).note;
      await sleep(3);
      const b = (await create(u)).note;
      await sleep(3);
      const c = (await create(u)).note;
      await create(other);
      await u.call(P.remove, { id: b.id });

      const res = await list(u);
      expect(res).toEqual({ notes: [c, a], nextCursor: null });
    });

    it('answers an empty list to a user without notes', async () => {
      expect(await list(await t.user())).toEqual({ notes: [], nextCursor: null });
    });
  });

  describe('update', () => {
    it('replaces the sealed fields, moves updatedAt and keeps id, createdAt and the flags', async () => {
      const u = await t.user();
      const body = noteBody();
      const { note: before } = await create(u, body);
      await sleep(5);
      const fields = sealedFieldsOf(noteBody({ wrappedDEK: body.wrappedDEK }));
      const { note } = await u.call<NoteResponse>(P.update, { id: body.id, ...fields });

      expect(note).toEqual({
        ...before,
        ...fields,
        updatedAt: expect.stringMatching(ISO),
      });
      expect(Date.parse(note.updatedAt)).toBeGreaterThan(Date.parse(before.updatedAt));
      expect((await list(u)).notes).toEqual([note]);
    });

    it('puts the updated note first in the list', async () => {
      const u = await t.user();
      const first = (await create(u)).note;
      await sleep(3);
      const second = (await create(u)).note;
      await sleep(3);
      await u.call(P.update, { id: first.id, ...sealedFieldsOf(noteBody()) });

      expect(ids((await list(u)).notes)).toEqual([first.id, second.id]);
    });

    it("answers NOT_FOUND to another user's note and to an unknown id, changing nothing", async () => {
      const owner = await t.user();
      const other = await t.user();
      const { note } = await create(owner);
      const fields = sealedFieldsOf(noteBody());

      const foreign = await other.fail(P.update, { id: note.id, ...fields });
      const unknown = await other.fail(P.update, { id: randomUUID(), ...fields });
      expect([foreign, unknown].map((e) => [e.code, e.message])).toEqual([
        [ErrorCode.NOT_FOUND, 'Note not found'],
        [ErrorCode.NOT_FOUND, 'Note not found'],
      ]);
      expect((await list(owner)).notes).toEqual([note]);
    });

    it('answers NOT_FOUND to a note in the trash: restore it first', async () => {
      const u = await t.user();
      const { note } = await create(u);
      await u.call(P.remove, { id: note.id });

      expect((await u.fail(P.update, { id: note.id, ...sealedFieldsOf(noteBody()) })).code).toBe(
        ErrorCode.NOT_FOUND,
      );
      await u.call(P.restore, { id: note.id });
      await u.call(P.update, { id: note.id, ...sealedFieldsOf(noteBody()) });
    });

    it('answers VALIDATION_FAILED to plaintext and PAYLOAD_TOO_LARGE to a sealed note over 1 MiB', async () => {
      const u = await t.user();
      const { note } = await create(u);
      const fields = sealedFieldsOf(noteBody());

      expect((await u.fail(P.update, { id: note.id, ...fields, content: 'plain' })).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
      const huge = `${'ab'.repeat(NOTE_MAX_BYTES / 2)}:${'0'.repeat(24)}`;
      expect((await u.fail(P.update, { id: note.id, ...fields, content: huge })).code).toBe(
        ErrorCode.PAYLOAD_TOO_LARGE,
      );
      expect((await list(u)).notes).toEqual([note]);
    });
  });

  describe('trash', () => {
    it('moves a note to the trash and back: delete, deleted list, restore', async () => {
      const u = await t.user();
      const { note } = await create(u);

      expect(await u.call(P.remove, { id: note.id })).toBeNull();
      expect((await list(u)).notes).toEqual([]);
      const trash = await u.call<DeletedNoteListResponse>(P.listDeleted);
      expect(trash.notes).toEqual([{ ...note, isDeleted: true, deletedAt: expect.stringMatching(ISO) }]);

      const restored = await u.call<NoteResponse>(P.restore, { id: note.id });
      expect(restored.note).toEqual(note);
      expect((await list(u)).notes).toEqual([note]);
      expect((await u.call<DeletedNoteListResponse>(P.listDeleted)).notes).toEqual([]);
    });

    it('changes nothing when a note already in the trash is deleted again', async () => {
      const u = await t.user();
      const { note } = await create(u);
      await u.call(P.remove, { id: note.id });
      const [before] = (await u.call<DeletedNoteListResponse>(P.listDeleted)).notes;
      await sleep(5);
      await u.call(P.remove, { id: note.id });

      expect((await u.call<DeletedNoteListResponse>(P.listDeleted)).notes).toEqual([before]);
    });

    it('answers an active note unchanged when it is restored', async () => {
      const u = await t.user();
      const { note } = await create(u);
      expect(await u.call<NoteResponse>(P.restore, { id: note.id })).toEqual({ note });
    });

    it('lists the trash most recently deleted first', async () => {
      const u = await t.user();
      const a = (await create(u)).note;
      const b = (await create(u)).note;
      const c = (await create(u)).note;
      for (const n of [b, c, a]) {
        await u.call(P.remove, { id: n.id });
        await sleep(3);
      }
      expect(ids((await u.call<DeletedNoteListResponse>(P.listDeleted)).notes)).toEqual([a.id, c.id, b.id]);
    });

    it('deletes a note of the trash for good, and refuses an active one with NOT_FOUND', async () => {
      const u = await t.user();
      const { note } = await create(u);

      expect((await u.fail(P.purge, { id: note.id })).code).toBe(ErrorCode.NOT_FOUND);
      expect(await row(note.id)).toBeDefined();

      await u.call(P.remove, { id: note.id });
      expect(await u.call(P.purge, { id: note.id })).toBeNull();
      expect(await row(note.id)).toBeUndefined();
      expect((await u.fail(P.purge, { id: note.id })).code).toBe(ErrorCode.NOT_FOUND);
      expect((await u.fail(P.restore, { id: note.id })).code).toBe(ErrorCode.NOT_FOUND);
    });

    it('empties only the caller’s trash and answers how many notes went', async () => {
      const u = await t.user();
      const other = await t.user();
      const keep = (await create(u)).note;
      for (let i = 0; i < 3; i += 1) {
        const { note } = await create(u);
        await u.call(P.remove, { id: note.id });
      }
      const theirs = (await create(other)).note;
      await other.call(P.remove, { id: theirs.id });

      expect(await u.call<EmptyTrashResponse>(P.emptyTrash)).toEqual({ deleted: 3 });
      expect((await u.call<DeletedNoteListResponse>(P.listDeleted)).notes).toEqual([]);
      expect((await list(u)).notes).toEqual([keep]);
      expect(ids((await other.call<DeletedNoteListResponse>(P.listDeleted)).notes)).toEqual([theirs.id]);
      expect(await u.call<EmptyTrashResponse>(P.emptyTrash)).toEqual({ deleted: 0 });
    });
  });

  describe('counts', () => {
    it('counts the caller’s active and deleted notes, nobody else’s', async () => {
      const u = await t.user();
      const other = await t.user();
      expect(await u.call<NoteCountsResponse>(P.counts)).toEqual({ active: 0, deleted: 0 });
      const notes = [];
      for (let i = 0; i < 5; i += 1) notes.push((await create(u)).note);
      await create(other);
      await u.call(P.remove, { id: notes[0]!.id });
      await u.call(P.remove, { id: notes[1]!.id });

      expect(await u.call<NoteCountsResponse>(P.counts)).toEqual({ active: 3, deleted: 2 });
    });
  });

  describe('owner isolation', () => {
    it("answers NOT_FOUND on every call that names another user's note, exactly as for an unknown id", async () => {
      const owner = await t.user();
      const other = await t.user();
      const active = (await create(owner)).note;
      const trashed = (await create(owner)).note;
      await owner.call(P.remove, { id: trashed.id });

      const calls: [string, unknown][] = [
        [P.update, { id: active.id, ...sealedFieldsOf(noteBody()) }],
        [P.remove, { id: active.id }],
        [P.restore, { id: trashed.id }],
        [P.purge, { id: trashed.id }],
      ];
      for (const [pattern, body] of calls) {
        const foreign = await other.fail(pattern, body);
        const unknown = await other.fail(pattern, { ...(body as object), id: randomUUID() });
        expect({ pattern, foreign: [foreign.code, foreign.message] }).toEqual({
          pattern,
          foreign: [unknown.code, unknown.message],
        });
        expect(foreign.code).toBe(ErrorCode.NOT_FOUND);
      }

      expect((await list(owner)).notes).toEqual([active]);
      expect(ids((await owner.call<DeletedNoteListResponse>(P.listDeleted)).notes)).toEqual([trashed.id]);
      expect(await other.call(P.emptyTrash)).toEqual({ deleted: 0 });
      expect(await other.call(P.counts)).toEqual({ active: 0, deleted: 0 });
      expect(await owner.call(P.counts)).toEqual({ active: 1, deleted: 1 });
    });

    it('answers VALIDATION_FAILED to an id that is no UUID v4 on the id calls', async () => {
      const u = await t.user();
      for (const pattern of [P.remove, P.restore, P.purge]) {
        expect((await u.fail(pattern, { id: '../etc' })).code).toBe(ErrorCode.VALIDATION_FAILED);
      }
    });
  });

  describe('health and logs', () => {
    it('answers its health with the database and Redis checked, its version and its memory', async () => {
      expect(await t.call(P.health, undefined)).toEqual({
        service: 'notes',
        status: 'ok',
        uptimeSeconds: expect.any(Number),
        checks: { database: 'ok', redis: 'ok' },
        version: serviceVersion('notes'),
        memory: {
          rssBytes: expect.any(Number),
          heapUsedBytes: expect.any(Number),
          heapTotalBytes: expect.any(Number),
        },
      });
      expect(serviceVersion('notes')).toMatch(/^\d+\.\d+\.\d+/);
    });

    it('never writes a sealed field to its log', async () => {
      const u = await t.user();
      const body = noteBody();
      await create(u, body);
      await u.call(P.update, { id: body.id, ...sealedFieldsOf(body) });
      await u.fail(P.create, { ...body, title: sealedValue() });
      const text = t.logs.join('');
      expect(text.length).toBeGreaterThan(0);
      for (const value of [body.title, body.content, body.tags[0]!, body.wrappedDEK]) {
        expect(text).not.toContain(value.split(':')[0]);
      }
    });
  });
});
