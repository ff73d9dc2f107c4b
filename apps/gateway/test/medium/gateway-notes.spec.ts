import {
  ErrorCode,
  NOTE_BATCH_MAX_BYTES,
  NOTE_MAX_BYTES,
  NOTE_MESSAGES,
  NOTES_PATTERNS,
  RawJson,
  VaultError,
  type NoteDto,
} from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { LIST_ALL_PAGE_SIZE } from '../../src/routes/notes/list-all-notes';
import { freePort, startGateway, type GatewayHarness, type InjectOptions } from './support/gateway-harness';
import { RpcStubs } from './support/rpc-stubs';
import { sealed } from './support/fixtures';
import { routeChecks, type ByIdRoute, type ProtectedRoute } from './support/routing';

/**
 * The gateway's /api/notes routes against real Redis and a stub notes service on a real TCP
 * port: what reaches the service (caller, body, params, query), what the client gets back
 * (201/204, error mapping), validation at the edge, and the paging of the whole-list call.
 * The real notes service behind the real gateway is covered by apps/e2e.
 */

const fields = () => ({ title: sealed(), content: sealed(100), tags: [sealed()], wrappedDEK: sealed(32) });
const noteDto = (id = randomUUID()): NoteDto => ({
  id,
  ...fields(),
  isEncrypted: true,
  isDeleted: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  deletedAt: null,
});

/** The patterns the stub notes service serves. */
const SERVED = [
  NOTES_PATTERNS.list,
  NOTES_PATTERNS.listDeleted,
  NOTES_PATTERNS.counts,
  NOTES_PATTERNS.create,
  NOTES_PATTERNS.createBatch,
  NOTES_PATTERNS.update,
  NOTES_PATTERNS.remove,
  NOTES_PATTERNS.restore,
  NOTES_PATTERNS.purge,
  NOTES_PATTERNS.emptyTrash,
];
const HEALTHY = { service: 'notes', status: 'ok', uptimeSeconds: 1, checks: { database: 'ok', redis: 'ok' } };
const stubs = new RpcStubs();
const { seen, answer } = stubs;

describe('gateway /api/notes (real Redis, stub notes service over TCP)', () => {
  let gw: GatewayHarness;
  let bearer: string;
  let userId: string;

  beforeAll(async () => {
    const notesPort = await freePort();
    await stubs.serve('notes', notesPort, HEALTHY, SERVED);
    gw = await startGateway({ notesPort });
    const { token, caller } = await gw.signedIn();
    bearer = token;
    userId = caller.userId;
  });

  afterAll(async () => {
    await gw?.close();
    await stubs.close();
  });

  beforeEach(() => stubs.reset());

  const inject = (opts: InjectOptions, token: string | null = bearer) => gw.inject(opts, token);
  const checks = routeChecks(stubs, inject);

  const ID = randomUUID();
  const ROUTES: ProtectedRoute[] = [
    { method: 'GET', url: '/api/notes' },
    { method: 'GET', url: '/api/notes/deleted' },
    { method: 'GET', url: '/api/notes/counts' },
    { method: 'POST', url: '/api/notes', body: { id: ID, ...fields() } },
    { method: 'POST', url: '/api/notes/batch', body: { notes: [{ id: ID, ...fields() }] } },
    { method: 'PUT', url: `/api/notes/${ID}`, body: fields() },
    { method: 'DELETE', url: `/api/notes/${ID}` },
    { method: 'POST', url: `/api/notes/${ID}/restore` },
    { method: 'DELETE', url: `/api/notes/${ID}/permanent` },
    { method: 'DELETE', url: '/api/notes/trash' },
  ];

  it.each(ROUTES)('answers 401 to $method $url without a token, and never calls the service', (route) =>
    checks.unauthenticated(route),
  );

  describe('what reaches the service', () => {
    it('creates with 201, passing the body as sent and the caller from the token', async () => {
      const body = { id: randomUUID(), ...fields() };
      const note = { ...noteDto(body.id), ...body };
      answer(NOTES_PATTERNS.create, { note });
      const res = await inject({ method: 'POST', url: '/api/notes', payload: body });

      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ note });
      expect(seen).toHaveLength(1);
      expect(seen[0]?.request.body).toEqual(body);
      expect(seen[0]?.request.ctx.auth?.userId).toBe(userId);
    });

    it('creates a batch with 201, passing the notes in order and the caller, in one call', async () => {
      const notes = Array.from({ length: 100 }, () => ({ id: randomUUID(), ...fields() }));
      const reply = { notes: notes.map((n) => ({ ...noteDto(n.id), ...n })) };
      answer(NOTES_PATTERNS.createBatch, reply);
      const res = await inject({ method: 'POST', url: '/api/notes/batch', payload: { notes } });

      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual(reply);
      expect(seen.map((s) => [s.pattern, s.request.body])).toEqual([[NOTES_PATTERNS.createBatch, { notes }]]);
      expect(seen[0]?.request.ctx.auth?.userId).toBe(userId);
    });

    it('answers a batch’s 409 with the taken ids the service names', async () => {
      const notes = [
        { id: randomUUID(), ...fields() },
        { id: randomUUID(), ...fields() },
      ];
      answer(
        NOTES_PATTERNS.createBatch,
        new VaultError(ErrorCode.CONFLICT, NOTE_MESSAGES.idTaken, { ids: [notes[1]!.id] }),
      );
      const res = await inject({ method: 'POST', url: '/api/notes/batch', payload: { notes } });

      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'CONFLICT',
        error: NOTE_MESSAGES.idTaken,
        ids: [notes[1]!.id],
      });
    });

    it('updates with the id of the path beside the re-sealed fields', async () => {
      const id = randomUUID();
      const body = fields();
      answer(NOTES_PATTERNS.update, { note: noteDto(id) });
      const res = await inject({ method: 'PUT', url: `/api/notes/${id}`, payload: body });

      expect(res.statusCode).toBe(200);
      expect(seen.map((s) => [s.pattern, s.request.body])).toEqual([
        [NOTES_PATTERNS.update, { id, ...body }],
      ]);
    });

    it.each([
      ['DELETE', '/api/notes/{id}', NOTES_PATTERNS.remove, 204, null, /^$/],
      ['POST', '/api/notes/{id}/restore', NOTES_PATTERNS.restore, 200, { note: noteDto() }, /"note"/],
      ['DELETE', '/api/notes/{id}/permanent', NOTES_PATTERNS.purge, 204, null, /^$/],
    ] as ByIdRoute[])('routes %s %s to %s and answers %i', (...route) => checks.routedById(route));

    it('routes DELETE /api/notes/trash to empty-trash, never to a delete of id "trash"', () =>
      checks.trashEmptied('/api/notes/trash', NOTES_PATTERNS.emptyTrash));

    it('answers the trash and the counts', async () => {
      answer(NOTES_PATTERNS.listDeleted, { notes: [] });
      answer(NOTES_PATTERNS.counts, { active: 3, deleted: 1 });

      expect((await inject({ method: 'GET', url: '/api/notes/deleted' })).json()).toEqual({ notes: [] });
      expect((await inject({ method: 'GET', url: '/api/notes/counts' })).json()).toEqual({
        active: 3,
        deleted: 1,
      });
    });

    it('passes limit (as a number) and cursor of a page request through in one call', async () => {
      const page = { notes: [noteDto()], nextCursor: 'next' };
      answer(NOTES_PATTERNS.list, page);
      const res = await inject({ method: 'GET', url: '/api/notes?limit=1&cursor=abc' });

      expect(res.json()).toEqual(page);
      expect(seen.map((s) => s.request.body)).toEqual([{ limit: 1, cursor: 'abc' }]);
    });

    it('answers the whole list without limit by following the service’s pages to the end', async () => {
      const notes = [noteDto(), noteDto(), noteDto(), noteDto(), noteDto()];
      answer(
        NOTES_PATTERNS.list,
        { notes: notes.slice(0, 2), nextCursor: 'c1' },
        { notes: notes.slice(2, 4), nextCursor: 'c2' },
        { notes: notes.slice(4), nextCursor: null },
      );
      const res = await inject({ method: 'GET', url: '/api/notes' });

      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ notes, nextCursor: null });
      expect(seen.map((s) => s.request.body)).toEqual([
        { limit: LIST_ALL_PAGE_SIZE },
        { limit: LIST_ALL_PAGE_SIZE, cursor: 'c1' },
        { limit: LIST_ALL_PAGE_SIZE, cursor: 'c2' },
      ]);
    });

    it('passes pages that arrive as text (RawJson) on as that very text, joined, never parsed', async () => {
      const [a, b, c] = [noteDto(), noteDto(), noteDto()];
      // Spaces JSON.stringify would not write: text that was parsed and written again loses them.
      const spaced = (notes: unknown[]) => notes.map((n) => ` ${JSON.stringify(n)} `).join(',');
      answer(
        NOTES_PATTERNS.list,
        { notes: new RawJson(`[${spaced([a, b])}]`), nextCursor: 'c1' },
        { notes: [c], nextCursor: 'c2' }, // a page as objects (a serialiser that does not know RawJson)
        { notes: new RawJson('[ ]'), nextCursor: null },
      );
      const res = await inject({ method: 'GET', url: '/api/notes' });

      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(`{"notes":[${spaced([a, b])},${JSON.stringify(c)}],"nextCursor":null}`);
      expect(res.json()).toEqual({ notes: [a, b, c], nextCursor: null });

      answer(NOTES_PATTERNS.list, { notes: new RawJson(`[${spaced([a])}]`), nextCursor: 'n' });
      const page = await inject({ method: 'GET', url: '/api/notes?limit=1' });
      expect(page.body).toBe(`{"notes":[${spaced([a])}],"nextCursor":"n"}`);
    });
  });

  describe('errors of the service', () => {
    it.each([
      [ErrorCode.NOT_FOUND, NOTE_MESSAGES.notFound, 404],
      [ErrorCode.CONFLICT, NOTE_MESSAGES.idTaken, 409],
      [ErrorCode.PAYLOAD_TOO_LARGE, NOTE_MESSAGES.tooLarge, 413],
      [ErrorCode.SESSION_REVOKED, 'Session has ended', 401],
    ])('map %s (%s) to HTTP %i with its message and code', async (code, message, status) => {
      answer(NOTES_PATTERNS.create, new VaultError(code, message));
      const res = await inject({
        method: 'POST',
        url: '/api/notes',
        payload: { id: randomUUID(), ...fields() },
      });

      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ error: message, code });
    });
  });

  describe('validation at the edge (the service is never called)', () => {
    afterEach(() => {
      expect(seen).toEqual([]);
    });

    it.each([
      ['a plaintext title', { id: randomUUID(), ...fields(), title: 'Groceries' }, 'Invalid encrypted title'],
      ['an id that is no UUID v4', { ...fields(), id: 'note-1' }, 'Invalid id'],
      ['an unknown field', { id: randomUUID(), ...fields(), isDeleted: true }, 'Unknown field: isDeleted'],
      ['a missing field', { id: randomUUID(), title: sealed() }, expect.any(String)],
    ])('answers 400 to a create with %s', async (_label, payload, message) => {
      const res = await inject({ method: 'POST', url: '/api/notes', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: message });
    });

    it.each([
      ['no notes', () => ({ notes: [] }), 'A batch holds 1 to 100 notes'],
      [
        '101 notes',
        () => ({ notes: Array.from({ length: 101 }, () => ({ id: randomUUID(), ...fields() })) }),
        'A batch holds 1 to 100 notes',
      ],
      [
        'the same id twice',
        () => {
          const id = randomUUID();
          return {
            notes: [
              { id, ...fields() },
              { id: randomUUID(), ...fields() },
              { id, ...fields() },
            ],
          };
        },
        expect.stringMatching(/^Duplicate note id in batch: [0-9a-f-]{36}$/),
      ],
      [
        'plaintext in one note',
        () => ({
          notes: [
            { id: randomUUID(), ...fields() },
            { id: randomUUID(), ...fields(), content: 'x' },
          ],
        }),
        'Invalid encrypted content',
      ],
      ['a bare note', () => ({ id: randomUUID(), ...fields() }), expect.any(String)],
    ])('answers 400 to a batch with %s', async (_label, payload, message) => {
      const res = await inject({ method: 'POST', url: '/api/notes/batch', payload: payload() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: message });
    });

    it('answers a batch the single create’s 413 for one note over 1 MiB, and 413 over the batch limit', async () => {
      const content = `${'ab'.repeat(NOTE_MAX_BYTES / 2)}:${'0'.repeat(24)}`;
      const oneTooLarge = await inject({
        method: 'POST',
        url: '/api/notes/batch',
        payload: {
          notes: [
            { id: randomUUID(), ...fields() },
            { id: randomUUID(), ...fields(), content },
          ],
        },
      });
      expect(oneTooLarge.statusCode).toBe(413);
      expect(oneTooLarge.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: NOTE_MESSAGES.tooLarge });

      const half = `${'ab'.repeat(NOTE_BATCH_MAX_BYTES / 4)}:${'0'.repeat(24)}`;
      const payload = { notes: [half, half].map((c) => ({ id: randomUUID(), ...fields(), content: c })) };
      expect(JSON.stringify(payload).length).toBeLessThan(gw.config.bodyLimitBytes);
      const together = await inject({ method: 'POST', url: '/api/notes/batch', payload });
      expect(together.statusCode).toBe(413);
      expect(together.json()).toMatchObject({
        code: 'PAYLOAD_TOO_LARGE',
        error: NOTE_MESSAGES.batchTooLarge,
        maxBytes: NOTE_BATCH_MAX_BYTES,
      });
    });

    it('answers 400 to an update that carries an id in its body', async () => {
      const id = randomUUID();
      const res = await inject({ method: 'PUT', url: `/api/notes/${id}`, payload: { id, ...fields() } });
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: 'Unknown field: id' });
    });

    it.each([
      ['PUT', '/api/notes/not-a-uuid'],
      ['DELETE', '/api/notes/NOT-A-UUID'],
      ['POST', `/api/notes/${randomUUID().toUpperCase()}/restore`],
      ['DELETE', '/api/notes/123/permanent'],
    ])('answers 400 Invalid id to %s %s', async (method, url) => {
      const res = await inject({
        method: method as 'PUT',
        url,
        ...(method === 'PUT' ? { payload: fields() } : {}),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: 'Invalid id' });
    });

    it.each([
      ['a limit of 0', '?limit=0'],
      ['a limit of 501', '?limit=501'],
      ['a limit that is no number', '?limit=ten'],
      ['an unknown parameter', '?limit=5&sort=asc'],
      ['a cursor over 200 characters', `?limit=5&cursor=${'a'.repeat(201)}`],
    ])('answers 400 to a list with %s', async (_label, query) => {
      const res = await inject({ method: 'GET', url: `/api/notes${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('answers 413 to a sealed note over 1 MiB that fits the body limit', async () => {
      const content = `${'ab'.repeat(NOTE_MAX_BYTES / 2)}:${'0'.repeat(24)}`;
      const payload = { id: randomUUID(), ...fields(), content };
      expect(JSON.stringify(payload).length).toBeLessThan(gw.config.bodyLimitBytes);
      for (const [method, url, body] of [
        ['POST', '/api/notes', payload],
        ['PUT', `/api/notes/${randomUUID()}`, { ...fields(), content }],
      ] as const) {
        const res = await inject({ method, url, payload: body });
        expect(res.statusCode).toBe(413);
        expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: NOTE_MESSAGES.tooLarge });
      }
    });

    it('answers 413 to a body over the body limit', async () => {
      const content = `${'ab'.repeat(gw.config.bodyLimitBytes / 2)}:${'0'.repeat(24)}`;
      const res = await inject({
        method: 'POST',
        url: '/api/notes',
        payload: { id: randomUUID(), ...fields(), content },
      });
      expect(res.statusCode).toBe(413);
    });
  });

  describe('health', () => {
    it('names notes ok when the notes service answers (auth and files are down here)', async () => {
      const res = await inject({ method: 'GET', url: '/api/health' }, null);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'degraded',
        services: { gateway: 'ok', redis: 'ok', auth: 'down', notes: 'ok', files: 'down' },
      });
    });
  });
});
