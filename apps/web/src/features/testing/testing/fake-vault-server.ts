import { ApiClient } from '../../../lib/api-client';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config';
import type { CryptoService } from '../../../workers/crypto-service';
import type { TestingContext } from '../model/context';
import { fakeFilesCrypto, fakeFilesDownloadCrypto, fakeNotesCrypto, unhex } from './fake-sealing';

/**
 * A stand-in for the gateway for the api, e2e and security suites' tests: answers shaped by the
 * contract schemas, an in-memory vault, the gateway's headers, and a log of every request.
 */
export interface FakeRequest {
  method: string;
  path: string;
  at: number;
}

const NOW = '2026-11-26T10:00:00.000Z';
const HEADERS = {
  'content-security-policy': "default-src 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

export class FakeVaultServer {
  readonly requests: FakeRequest[] = [];
  notes = new Map<string, Record<string, unknown>>();
  files = new Map<string, Record<string, unknown>>();
  blobs = new Map<string, Uint8Array<ArrayBuffer>>();
  /** Answers `status` for every /api/notes route (a stopped notes service). */
  notesDown: number | null = null;
  /** Server clock offset against the test's clock (ms). */
  clockOffsetMs = 0;
  /** Called on each request (a test presses Stop from here). */
  onRequest?: (req: FakeRequest) => void;
  leakCanary = false;

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'https://vault.test/');
    const method = init?.method ?? 'GET';
    const req = { method, path: url.pathname + url.search, at: this.requests.length };
    this.requests.push(req);
    this.onRequest?.(req);
    if (init?.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    const token = new Headers(init?.headers).get('authorization');
    return this.answer(method, url, token, init?.body);
  };

  private json(status: number, body?: unknown, api = true): Response {
    const headers: Record<string, string> = {
      ...HEADERS,
      date: new Date(Date.now() + this.clockOffsetMs).toUTCString(),
    };
    if (api) headers['cache-control'] = 'no-store';
    if (body === undefined) return new Response(null, { status, headers });
    headers['content-type'] = 'application/json';
    return new Response(JSON.stringify(body), { status, headers });
  }

  private error(status: number, code: string, error: string): Response {
    return this.json(status, { error, code });
  }

  private async answer(
    method: string,
    url: URL,
    token: string | null,
    body: BodyInit | null | undefined,
  ): Promise<Response> {
    const p = url.pathname;
    if (p === '/') return this.json(200, {}, false);
    if (p.startsWith('/blob/')) return this.blob(method, p, body);
    if (p === '/api/health')
      return this.json(this.notesDown ? 503 : 200, {
        status: this.notesDown ? 'degraded' : 'ok',
        services: { gateway: 'ok', notes: this.notesDown ? 'down' : 'ok' },
      });
    if (p === '/api/about')
      return this.json(200, { version: '0.1.0', commit: null, builtAt: null, environment: 'test' });
    if (p === '/api/auth/refresh') return this.json(200, { access: 'token' });
    if (!token) return this.error(401, 'UNAUTHENTICATED', 'Authentication required');
    const read = async () => JSON.parse(typeof body === 'string' ? body : '{}') as Record<string, unknown>;
    if (p.startsWith('/api/notes')) {
      if (this.notesDown) return this.error(this.notesDown, 'SERVICE_UNAVAILABLE', 'Service unavailable');
      return this.notesRoute(method, p, url, read);
    }
    if (p.startsWith('/api/files')) return this.filesRoute(method, p, read);
    switch (p) {
      case '/api/auth/me':
        return this.json(200, {
          user: {
            id: 'u1',
            email: 'a@b.c',
            username: 'a',
            role: 'user',
            permissions: [],
            twoFactorEnabled: false,
            createdAt: NOW,
          },
          vault: {
            salt: 'aa',
            kdfParams: { kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
            wrappedVaultKey: 'w',
          },
        });
      case '/api/auth/sessions':
        return this.json(200, { sessions: [] });
      case '/api/auth/settings':
        return this.json(200, { malwareFingerprintCheck: false });
      case '/api/auth/security-events':
        return this.json(200, {
          events: [
            {
              id: 'e1',
              eventType: 'signup',
              ipAddress: '::1',
              userAgent: 'x',
              timestamp: NOW,
              details: { recoveryKey: true },
            },
          ],
          nextCursor: null,
        });
    }
    return this.error(404, 'NOT_FOUND', 'Not found');
  }

  private notesRoute(
    method: string,
    p: string,
    url: URL,
    read: () => Promise<Record<string, unknown>>,
  ): Promise<Response> | Response {
    const counts = () => {
      const all = [...this.notes.values()];
      return {
        active: all.filter((n) => !n['isDeleted']).length,
        deleted: all.filter((n) => n['isDeleted']).length,
      };
    };
    if (p === '/api/notes/counts') return this.json(200, counts());
    if (p === '/api/notes' && method === 'GET') {
      if (!/^\d+$/.test(url.searchParams.get('limit') ?? '1'))
        return this.error(400, 'VALIDATION_FAILED', 'Invalid limit');
      const active = [...this.notes.values()].filter((n) => !n['isDeleted']).reverse();
      return this.json(200, {
        notes: active.slice(0, Number(url.searchParams.get('limit') ?? 100)),
        nextCursor: null,
      });
    }
    if (p === '/api/notes' && method === 'POST') {
      return read().then((b) => {
        const note: Record<string, unknown> = {
          ...b,
          isEncrypted: true,
          isDeleted: false,
          createdAt: NOW,
          updatedAt: NOW,
          deletedAt: null,
        };
        if (this.leakCanary) note['tags'] = [unhex(String((b['tags'] as string[])[0]))];
        this.notes.set(String(b['id']), note);
        return this.json(201, { note });
      });
    }
    const m = /^\/api\/notes\/([^/]+)(\/permanent|\/key|\/restore)?$/.exec(p);
    const note = m ? this.notes.get(m[1]!) : undefined;
    if (!m || !note) return this.error(404, 'NOT_FOUND', 'Note not found');
    if (method === 'DELETE' && !m[2]) note['isDeleted'] = true;
    else if (method === 'DELETE' && m[2] === '/permanent') {
      if (!note['isDeleted']) return this.error(404, 'NOT_FOUND', 'Note not found');
      this.notes.delete(m[1]!);
    } else if (m[2] === '/key') return this.json(204);
    else return this.json(200, { note });
    return this.json(204);
  }

  private filesRoute(
    method: string,
    p: string,
    read: () => Promise<Record<string, unknown>>,
  ): Promise<Response> | Response {
    const all = () => [...this.files.values()];
    if (p === '/api/files/counts') {
      const bytes = all().reduce((s, f) => s + Number(f['size']), 0);
      return this.json(200, {
        active: all().filter((f) => !f['deletedAt']).length,
        deleted: all().filter((f) => f['deletedAt']).length,
        bytes,
      });
    }
    if (p === '/api/files') return this.json(200, { files: all().filter((f) => !f['deletedAt']) });
    if (p === '/api/files/storage-types') {
      return this.json(200, {
        types: [{ type: 'local', label: 'Local' }],
        kinds: [{ type: 'local', label: 'Local', configured: true, enableWith: [] }],
        default: 'local',
      });
    }
    if (p === '/api/files/upload-url') {
      return read().then((b) => {
        const id = String(b['fileId']);
        this.files.set(id, {
          ...b,
          id,
          storageType: 'local',
          uploadedAt: NOW,
          deletedAt: null,
          virusScanned: false,
          virusScanResult: 'pending',
          hasThumbnail: false,
          pending: true,
        });
        return this.json(201, { fileId: id, uploadUrl: `/blob/${id}`, expiresAt: NOW });
      });
    }
    if (p === '/api/files/upload-complete') {
      return read().then((b) => {
        const file = this.files.get(String(b['fileId']));
        if (!file) return this.error(404, 'NOT_FOUND', 'File not found');
        const { pending: _pending, storageType: _s, ...rest } = file;
        const dto = { ...rest, storageType: 'local' };
        this.files.set(String(b['fileId']), dto);
        return this.json(200, { file: dto });
      });
    }
    const m = /^\/api\/files\/([^/]+)(\/permanent|\/metadata|\/optimized|\/download-url)?$/.exec(p);
    const file = m ? this.files.get(m[1]!) : undefined;
    if (!m || !file) return this.error(404, 'NOT_FOUND', 'File not found');
    switch (m[2]) {
      case '/metadata':
        return this.json(200, {
          encryptedName: file['encryptedName'],
          encryptedMimeType: file['encryptedMimeType'],
          originalSize: file['size'],
          encryptedSize: file['encryptedSize'],
          iv: file['iv'],
          chunkSize: file['chunkSize'],
          wrappedKey: file['wrappedKey'],
        });
      case '/download-url':
        return this.json(200, {
          downloadUrl: `/blob/${m[1]}`,
          size: file['size'],
          encryptedSize: file['encryptedSize'],
          expiresAt: NOW,
        });
      case '/permanent':
        this.files.delete(m[1]!);
        this.blobs.delete(m[1]!);
        return this.json(204);
      case undefined:
        if (method === 'DELETE') file['deletedAt'] = NOW;
        return this.json(204);
    }
    return this.error(404, 'NOT_FOUND', 'Not found');
  }

  private async blob(method: string, p: string, body: BodyInit | null | undefined): Promise<Response> {
    const id = p.slice('/blob/'.length);
    if (method === 'PUT') {
      this.blobs.set(id, new Uint8Array(await new Response(body).arrayBuffer()));
      return new Response(null, { status: 200 });
    }
    const bytes = this.blobs.get(id);
    return bytes ? new Response(bytes, { status: 200 }) : new Response(null, { status: 404 });
  }
}

/** A TestingContext on the fake server (the user's session: token 'token'). */
export function fakeTestingContext(
  server: FakeVaultServer,
  overrides: Partial<TestingContext> = {},
): TestingContext {
  const api = new ApiClient({
    baseUrl: '/api',
    fetch: server.fetch,
    hooks: { getAccessToken: () => 'token', setAccessToken: () => undefined, onAuthFailure: () => undefined },
  });
  return {
    signal: new AbortController().signal,
    log: () => undefined,
    quick: false,
    api,
    crypto: {} as CryptoService,
    config: DEFAULT_RUNTIME_CONFIG,
    user: { id: 'u1', email: 'a@b.c', twoFactorEnabled: false },
    vaultKey: {} as CryptoKey,
    fetch: server.fetch,
    notesCrypto: fakeNotesCrypto,
    filesCrypto: fakeFilesCrypto,
    filesDownloadCrypto: fakeFilesDownloadCrypto,
    fileAuthKey: async () => 'ab'.repeat(32),
    pageUrl: 'https://vault.test/testing',
    readCookies: () => 'theme=dark',
    now: () => Date.now(),
    ...overrides,
  };
}
