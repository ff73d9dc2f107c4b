/**
 * /api/notes through the gateway with the real client crypto: notes are sealed on the "device" under the
 * account's vault key, and what comes back must open to exactly what was typed.
 */
import {
  NOTE_MAX_BYTES,
  sealedNoteBytes,
  type NoteCountsResponse,
  type NoteDto,
  type NoteListResponse,
  type NoteResponse,
} from '@vault/contracts';
import { newItemId } from '@vault/crypto';
import { randomBytes } from 'node:crypto';
import { signUp, type TestAccount } from '../support/accounts';
import { errorShape, expectError, ISO_DATE } from '../support/expect';
import { ApiClient } from '../support/http';
import {
  createBody,
  createNote,
  listNotes,
  markedPlaintext,
  openNote,
  resealNote,
  sealNote,
  updateBody,
} from '../support/notes';

/**
 * The list's order as far as answers show it: updatedAt descending. Notes of the same updatedAt
 * come in the order they were stored (notes-batch.e2e-spec.ts proves that order where a client
 * knows it), which ten concurrent creates in one millisecond do not tell: the list is checked to be
 * in this order and to hold every note once, and the pages to walk the very same list.
 */
function expectListOrder(listed: NoteDto[], notes: NoteDto[]): void {
  expect(listed.map((n) => n.id).sort()).toEqual(notes.map((n) => n.id).sort());
  listed.slice(1).forEach((n, i) => expect(n.updatedAt <= listed[i]!.updatedAt).toBe(true));
}

describe('/api/notes', () => {
  let account: TestAccount;

  beforeAll(async () => {
    account = await signUp();
  });

  describe('create, list, update', () => {
    it('stores a note sealed on the device and lists it back; it opens to exactly the plaintext', async () => {
      const plaintext = markedPlaintext(randomBytes(4).toString('hex'));
      const sealed = await sealNote(account, plaintext);

      const res = await account.client.post<NoteResponse>('/api/notes', createBody(sealed));
      expect(res.status).toBe(201);
      expect(res.body.note).toEqual({
        ...createBody(sealed),
        isEncrypted: true,
        isDeleted: false,
        createdAt: expect.stringMatching(ISO_DATE),
        updatedAt: res.body.note.createdAt,
        deletedAt: null,
      });

      const list = await listNotes(account.client);
      expect(list.status).toBe(200);
      expect(list.body.nextCursor).toBeNull();
      const listed = list.body.notes.find((n) => n.id === sealed.id);
      expect(listed).toEqual(res.body.note);
      expect(await openNote(account, listed!)).toEqual(plaintext);
    });

    it('updates a note with every field re-sealed under the same key; the list shows it first', async () => {
      const { note } = await createNote(account, markedPlaintext('before'));
      await createNote(account, markedPlaintext('newer'));
      const changed = { title: 'Renamed', content: 'Rewritten ✍️', tags: ['edited'] };
      const resealed = await resealNote(account, note, changed);

      const res = await account.client.put<NoteResponse>(`/api/notes/${note.id}`, updateBody(resealed));
      expect(res.status).toBe(200);
      expect(res.body.note).toMatchObject({
        id: note.id,
        wrappedDEK: note.wrappedDEK,
        createdAt: note.createdAt,
      });
      expect(res.body.note.title).not.toBe(note.title);
      expect(Date.parse(res.body.note.updatedAt)).toBeGreaterThanOrEqual(Date.parse(note.updatedAt));

      const list = (await listNotes(account.client)).body.notes;
      expect(list[0]?.id).toBe(note.id);
      expect(await openNote(account, list[0]!)).toEqual(changed);
    });

    it('answers 404 to an update of an id that does not exist', async () => {
      const sealed = await sealNote(account, markedPlaintext('ghost'));
      expectError(
        await account.client.put(`/api/notes/${sealed.id}`, updateBody(sealed)),
        404,
        'Note not found',
        {
          code: 'NOT_FOUND',
        },
      );
    });

    it('answers GET /api/notes/counts with the active and deleted notes of the caller', async () => {
      const fresh = await signUp();
      await createNote(fresh, markedPlaintext('c1'));
      const { note } = await createNote(fresh, markedPlaintext('c2'));
      expect((await fresh.client.delete(`/api/notes/${note.id}`)).status).toBe(204);

      const res = await fresh.client.get<NoteCountsResponse>('/api/notes/counts');
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { active: 1, deleted: 1 },
      });
    });
  });

  describe('idempotent create', () => {
    it('answers a retry of the same request (same id, same body) with the same note, and stores it once', async () => {
      const fresh = await signUp();
      const sealed = await sealNote(fresh, markedPlaintext('retry'));
      const first = await fresh.client.post<NoteResponse>('/api/notes', createBody(sealed));
      const retry = await fresh.client.post<NoteResponse>('/api/notes', createBody(sealed));

      expect([first.status, retry.status]).toEqual([201, 201]);
      expect(retry.body).toEqual(first.body);
      expect((await listNotes(fresh.client)).body.notes.map((n) => n.id)).toEqual([sealed.id]);
    });

    it('answers 409 to the same id with a different body, and keeps the first note', async () => {
      const fresh = await signUp();
      const id = newItemId();
      const first = await sealNote(fresh, markedPlaintext('one'), id);
      const other = await sealNote(fresh, markedPlaintext('two'), id);
      expect((await fresh.client.post('/api/notes', createBody(first))).status).toBe(201);

      expectError(await fresh.client.post('/api/notes', createBody(other)), 409, /id already exists/, {
        code: 'CONFLICT',
      });
      const [kept] = (await listNotes(fresh.client)).body.notes;
      expect(await openNote(fresh, kept!)).toEqual(markedPlaintext('one'));
    });
  });

  describe('pagination', () => {
    const COUNT = 120;
    let pager: TestAccount;
    let created: NoteDto[];

    beforeAll(async () => {
      pager = await signUp();
      created = [];
      for (let batch = 0; batch < COUNT / 10; batch += 1) {
        const notes = await Promise.all(
          Array.from({ length: 10 }, (_, i) => createNote(pager, markedPlaintext('page', batch * 10 + i))),
        );
        created.push(...notes.map((n) => n.note));
      }
    });

    it('walks 120 notes with limit and cursor: every note once, newest updatedAt first, as the whole list has them', async () => {
      const pages: NoteDto[][] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const res = await listNotes(pager.client, query);
        expect(res.status).toBe(200);
        pages.push(res.body.notes);
        cursor = res.body.nextCursor;
      } while (cursor !== null && pages.length < 10);

      expect(pages.map((p) => p.length)).toEqual([25, 25, 25, 25, 20]);
      const walked = pages.flat();
      expectListOrder(walked, created);
      expect(walked).toEqual((await listNotes(pager.client)).body.notes);
      const opened = await Promise.all(walked.map((n) => openNote(pager, n)));
      expect(opened.map((p) => p.title).sort()).toEqual(
        Array.from({ length: COUNT }, (_, n) => markedPlaintext('page', n).title).sort(),
      );
    });

    it('answers all 120 notes without a limit, in the same order, with nextCursor null', async () => {
      const res = await listNotes(pager.client);
      expect(res.body.nextCursor).toBeNull();
      expectListOrder(res.body.notes, created);
    });

    it('answers 400 to a garbled cursor and to a limit outside 1..500', async () => {
      expectError(await listNotes(pager.client, '?limit=10&cursor=garbled!'), 400, 'Invalid cursor');
      expect((await listNotes(pager.client, '?limit=0')).status).toBe(400);
      expect((await listNotes(pager.client, '?limit=501')).status).toBe(400);
      expect((await listNotes(pager.client, '?limit=10&order=asc')).status).toBe(400);
    });
  });

  describe('validation and limits', () => {
    it.each([
      ['title', 'Invalid encrypted title'],
      ['content', 'Invalid encrypted content'],
      ['tags', 'Invalid encrypted tags'],
      ['wrappedDEK', 'Invalid wrapped note key'],
    ])('answers 400 when the %s field carries plaintext', async (field, message) => {
      const body: Record<string, unknown> = createBody(await sealNote(account, markedPlaintext('plain')));
      body[field] = field === 'tags' ? ['work'] : 'plain text, not sealed';
      expectError(await account.client.post('/api/notes', body), 400, message, { code: 'VALIDATION_FAILED' });
      expect(
        (await account.client.get<NoteListResponse>('/api/notes')).body.notes.map((n) => n.id),
      ).not.toContain(body['id']);
    });

    it('answers 400 to a note id that is not a UUID v4, in the body and in the path', async () => {
      const body = { ...createBody(await sealNote(account, markedPlaintext('id'))), id: 'my-note' };
      expectError(await account.client.post('/api/notes', body), 400, 'Invalid id');
      expectError(await account.client.delete('/api/notes/my-note'), 400, 'Invalid id');
    });

    it('stores a large note (a few hundred KiB) and answers 413 to a sealed note over 1 MiB', async () => {
      const large = { title: 'Large', content: 'x'.repeat(400 * 1024), tags: [] };
      const { note } = await createNote(account, large);
      expect(await openNote(account, note)).toEqual(large);

      // Sealing doubles the size (hex): ~530 KiB of text is over 1 MiB sealed, but under the body limit.
      const tooLarge = await sealNote(account, {
        title: 'Too large',
        content: 'y'.repeat(530 * 1024),
        tags: [],
      });
      expect(sealedNoteBytes(createBody(tooLarge))).toBeGreaterThan(NOTE_MAX_BYTES);
      expectError(await account.client.post('/api/notes', createBody(tooLarge)), 413, /too large/i, {
        code: 'PAYLOAD_TOO_LARGE',
      });
      expectError(await account.client.put(`/api/notes/${note.id}`, updateBody(tooLarge)), 413, /too large/i);

      const huge = await sealNote(account, { title: 'Huge', content: 'z'.repeat(800 * 1024), tags: [] });
      expectError(await account.client.post('/api/notes', createBody(huge)), 413, /too large/i, {
        code: 'PAYLOAD_TOO_LARGE',
      });
    });

    it('answers 401 without a token on every notes route', async () => {
      const anonymous = new ApiClient('anonymous');
      const id = newItemId();
      const calls = [
        anonymous.get('/api/notes'),
        anonymous.get('/api/notes/deleted'),
        anonymous.get('/api/notes/counts'),
        anonymous.post('/api/notes', {}),
        anonymous.post('/api/notes/batch', {}),
        anonymous.put(`/api/notes/${id}`, {}),
        anonymous.delete(`/api/notes/${id}`),
        anonymous.post(`/api/notes/${id}/restore`),
        anonymous.delete(`/api/notes/${id}/permanent`),
        anonymous.delete('/api/notes/trash'),
      ];
      expect((await Promise.all(calls)).map((r) => r.status)).toEqual(Array(calls.length).fill(401));
    });
  });

  describe('platform', () => {
    it("names notes among the services /api/health checked, and it is 'ok'", async () => {
      const res = await new ApiClient('health').get<{ status: string; services: Record<string, string> }>(
        '/api/health',
      );
      expect({ status: res.status, notes: res.body.services['notes'] }).toEqual({ status: 200, notes: 'ok' });
    });

    it('describes every notes operation in the OpenAPI document', async () => {
      const res = await new ApiClient('docs').get<{ paths: Record<string, Record<string, unknown>> }>(
        '/api/docs/openapi.json',
      );
      const operations: [string, string][] = [
        ['/api/notes', 'get'],
        ['/api/notes', 'post'],
        ['/api/notes/batch', 'post'],
        ['/api/notes/deleted', 'get'],
        ['/api/notes/counts', 'get'],
        ['/api/notes/{id}', 'put'],
        ['/api/notes/{id}', 'delete'],
        ['/api/notes/{id}/restore', 'post'],
        ['/api/notes/{id}/permanent', 'delete'],
        ['/api/notes/trash', 'delete'],
      ];
      expect(operations.filter(([path, method]) => res.body.paths[path]?.[method] !== undefined)).toEqual(
        operations,
      );
    });
  });

  describe('another user', () => {
    it("cannot see, change, delete, restore or purge a user's notes: 404 exactly as for an unknown id", async () => {
      const owner = await signUp();
      const intruder = await signUp();
      const { note: active, sealed } = await createNote(owner, markedPlaintext('mine'));
      const { note: trashed } = await createNote(owner, markedPlaintext('trashed'));
      expect((await owner.client.delete(`/api/notes/${trashed.id}`)).status).toBe(204);
      const forged = updateBody(await sealNote(intruder, markedPlaintext('theirs'), active.id));

      const unknown = newItemId();
      for (const [what, res, same] of [
        [
          'update',
          await intruder.client.put(`/api/notes/${active.id}`, forged),
          await intruder.client.put(`/api/notes/${unknown}`, forged),
        ],
        [
          'delete',
          await intruder.client.delete(`/api/notes/${active.id}`),
          await intruder.client.delete(`/api/notes/${unknown}`),
        ],
        [
          'restore',
          await intruder.client.post(`/api/notes/${trashed.id}/restore`),
          await intruder.client.post(`/api/notes/${unknown}/restore`),
        ],
        [
          'purge',
          await intruder.client.delete(`/api/notes/${trashed.id}/permanent`),
          await intruder.client.delete(`/api/notes/${unknown}/permanent`),
        ],
      ] as const) {
        expect({ what, ...errorShape(res) }).toEqual({ what, ...errorShape(same) });
        expect({ what, ...errorShape(res) }).toEqual({
          what,
          status: 404,
          error: 'Note not found',
          code: 'NOT_FOUND',
        });
      }

      // Creating under the owner's id is refused, and nothing of the owner's leaks into the intruder's lists.
      expect((await intruder.client.post('/api/notes', createBody(sealed))).status).toBe(409);
      expect((await listNotes(intruder.client)).body.notes).toEqual([]);
      expect((await intruder.client.get<{ notes: NoteDto[] }>('/api/notes/deleted')).body.notes).toEqual([]);
      expect((await intruder.client.delete('/api/notes/trash')).body).toEqual({ deleted: 0 });

      // The owner's notes are untouched.
      const ownerList = (await listNotes(owner.client)).body.notes;
      expect(ownerList).toEqual([active]);
      expect(await openNote(owner, ownerList[0]!)).toEqual(markedPlaintext('mine'));
      const ownerTrash = (await owner.client.get<{ notes: NoteDto[] }>('/api/notes/deleted')).body.notes;
      expect(ownerTrash.map((n) => n.id)).toEqual([trashed.id]);
    });
  });
});
