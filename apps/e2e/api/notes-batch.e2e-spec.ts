/**
 * POST /api/notes/batch through the gateway with the real client crypto: notes sealed on the "device" under
 * the account's vault key, created 100 at a time in one call, listed and opened again; every failure
 * leaves nothing of the batch behind.
 */
import {
  NOTE_BATCH_MAX_BYTES,
  NOTE_MAX_BYTES,
  NOTE_MESSAGES,
  sealedBatchBytes,
  sealedNoteBytes,
  type CreateNoteBatchResponse,
  type CreateNoteBody,
  type NoteResponse,
} from '@vault/contracts';
import { newItemId } from '@vault/crypto';
import { signUp, type TestAccount } from '../support/accounts';
import { errorShape, expectError, ISO_DATE } from '../support/expect';
import { ApiClient, type ApiResponse } from '../support/http';
import {
  createBody,
  listNotes,
  markedPlaintext,
  openNote,
  sealNote,
  type NotePlaintext,
} from '../support/notes';

const BATCH = '/api/notes/batch';

async function sealAll(account: TestAccount, plaintexts: NotePlaintext[]): Promise<CreateNoteBody[]> {
  return Promise.all(plaintexts.map(async (p) => createBody(await sealNote(account, p))));
}

const plaintexts = (marker: string, count: number): NotePlaintext[] =>
  Array.from({ length: count }, (_, n) => markedPlaintext(marker, n));

async function listedIds(account: TestAccount): Promise<string[]> {
  return (await listNotes(account.client)).body.notes.map((n) => n.id);
}

describe('POST /api/notes/batch', () => {
  describe('create', () => {
    let account: TestAccount;
    let sent: CreateNoteBody[];
    let first: ApiResponse<CreateNoteBatchResponse>;

    beforeAll(async () => {
      account = await signUp();
      sent = await sealAll(account, plaintexts('batch', 100));
      first = await account.client.post<CreateNoteBatchResponse>(BATCH, { notes: sent });
    });

    it('creates 100 sealed notes in one call and answers them in the order sent', () => {
      expect(first.status).toBe(201);
      expect(first.body.notes).toHaveLength(100);
      first.body.notes.forEach((note, i) => {
        expect(note).toEqual({
          ...sent[i],
          isEncrypted: true,
          isDeleted: false,
          createdAt: expect.stringMatching(ISO_DATE),
          updatedAt: note.createdAt,
          deletedAt: null,
        });
      });
    });

    it('lists every note afterwards, and each opens to exactly its plaintext', async () => {
      const list = (await listNotes(account.client)).body.notes;
      expect(list.map((n) => n.id).sort()).toEqual(sent.map((n) => n.id).sort());
      const opened = await Promise.all(list.map((n) => openNote(account, n)));
      expect(opened.map((p) => p.title).sort()).toEqual(
        plaintexts('batch', 100)
          .map((p) => p.title)
          .sort(),
      );
    });

    it('answers the same batch again with the same notes and stores nothing new', async () => {
      const again = await account.client.post<CreateNoteBatchResponse>(BATCH, { notes: sent });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(await listedIds(account)).toHaveLength(100);
      expect((await account.client.get<{ active: number }>('/api/notes/counts')).body.active).toBe(100);
    });

    it('takes notes already created one by one beside new ones, answering those as they are', async () => {
      const fresh = await signUp();
      const [single, ...rest] = await sealAll(fresh, plaintexts('mixed', 3));
      const created = await fresh.client.post<NoteResponse>('/api/notes', single);
      const res = await fresh.client.post<CreateNoteBatchResponse>(BATCH, {
        notes: [rest[0], single, rest[1]],
      });

      expect(res.status).toBe(201);
      expect(res.body.notes.map((n) => n.id)).toEqual([rest[0]!.id, single!.id, rest[1]!.id]);
      expect(res.body.notes[1]).toEqual(created.body.note);
      expect((await listedIds(fresh)).sort()).toEqual([single!.id, rest[0]!.id, rest[1]!.id].sort());
    });
  });

  describe('refusals (nothing of the batch is stored)', () => {
    let account: TestAccount;

    beforeAll(async () => {
      account = await signUp();
    });

    it('answers 400 to 101 notes and to an empty batch', async () => {
      const notes = await sealAll(account, plaintexts('too-many', 101));
      expectError(await account.client.post(BATCH, { notes }), 400, 'A batch holds 1 to 100 notes', {
        code: 'VALIDATION_FAILED',
      });
      expectError(await account.client.post(BATCH, { notes: [] }), 400, 'A batch holds 1 to 100 notes');
      expect(await listedIds(account)).toEqual([]);
    });

    it('answers 400 to the same id twice in one batch, naming it', async () => {
      const id = newItemId();
      const [a, b] = await Promise.all([
        sealNote(account, markedPlaintext('dup-a'), id),
        sealNote(account, markedPlaintext('dup-b'), id),
      ]);
      const other = createBody(await sealNote(account, markedPlaintext('dup-other')));
      expectError(
        await account.client.post(BATCH, { notes: [createBody(a), other, createBody(b)] }),
        400,
        `Duplicate note id in batch: ${id}`,
        { code: 'VALIDATION_FAILED' },
      );
      expect(await listedIds(account)).toEqual([]);
    });

    it('answers 400 with the single create’s message to plaintext in one note', async () => {
      const notes = await sealAll(account, plaintexts('plain', 3));
      notes[1] = { ...notes[1]!, content: 'plain text, not sealed' };
      expectError(await account.client.post(BATCH, { notes }), 400, 'Invalid encrypted content');
      expect(await listedIds(account)).toEqual([]);
    });

    it('answers the single create’s 413 when one note is over 1 MiB', async () => {
      const small = await sealAll(account, plaintexts('beside-large', 3));
      // Sealing doubles the size (hex): ~530 KiB of text is over 1 MiB sealed, but under the body limit.
      const large = createBody(
        await sealNote(account, { title: 'Too large', content: 'y'.repeat(530 * 1024), tags: [] }),
      );
      expect(sealedNoteBytes(large)).toBeGreaterThan(NOTE_MAX_BYTES);

      const res = await account.client.post(BATCH, { notes: [small[0], large, small[1], small[2]] });
      expectError(res, 413, NOTE_MESSAGES.tooLarge, { code: 'PAYLOAD_TOO_LARGE', maxBytes: NOTE_MAX_BYTES });
      expect(errorShape(res)).toEqual(errorShape(await account.client.post('/api/notes', large)));
      expect(await listedIds(account)).toEqual([]);
    });

    it('answers 413 when the notes together are over the batch limit', async () => {
      const notes = await sealAll(account, [
        { title: 'Half a', content: 'a'.repeat(265 * 1024), tags: [] },
        { title: 'Half b', content: 'b'.repeat(265 * 1024), tags: [] },
      ]);
      expect(notes.every((n) => sealedNoteBytes(n) <= NOTE_MAX_BYTES)).toBe(true);
      expect(sealedBatchBytes(notes)).toBeGreaterThan(NOTE_BATCH_MAX_BYTES);

      expectError(await account.client.post(BATCH, { notes }), 413, NOTE_MESSAGES.batchTooLarge, {
        code: 'PAYLOAD_TOO_LARGE',
        maxBytes: NOTE_BATCH_MAX_BYTES,
      });
      expect(await listedIds(account)).toEqual([]);
    });

    it('answers 409 like the single create to an id that holds a different note, naming it', async () => {
      const id = newItemId();
      const kept = createBody(await sealNote(account, markedPlaintext('kept'), id));
      const clash = createBody(await sealNote(account, markedPlaintext('clash'), id));
      expect((await account.client.post('/api/notes', kept)).status).toBe(201);
      const others = await sealAll(account, plaintexts('beside-clash', 2));

      const res = await account.client.post(BATCH, { notes: [others[0], clash, others[1]] });
      expectError(res, 409, NOTE_MESSAGES.idTaken, { code: 'CONFLICT', ids: [id] });
      expect(errorShape(res)).toEqual(errorShape(await account.client.post('/api/notes', clash)));
      const list = (await listNotes(account.client)).body.notes;
      expect(list.map((n) => n.id)).toEqual([id]);
      expect(await openNote(account, list[0]!)).toEqual(markedPlaintext('kept'));
    });

    it("answers another user's id exactly as the single create does, and leaves both vaults as they were", async () => {
      const owner = await signUp();
      const intruder = await signUp();
      const [ownersNote] = await sealAll(owner, [markedPlaintext('owned')]);
      const created = await owner.client.post<CreateNoteBatchResponse>(BATCH, { notes: [ownersNote] });
      expect(created.status).toBe(201);
      const [own] = await sealAll(intruder, [markedPlaintext('intruder')]);

      const res = await intruder.client.post(BATCH, { notes: [own, ownersNote] });
      const single = await intruder.client.post('/api/notes', ownersNote);
      expect(errorShape(res)).toEqual(errorShape(single));
      expect(errorShape(res)).toEqual({ status: 409, error: NOTE_MESSAGES.idTaken, code: 'CONFLICT' });
      expect((res.body as { ids?: unknown }).ids).toEqual([ownersNote!.id]);
      expect(await listedIds(intruder)).toEqual([]);
      expect((await listNotes(owner.client)).body.notes).toEqual(created.body.notes);
    });

    it('answers 401 without a token', async () => {
      const anonymous = new ApiClient('anonymous');
      const notes = await sealAll(account, plaintexts('anonymous', 2));
      const res = await anonymous.post(BATCH, { notes });
      expect({ status: res.status, code: (res.body as { code?: unknown }).code }).toEqual({
        status: 401,
        code: 'UNAUTHENTICATED',
      });
      const listed = await listedIds(account);
      expect(notes.filter((n) => listed.includes(n.id))).toEqual([]);
    });
  });

  describe('dates and order (imports keep what the backup says)', () => {
    /** A note of a backup: sealed, with the dates of the file (ISO, to the millisecond). */
    type Dated = CreateNoteBody & { createdAt?: string; updatedAt?: string };
    const day = (n: number, ms = 0) => new Date(Date.UTC(2021, 0, 1 + n, 9, 30, 0, ms)).toISOString();

    async function dated(
      account: TestAccount,
      marker: string,
      dates: Array<[string, string]>,
    ): Promise<Dated[]> {
      const sealed = await sealAll(account, plaintexts(marker, dates.length));
      return sealed.map((note, i) => ({ ...note, createdAt: dates[i]![0], updatedAt: dates[i]![1] }));
    }

    /** Ids ascending in reverse, so that the file's order is not the order the ids would give. */
    const againstIdOrder = (notes: Dated[]): Dated[] => {
      const ids = notes.map((n) => n.id).sort();
      return notes.map((n, i) => ({ ...n, id: ids[i]! }));
    };

    it('stores createdAt and updatedAt as sent, and answers and lists them exactly', async () => {
      const account = await signUp();
      const notes = await dated(account, 'dated', [
        [day(0, 123), day(40, 456)],
        ['2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z'],
        [day(3), day(3)],
      ]);
      const res = await account.client.post<CreateNoteBatchResponse>(BATCH, { notes });
      expect(res.status).toBe(201);
      expect(res.body.notes.map((n) => [n.id, n.createdAt, n.updatedAt])).toEqual(
        notes.map((n) => [n.id, n.createdAt, n.updatedAt]),
      );
      const listed = (await listNotes(account.client)).body.notes;
      expect(listed.map((n) => [n.id, n.createdAt, n.updatedAt])).toEqual(
        [notes[0]!, notes[2]!, notes[1]!].map((n) => [n.id, n.createdAt, n.updatedAt]),
      );
    });

    it('lists a backup in its own order: newest first, and notes with equal dates as the file has them, across batches and pages', async () => {
      const account = await signUp();
      // A file as an export writes it (newest updatedAt first), with runs of equal dates whose ids
      // ascend, one of them across the boundary of the two batches.
      const newer = await dated(account, 'order-a', [
        [day(1), day(9)],
        [day(1), day(8)],
        [day(2), day(7)],
        [day(2), day(7)],
        [day(2), day(7)],
      ]);
      const older = await dated(account, 'order-b', [
        [day(2), day(7)],
        [day(2), day(7)],
        [day(0), day(5)],
        [day(0), day(5)],
        [day(0), day(1)],
      ]);
      const file = againstIdOrder([...newer, ...older]);
      for (const batch of [file.slice(0, 5), file.slice(5)]) {
        expect((await account.client.post(BATCH, { notes: batch })).status).toBe(201);
      }

      expect(await listedIds(account)).toEqual(file.map((n) => n.id));
      // The same order page by page (the list cursor keeps ties in place).
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = (await listNotes(account.client, query)).body;
        paged.push(...page.notes.map((n) => n.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      expect(paged).toEqual(file.map((n) => n.id));
    });

    it('keeps the order of a batch whose notes all have the same dates', async () => {
      const account = await signUp();
      const file = againstIdOrder(
        await dated(
          account,
          'same',
          Array.from({ length: 12 }, () => [day(4), day(6)]),
        ),
      );
      expect((await account.client.post(BATCH, { notes: file })).status).toBe(201);
      expect(await listedIds(account)).toEqual(file.map((n) => n.id));
    });

    it('takes dates up to five minutes ahead of the server (clock skew) and back to 2000-01-01', async () => {
      const account = await signUp();
      const ahead = new Date(Date.now() + 4 * 60_000).toISOString();
      const notes = await dated(account, 'bounds-ok', [
        [day(0), ahead],
        ['2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z'],
      ]);
      const res = await account.client.post<CreateNoteBatchResponse>(BATCH, { notes });
      expect(res.status).toBe(201);
      expect(res.body.notes.map((n) => n.updatedAt)).toEqual([ahead, '2000-01-01T00:00:00.000Z']);
    });

    it('stores a batch without dates at the time of the request, as before', async () => {
      const account = await signUp();
      const before = Date.now();
      const [note] = await sealAll(account, plaintexts('undated', 1));
      const res = await account.client.post<CreateNoteBatchResponse>(BATCH, { notes: [note] });
      expect(res.status).toBe(201);
      const at = Date.parse(res.body.notes[0]!.createdAt);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    });

    describe('refusals (400, nothing of the batch stored)', () => {
      let account: TestAccount;
      beforeAll(async () => {
        account = await signUp();
      });

      const refused = async (
        dates: Partial<Record<'createdAt' | 'updatedAt', unknown>>,
        message: (id: string) => string,
      ) => {
        const [ok, bad] = await sealAll(account, plaintexts('refused', 2));
        const body = {
          notes: [
            { ...ok, createdAt: day(1), updatedAt: day(2) },
            { ...bad, ...dates },
          ],
        };
        expectError(await account.client.post(BATCH, body), 400, message(bad!.id), {
          code: 'VALIDATION_FAILED',
        });
        expect(await listedIds(account)).toEqual([]);
      };

      it('a date more than five minutes in the future', async () => {
        const future = new Date(Date.now() + 10 * 60_000).toISOString();
        await refused(
          { createdAt: day(1), updatedAt: future },
          (id) => `Note ${id}: updatedAt must not be in the future`,
        );
        await refused(
          { createdAt: future, updatedAt: future },
          (id) => `Note ${id}: createdAt must not be in the future`,
        );
      });

      it('a date before 2000-01-01', async () => {
        await refused(
          { createdAt: '1999-12-31T23:59:59.999Z', updatedAt: day(1) },
          (id) => `Note ${id}: createdAt must not be before 2000-01-01`,
        );
        await refused(
          { createdAt: '1970-01-01T00:00:00.000Z', updatedAt: '1970-01-01T00:00:00.000Z' },
          (id) => `Note ${id}: createdAt must not be before 2000-01-01`,
        );
      });

      it('createdAt after updatedAt', async () => {
        await refused(
          { createdAt: day(3), updatedAt: day(2) },
          (id) => `Note ${id}: createdAt must not be after updatedAt`,
        );
      });

      it('only one of the two dates', async () => {
        await refused(
          { updatedAt: day(2) },
          (id) => `Note ${id}: createdAt and updatedAt must be given together`,
        );
        await refused(
          { createdAt: day(2) },
          (id) => `Note ${id}: createdAt and updatedAt must be given together`,
        );
      });

      it('a date that is not an ISO 8601 date and time', async () => {
        const message = () => 'createdAt must be an ISO 8601 date and time, e.g. 2024-05-01T12:00:00.000Z';
        await refused({ createdAt: '2021-01-05', updatedAt: day(6) }, message);
        await refused({ createdAt: 'yesterday', updatedAt: day(6) }, message);
        await refused({ createdAt: 1609459200000, updatedAt: day(6) }, message);
        await refused(
          { createdAt: day(1), updatedAt: '2021-02-30T00:00:00.000Z' },
          () => 'updatedAt must be an ISO 8601 date and time, e.g. 2024-05-01T12:00:00.000Z',
        );
      });
    });
  });

  describe('what it saves', () => {
    // 300 by default to keep the suite quick; VAULT_E2E_BATCH_COMPARE_NOTES=1000 for the README's figure.
    const COUNT = Number(process.env['VAULT_E2E_BATCH_COMPARE_NOTES'] ?? 300);

    it(`creates ${COUNT} notes in batches of 100 much faster than as single creates`, async () => {
      const account = await signUp();
      const singles = await sealAll(account, plaintexts('single', COUNT));
      const batched = await sealAll(account, plaintexts('batched', COUNT));

      // The import before batches: one POST /api/notes per note, 4 in flight.
      let t0 = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < singles.length) {
            const note = singles[next++]!;
            const res = await account.client.post('/api/notes', note);
            if (res.status !== 201) throw new Error(`single create: ${res.status} ${res.text}`);
          }
        }),
      );
      const singleMs = performance.now() - t0;

      t0 = performance.now();
      for (let i = 0; i < batched.length; i += 100) {
        const res = await account.client.post(BATCH, { notes: batched.slice(i, i + 100) });
        if (res.status !== 201) throw new Error(`batch: ${res.status} ${res.text}`);
      }
      const batchMs = performance.now() - t0;

      process.stdout.write(
        `\n  ${COUNT} notes: ${COUNT} single creates (4 in flight) ${singleMs.toFixed(0)} ms; ` +
          `${Math.ceil(COUNT / 100)} batches of up to 100 ${batchMs.toFixed(0)} ms (×${(singleMs / batchMs).toFixed(1)})\n`,
      );
      expect(await listedIds(account)).toHaveLength(2 * COUNT);
      expect(batchMs).toBeLessThan(singleMs);
    }, 180_000);
  });
});
