import type { LegacyKeyDto, NoteDto } from '@vault/contracts';
import { encryptNote, importVaultKey, isSealed, newItemId, randomBytes } from '@vault/crypto';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router-dom';
import { AppProviders, type AppServices } from '../../../app/services';
import { TEST_USER, TEST_VAULT, json, readFakeRequest } from '../../../testing/fake-server';
import { FakeRouteApi, routeOf } from '../../../testing/fake-route-api';
import { signedInServices } from '../../../testing/signed-in-services';
import { InlineNotesCrypto, type NotesCrypto } from '../../../workers/notes-crypto';
import { NotesCryptoProvider } from '../../../workers/notes-crypto-context';

/** A real vault key: a non-extractable AES-256-GCM CryptoKey, as unlocking produces. */
export function makeVaultKey(): Promise<CryptoKey> {
  return importVaultKey(randomBytes(32));
}

export interface SealOptions {
  id?: string;
  createdAt?: string;
  updatedAt?: string;
  deletedAt?: string | null;
}

/** A note sealed with the real protocol, as the API would return it. */
export async function sealNote(
  key: CryptoKey,
  plain: { title: string; content?: string; tags?: string[] },
  options: SealOptions = {},
): Promise<NoteDto> {
  const id = options.id ?? newItemId();
  const sealed = await encryptNote(key, id, {
    title: plain.title,
    content: plain.content ?? '',
    tags: plain.tags ?? [],
  });
  const createdAt = options.createdAt ?? new Date('2026-03-01T10:00:00.000Z').toISOString();
  const deletedAt = options.deletedAt ?? null;
  return {
    id,
    title: sealed.title,
    content: sealed.content,
    tags: [...sealed.tags],
    wrappedDEK: sealed.wrappedDEK,
    isEncrypted: true,
    isDeleted: deletedAt !== null,
    createdAt,
    updatedAt: options.updatedAt ?? createdAt,
    deletedAt,
  };
}

/**
 * A vault key from before an access reset, as GET /api/auth/legacy-keys lists it: with one, a note
 * whose key does not open under the current vault key is locked rather than failed.
 */
export const LEGACY_KEY: LegacyKeyDto = {
  id: '7d3c8a52-9f1e-4b6a-8c2d-5e4f3a2b1c0d',
  wrappedVaultKey: `${'ab'.repeat(48)}:${'cd'.repeat(12)}`,
  salt: TEST_VAULT.salt,
  kdfParams: TEST_VAULT.kdfParams,
  createdAt: '2026-02-01T10:00:00.000Z',
};

/** Many notes at once, newest first: note i is updated i minutes before `base`. */
export async function sealMany(
  key: CryptoKey,
  count: number,
  make: (i: number) => { title: string; content?: string; tags?: string[] } = (i) => ({ title: `Note ${i}` }),
  base = Date.parse('2026-06-01T12:00:00.000Z'),
): Promise<NoteDto[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) => {
      const at = new Date(base - i * 60_000).toISOString();
      return sealNote(key, make(i), { createdAt: at, updatedAt: at });
    }),
  );
}

interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/**
 * The notes API of the gateway, in memory, at the fetch level: keyset pages (newest updatedAt
 * first, a cursor per page), the trash, counts, idempotent create (single and batch),
 * `GET /api/auth/me` and `GET /api/auth/legacy-keys` (`legacyKeys`, none unless a test sets them).
 * Every request is recorded; `fail` scripts an error answer for a route.
 */
export class FakeNotesApi extends FakeRouteApi<FakeRequest> {
  active: NoteDto[] = [];
  deleted: NoteDto[] = [];
  legacyKeys: LegacyKeyDto[] = [];
  /** The service's stored_order: notes created here count up; the ones given at the start are 0. */
  private readonly storedOrder = new Map<string, number>();

  constructor(active: NoteDto[] = [], deleted: NoteDto[] = []) {
    super();
    this.active = [...active];
    this.deleted = [...deleted];
  }

  protected route(path: string): string {
    return routeOf(path, 'notes', NOTES_FIXED_NAMES);
  }

  /** The list's order: newest updatedAt first, then in the order stored, then id descending. */
  private sorted(): NoteDto[] {
    const stored = (n: NoteDto) => this.storedOrder.get(n.id) ?? 0;
    return [...this.active].sort(
      (a, b) =>
        Date.parse(b.updatedAt) - Date.parse(a.updatedAt) ||
        stored(a) - stored(b) ||
        (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    );
  }

  private existing(body: Record<string, unknown>): NoteDto | undefined {
    return [...this.active, ...this.deleted].find((n) => n.id === body['id']);
  }

  private insert(b: Record<string, unknown>, at: string): NoteDto {
    const note: NoteDto = {
      id: String(b['id']),
      title: String(b['title']),
      content: String(b['content']),
      tags: b['tags'] as string[],
      wrappedDEK: String(b['wrappedDEK']),
      isEncrypted: true,
      isDeleted: false,
      // An import's dates (POST /api/notes/batch), else the time of the request.
      createdAt: typeof b['createdAt'] === 'string' ? new Date(b['createdAt']).toISOString() : at,
      updatedAt: typeof b['updatedAt'] === 'string' ? new Date(b['updatedAt']).toISOString() : at,
      deletedAt: null,
    };
    this.active.push(note);
    this.storedOrder.set(note.id, this.storedOrder.size + 1);
    return note;
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const { url, method, path, body } = readFakeRequest(input, init);
    return this.dispatch({ method, path, query: url.searchParams, body });
  };

  protected handle(route: string, req: FakeRequest): Response {
    const id = req.path.split('/')[3] ?? '';
    switch (route) {
      case 'GET /api/auth/me':
        return json(200, { user: TEST_USER, vault: TEST_VAULT });
      case 'GET /api/auth/legacy-keys':
        return json(200, { keys: this.legacyKeys });
      case 'GET /api/notes/counts':
        return json(200, { active: this.active.length, deleted: this.deleted.length });
      case 'GET /api/files/counts':
        // The shell's Trash count also asks for the files (none here).
        return json(200, { active: 0, deleted: 0, bytes: 0 });
      case 'GET /api/notes': {
        const all = this.sorted();
        const limit = req.query.get('limit');
        const cursor = req.query.get('cursor');
        const start = cursor ? all.findIndex((n) => n.id === cursor) + 1 : 0;
        if (!limit) return json(200, { notes: all.slice(start), nextCursor: null });
        const page = all.slice(start, start + Number(limit));
        const more = start + page.length < all.length;
        return json(200, { notes: page, nextCursor: more ? page[page.length - 1]!.id : null });
      }
      case 'GET /api/notes/deleted':
        return json(200, {
          notes: [...this.deleted].sort(
            (a, b) => Date.parse(b.deletedAt ?? '') - Date.parse(a.deletedAt ?? ''),
          ),
        });
      case 'POST /api/notes': {
        const b = req.body as Record<string, unknown>;
        if (!isSealedBody(b)) return json(400, { error: 'Invalid encrypted title' });
        const existing = this.existing(b);
        if (existing) {
          return existing.title === b['title']
            ? json(201, { note: existing })
            : json(409, { error: 'A different note with this id already exists', code: 'CONFLICT' });
        }
        return json(201, { note: this.insert(b, this.now()) });
      }
      case 'POST /api/notes/batch': {
        // All or nothing, idempotent per note; a 409 names the taken ids.
        const notes = (req.body as { notes?: unknown }).notes;
        if (!Array.isArray(notes) || notes.length < 1 || notes.length > 100) {
          return json(400, { error: 'A batch holds 1 to 100 notes', code: 'VALIDATION_FAILED' });
        }
        const bodies = notes as Record<string, unknown>[];
        if (new Set(bodies.map((b) => b['id'])).size !== bodies.length) {
          return json(400, { error: 'Duplicate note id in batch', code: 'VALIDATION_FAILED' });
        }
        if (!bodies.every(isSealedBody)) return json(400, { error: 'Invalid encrypted title' });
        const taken = bodies.filter((b) => {
          const existing = this.existing(b);
          return existing !== undefined && existing.title !== b['title'];
        });
        if (taken.length > 0) {
          return json(409, {
            error: 'A different note with this id already exists',
            code: 'CONFLICT',
            ids: taken.map((b) => b['id']),
          });
        }
        const at = this.now();
        return json(201, { notes: bodies.map((b) => this.existing(b) ?? this.insert(b, at)) });
      }
      case 'PUT /api/notes/:id': {
        const note = this.active.find((n) => n.id === id);
        if (!note) return json(404, { error: 'Note not found' });
        Object.assign(note, req.body as object, { updatedAt: this.now() });
        return json(200, { note });
      }
      case 'DELETE /api/notes/:id': {
        const note = this.active.find((n) => n.id === id);
        if (!note) return json(404, { error: 'Note not found' });
        this.active = this.active.filter((n) => n.id !== id);
        this.deleted.push({ ...note, isDeleted: true, deletedAt: this.now() });
        return json(204);
      }
      case 'POST /api/notes/:id/restore': {
        const note = this.deleted.find((n) => n.id === id);
        if (!note) return json(404, { error: 'Note not found' });
        this.deleted = this.deleted.filter((n) => n.id !== id);
        const restored = { ...note, isDeleted: false, deletedAt: null };
        this.active.push(restored);
        return json(200, { note: restored });
      }
      case 'DELETE /api/notes/:id/permanent': {
        if (!this.deleted.some((n) => n.id === id)) return json(404, { error: 'Note not found' });
        this.deleted = this.deleted.filter((n) => n.id !== id);
        return json(204);
      }
      case 'DELETE /api/notes/trash': {
        const n = this.deleted.length;
        this.deleted = [];
        return json(200, { deleted: n });
      }
      default:
        return json(404, { error: 'Not found', code: 'NOT_FOUND' });
    }
  }
}

/** Every field of a create body is sealed (what the gateway's contract schema checks). */
function isSealedBody(b: Record<string, unknown>): boolean {
  return (
    isSealed(b['title']) &&
    isSealed(b['content']) &&
    isSealed(b['wrappedDEK']) &&
    Array.isArray(b['tags']) &&
    (b['tags'] as unknown[]).every(isSealed)
  );
}

const NOTES_FIXED_NAMES = ['counts', 'deleted', 'trash', 'batch'];

export interface RenderNotesOptions {
  path?: string;
  api?: FakeNotesApi;
  vaultKey?: CryptoKey;
  notesCrypto?: NotesCrypto;
  routes?: RouteObject[];
}

/**
 * Renders notes screens signed in and unlocked with a real vault key, over the fake notes API,
 * with the real notes crypto in-thread (jsdom has no Worker).
 */
export async function renderNotes(routes: RouteObject[], options: RenderNotesOptions = {}) {
  const api = options.api ?? new FakeNotesApi();
  const vaultKey = options.vaultKey ?? (await makeVaultKey());
  const services = await signedInServices(api.fetch as typeof fetch, vaultKey);
  const notesCrypto = options.notesCrypto ?? new InlineNotesCrypto();
  const router = createMemoryRouter(routes, { initialEntries: [options.path ?? routes[0]?.path ?? '/'] });
  const user = userEvent.setup();
  const view = render(
    <Providers services={services} notesCrypto={notesCrypto}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, api, services, router, user, vaultKey, notesCrypto };
}

function Providers({
  services,
  notesCrypto,
  children,
}: {
  services: AppServices;
  notesCrypto: NotesCrypto;
  children: ReactNode;
}) {
  return (
    <AppProviders services={services}>
      <NotesCryptoProvider service={notesCrypto}>{children}</NotesCryptoProvider>
    </AppProviders>
  );
}
