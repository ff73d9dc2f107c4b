/**
 * Control characters in text (issue: a NUL byte answered 500 on twelve public routes, with a stack
 * trace in the log). Every string field of every route that takes a body or a query is sent with each
 * character below in the middle of an otherwise valid value: the answer is a 400 with a code and a
 * message, nothing else, and no service logs a stack trace or an unexpected error meanwhile.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { ErrorCode, REFRESH_COOKIE, type ErrorBody } from '@vault/contracts';
import { signUp, type TestAccount } from '../support/accounts';
import { e2eEnv } from '../support/env';
import { ApiClient } from '../support/http';
import { readLogs, settleLogs } from '../support/logs';

/** NUL, other C0 controls, DEL, a C1 control and a lone surrogate (not storable as UTF-8). */
const BAD_CHARACTERS: Record<string, string> = {
  NUL: '\u0000',
  SOH: '\u0001',
  TAB: '\t',
  LF: '\n',
  ESC: '\u001b',
  DEL: '\u007f',
  NEL: '\u0085',
  'lone surrogate': '\ud800',
};

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const sealedValue = () => `${hex(40)}:${hex(12)}`;
const sealedKey = () => `${hex(48)}:${hex(12)}`;
const kdfParams = { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };

interface Route {
  method: 'POST' | 'PUT' | 'DELETE' | 'GET';
  path: string;
  /** Public routes are sent without a token. */
  public?: boolean;
  /** A valid body (or, for GET, the query as an object). */
  body: () => Record<string, unknown>;
}

function routes(account: TestAccount): Route[] {
  const identifier = account.identity.username;
  const email = account.identity.email;
  const noteBody = () => ({
    id: randomUUID(),
    title: sealedValue(),
    content: sealedValue(),
    tags: [sealedValue()],
    wrappedDEK: sealedKey(),
  });
  const fileBody = () => ({
    fileId: randomUUID(),
    size: 10,
    encryptedSize: 26,
    chunkSize: 65_536,
    iv: hex(12),
    wrappedKey: sealedKey(),
    encryptedName: sealedValue(),
    encryptedMimeType: sealedValue(),
    encryptedTags: sealedValue(),
  });
  return [
    { method: 'POST', path: '/api/auth/prelogin', public: true, body: () => ({ identifier }) },
    {
      method: 'POST',
      path: '/api/auth/signup',
      public: true,
      body: () => ({
        username: `u${hex(6)}`,
        email: `u${hex(6)}@example.com`,
        phoneNumber: '+1 555 0100',
        authKey: hex(32),
        salt: hex(16),
        kdfParams,
        wrappedVaultKey: sealedKey(),
      }),
    },
    {
      method: 'POST',
      path: '/api/auth/login',
      public: true,
      body: () => ({ identifier, authKey: hex(32), totpCode: '123456' }),
    },
    {
      method: 'POST',
      path: '/api/auth/2fa/login',
      public: true,
      body: () => ({ identifier, authKey: hex(32), code: '123456' }),
    },
    {
      method: 'POST',
      path: '/api/auth/2fa/backup-login',
      public: true,
      body: () => ({ identifier, authKey: hex(32), backupCode: 'ABCD-1234' }),
    },
    {
      method: 'POST',
      path: '/api/auth/verify-emergency',
      public: true,
      body: () => ({
        identifier,
        username: identifier,
        phoneNumber: account.identity.phoneNumber,
        authKey: hex(32),
      }),
    },
    { method: 'POST', path: '/api/auth/recovery/email-code', public: true, body: () => ({ email }) },
    {
      method: 'POST',
      path: '/api/auth/recovery/verify-email',
      public: true,
      body: () => ({ email, code: '123456' }),
    },
    {
      method: 'POST',
      path: '/api/auth/recovery/verify-key',
      public: true,
      body: () => ({ email, recoveryAuth: hex(32) }),
    },
    { method: 'POST', path: '/api/auth/recovery/get-questions', public: true, body: () => ({ email }) },
    {
      method: 'POST',
      path: '/api/auth/recovery/verify-questions',
      public: true,
      body: () => ({ email, answersAuth: hex(32) }),
    },
    {
      method: 'POST',
      path: '/api/auth/recovery/reset',
      public: true,
      body: () => ({
        bypassToken: randomBytes(32).toString('base64url'),
        authKey: hex(32),
        salt: hex(16),
        kdfParams,
        wrappedVaultKey: sealedKey(),
        newVaultKey: true,
        code: '123456',
        backupCode: 'ABCD-1234',
      }),
    },
    {
      method: 'POST',
      path: '/api/auth/recovery/setup-questions',
      body: () => ({
        questions: [
          { question: 'What was the name of my first pet?' },
          { question: 'Which street did I grow up on?' },
          { question: 'What is my favourite book?' },
        ],
        questionsSalt: hex(16),
        answersAuth: hex(32),
      }),
    },
    {
      method: 'POST',
      path: '/api/auth/recovery/setup-key',
      body: () => ({ authKey: hex(32), recoveryAuth: hex(32), recoveryWrappedVaultKey: sealedKey() }),
    },
    {
      method: 'POST',
      path: '/api/auth/change-password',
      body: () => ({
        currentAuthKey: hex(32),
        authKey: hex(32),
        salt: hex(16),
        kdfParams,
        wrappedVaultKey: sealedKey(),
      }),
    },
    { method: 'POST', path: '/api/auth/2fa/verify', body: () => ({ code: '123456' }) },
    { method: 'POST', path: '/api/auth/2fa/disable', body: () => ({ code: '123456' }) },
    { method: 'POST', path: '/api/auth/2fa/backup-codes/regenerate', body: () => ({ code: '123456' }) },
    { method: 'DELETE', path: '/api/auth/account', body: () => ({ authKey: hex(32) }) },
    { method: 'GET', path: '/api/notes', body: () => ({ limit: '10', cursor: 'MTIzOmFiYw' }) },
    { method: 'POST', path: '/api/notes', body: noteBody },
    { method: 'POST', path: '/api/notes/batch', body: () => ({ notes: [noteBody()] }) },
    {
      method: 'PUT',
      path: `/api/notes/${randomUUID()}`,
      body: () => {
        const { id: _id, ...rest } = noteBody();
        return rest;
      },
    },
    { method: 'PUT', path: `/api/notes/${randomUUID()}/key`, body: () => ({ wrappedDEK: sealedKey() }) },
    { method: 'POST', path: '/api/files/upload-url', body: () => ({ ...fileBody(), storageType: 'local' }) },
    { method: 'POST', path: '/api/files/cloudinary/upload-url', body: fileBody },
    {
      method: 'POST',
      path: '/api/files/upload-complete',
      body: () => ({ fileId: randomUUID(), plaintextSha256: hex(32) }),
    },
    { method: 'PUT', path: `/api/files/${randomUUID()}/key`, body: () => ({ wrappedKey: sealedKey() }) },
    { method: 'POST', path: `/api/files/${randomUUID()}/download-url`, body: () => ({ authKey: hex(32) }) },
    { method: 'POST', path: `/api/files/${randomUUID()}/preview`, body: () => ({ authKey: hex(32) }) },
  ];
}

type Path = (string | number)[];

/** The path of every string in a JSON value. */
function stringPaths(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  }
  return [];
}

/** A copy of `value` whose string at `path` has `bad` inserted in its middle. */
function withCharacter(value: Record<string, unknown>, path: Path, bad: string): Record<string, unknown> {
  const copy = structuredClone(value);
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  const text = parent[last] as string;
  const middle = Math.floor(text.length / 2);
  parent[last] = text.slice(0, middle) + bad + text.slice(middle);
  return copy;
}

async function send(client: ApiClient, route: Route, body: Record<string, unknown>) {
  const token = route.public ? null : undefined;
  if (route.method === 'GET') {
    const query = new URLSearchParams(body as Record<string, string>).toString();
    return client.get(`${route.path}?${query}`, { token });
  }
  // JSON.stringify writes a lone surrogate as the escape \ud800, which is what a hostile client sends.
  return client.request(route.method, route.path, { json: body, token });
}

/** Each log file's length, so that only what this suite makes is searched afterwards. */
async function logLengths(logDir: string): Promise<Map<string, number>> {
  await settleLogs(logDir);
  return new Map(readLogs(logDir).map((f) => [f.name, f.content.length]));
}

describe('control characters in every text field', () => {
  const { logDir } = e2eEnv();
  let account: TestAccount;
  let logsBefore: Map<string, number>;

  beforeAll(async () => {
    if (!logDir) throw new Error('VAULT_E2E_LOG_DIR is not set: run the suite with node scripts/e2e.mjs');
    logsBefore = await logLengths(logDir);
    account = await signUp();
  });

  it('answers each with a 400 that carries a code and a message, on every route', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes(account)) {
      const valid = route.body();
      for (const path of stringPaths(valid)) {
        for (const [name, bad] of Object.entries(BAD_CHARACTERS)) {
          const res = await send(account.client, route, withCharacter(valid, path, bad));
          sent += 1;
          const body = (res.body ?? {}) as Partial<ErrorBody>;
          const ok =
            res.status === 400 &&
            body.code === ErrorCode.VALIDATION_FAILED &&
            typeof body.error === 'string' &&
            body.error.length > 0;
          if (!ok) {
            failures.push(
              `${route.method} ${route.path} ${path.join('.')} with ${name}: ${res.status} ${res.text}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(400);
  }, 120_000);

  it("answers each plain-text field with that field's own message", async () => {
    const nul = '\u0000';
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/auth/prelogin', { identifier: `a${nul}b` }, 'Identifier contains invalid characters'],
      [
        '/api/auth/login',
        { identifier: `a${nul}b`, authKey: hex(32) },
        'Identifier contains invalid characters',
      ],
      [
        '/api/auth/2fa/login',
        { identifier: account.identity.username, authKey: hex(32), code: `12${nul}3456` },
        'Invalid verification code',
      ],
      [
        '/api/auth/2fa/backup-login',
        { identifier: account.identity.username, authKey: hex(32), backupCode: `AB${nul}CD-1234` },
        'Invalid backup code',
      ],
      [
        '/api/auth/recovery/email-code',
        { email: `a${nul}@example.com` },
        'Please enter a valid email address',
      ],
      [
        '/api/auth/recovery/get-questions',
        { email: `a@exa${nul}mple.com` },
        'Please enter a valid email address',
      ],
    ];
    for (const [path, body, message] of cases) {
      const res = await account.client.post(path, body, { token: null });
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: expect.objectContaining({ code: ErrorCode.VALIDATION_FAILED, error: message }) as unknown,
      });
    }
    const signup = await account.client.post(
      '/api/auth/signup',
      {
        username: `u${hex(6)}`,
        email: `u${hex(4)}${nul}@example.com`,
        phoneNumber: '+1 555 0100',
        authKey: hex(32),
        salt: hex(16),
        kdfParams,
        wrappedVaultKey: sealedKey(),
      },
      { token: null },
    );
    expect(signup.status).toBe(400);
    expect(signup.body).toMatchObject({ error: 'Please enter a valid email address' });
    const question = await account.client.post('/api/auth/recovery/setup-questions', {
      questions: [
        { question: `What was the name${nul} of my first pet?` },
        { question: 'Which street did I grow up on?' },
        { question: 'What is my favourite book?' },
      ],
      questionsSalt: hex(16),
      answersAuth: hex(32),
    });
    expect(question.status).toBe(400);
    expect(question.body).toMatchObject({ error: 'Security questions must not contain control characters' });
  });

  it('answers a refresh cookie with control characters as no valid token: refresh 401, logout 204', async () => {
    for (const bad of ['%00', '%0A', '%7F', '%C2%85']) {
      const client = new ApiClient(`cookie-${bad}`);
      const sid = account.client.refreshToken!.split('.')[0]!;
      client.jar.set(REFRESH_COOKIE.name, `${sid}.${bad}${'A'.repeat(40)}`, REFRESH_COOKIE.path);
      const refreshed = await client.post('/api/auth/refresh', undefined, { token: null });
      expect({ bad, status: refreshed.status, body: refreshed.body }).toEqual({
        bad,
        status: 401,
        body: expect.objectContaining({ code: ErrorCode.REFRESH_INVALID }) as unknown,
      });
      client.jar.set(REFRESH_COOKIE.name, `${sid}.${bad}${'A'.repeat(40)}`, REFRESH_COOKIE.path);
      expect((await client.post('/api/auth/logout', undefined, { token: null })).status).toBe(204);
    }
    // The session those cookies named lives on.
    expect((await account.client.get('/api/auth/me')).status).toBe(200);
  });

  it('logged no stack trace and no unexpected error while answering them', async () => {
    await settleLogs(logDir as string);
    const hits = readLogs(logDir as string).flatMap((file) =>
      file.content
        .slice(logsBefore.get(file.name) ?? 0)
        .split('\n')
        .filter((line) => /invalid byte sequence|\\n\s+at |"code":"INTERNAL"|"statusCode":5\d\d/.test(line))
        .map((line) => `${file.name}: ${line.slice(0, 300)}`),
    );
    expect(hits).toEqual([]);
  });
});
