import type { UserDto } from '@vault/contracts';

export interface FakeRequest {
  method: string;
  path: string;
  body: unknown;
  headers: Record<string, string>;
}

/** A fetch call as the fakes see it: the method, the path, the JSON body, lower-cased headers; and its URL. */
export function readFakeRequest(
  input: RequestInfo | URL,
  init: RequestInit = {},
): FakeRequest & { url: URL } {
  const url = new URL(typeof input === 'string' ? input : input.toString(), 'http://localhost');
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = Object.fromEntries(
    Object.entries((init.headers as Record<string, string> | undefined) ?? {}).map(([k, v]) => [
      k.toLowerCase(),
      v,
    ]),
  );
  const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
  return { url, method, path: url.pathname, body, headers };
}

export type FakeHandler = (req: FakeRequest) => Response | Promise<Response>;

export function json(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  if (status === 204 || body === undefined) return new Response(null, { status, headers });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** A JWT-shaped token (three base64url parts); the content does not matter to the client. */
export function fakeJwt(label = 'access'): string {
  const enc = (v: unknown) =>
    btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${enc({ alg: 'EdDSA', typ: 'JWT' })}.${enc({ sub: label })}.c2lnbmF0dXJl`;
}

export const TEST_USER: UserDto = {
  id: '6f1c2b9e-4a57-4c1e-9d4b-0d7e3c1a2b3c',
  email: 'alice@example.org',
  username: 'alice',
  role: 'user',
  permissions: [],
  twoFactorEnabled: false,
  createdAt: '2026-03-14T09:26:53.000Z',
};

export const TEST_VAULT = {
  salt: 'ab'.repeat(16),
  kdfParams: { kdf: 'argon2id' as const, memoryKiB: 65536, iterations: 3, parallelism: 4 },
  wrappedVaultKey: `${'c'.repeat(96)}:${'d'.repeat(24)}`,
};

/**
 * A scripted API: handlers by "METHOD /api/path"; anything unscripted answers 404 like the
 * gateway. Records every request.
 */
export class FakeServer {
  readonly requests: FakeRequest[] = [];
  private readonly handlers = new Map<string, FakeHandler>();

  on(route: string, handler: FakeHandler): this {
    this.handlers.set(route, handler);
    return this;
  }

  calls(route: string): FakeRequest[] {
    const [method, path] = route.split(' ');
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const { method, path, body, headers } = readFakeRequest(input, init);
    const req = { method, path, body, headers };
    this.requests.push(req);
    const handler = this.handlers.get(`${method} ${path}`);
    if (!handler) return json(404, { error: 'Not found', code: 'NOT_FOUND' });
    return handler(req);
  };

  /** The usual authenticated endpoints for a signed-in TEST_USER. */
  withSession(): this {
    return this.on('GET /api/auth/me', () => json(200, { user: TEST_USER, vault: TEST_VAULT }))
      .on('POST /api/auth/logout', () => json(204))
      .on('POST /api/auth/refresh', () => json(200, { access: fakeJwt('refreshed') }));
  }
}
