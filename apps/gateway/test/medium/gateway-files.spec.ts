import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import {
  AUTH_PATTERNS,
  ErrorCode,
  expectedEncryptedSize,
  FILE_CHUNK_SIZE,
  FILE_SIZE_EXCEEDED,
  FILES_PATTERNS,
  VaultError,
  type FileDto,
} from '@vault/contracts';
import { REFUSED_BODY_LINGER_MS } from '@vault/server-kit';
import { MULTIPART_MESSAGES } from '../../src/routes/files/multipart-upload';
import { HttpStub, type HttpHandler } from '../support/http-stub';
import {
  clientAddress,
  freePort,
  startGateway,
  type GatewayHarness,
  type InjectOptions,
} from './support/gateway-harness';
import { RpcStubs } from './support/rpc-stubs';
import { sealed } from './support/fixtures';
import { routeChecks, type ByIdRoute, type ProtectedRoute } from './support/routing';

/**
 * The gateway's /api/files routes against real Redis, stub files and auth microservices on real
 * TCP ports, and a stub of the files service's HTTP listener (the blob route): what reaches each
 * service and in which order, what the client gets back, validation at the edge, the multipart
 * upload streamed through to the blob route, and the public blob route itself. The real files
 * service behind the real gateway is covered by apps/e2e.
 */

function metadata(size = 1000) {
  return {
    fileId: randomUUID(),
    size,
    encryptedSize: expectedEncryptedSize(size, FILE_CHUNK_SIZE),
    chunkSize: FILE_CHUNK_SIZE,
    iv: randomBytes(12).toString('hex'),
    wrappedKey: sealed(32),
    encryptedName: sealed(),
    encryptedMimeType: sealed(),
    encryptedTags: sealed(),
  };
}

const fileDto = (id = randomUUID()): FileDto => ({
  id,
  encryptedName: sealed(),
  encryptedMimeType: sealed(),
  encryptedTags: sealed(),
  wrappedKey: sealed(32),
  iv: randomBytes(12).toString('hex'),
  chunkSize: FILE_CHUNK_SIZE,
  size: 1000,
  encryptedSize: 1016,
  storageType: 'local',
  uploadedAt: '2026-01-01T00:00:00.000Z',
  deletedAt: null,
  virusScanned: false,
  virusScanResult: 'pending',
  hasThumbnail: false,
});

const AUTH_KEY = 'a'.repeat(64);

const healthy = (service: string) => ({ service, status: 'ok', uptimeSeconds: 1, checks: {} });
/** What the stub files service serves (the auth stub serves verifyAuthKey). */
const SERVED = [
  FILES_PATTERNS.storageTypes,
  FILES_PATTERNS.createUpload,
  FILES_PATTERNS.createCloudinaryUpload,
  FILES_PATTERNS.completeUpload,
  FILES_PATTERNS.list,
  FILES_PATTERNS.listDeleted,
  FILES_PATTERNS.counts,
  FILES_PATTERNS.remove,
  FILES_PATTERNS.restore,
  FILES_PATTERNS.purge,
  FILES_PATTERNS.emptyTrash,
  FILES_PATTERNS.downloadUrl,
  FILES_PATTERNS.metadata,
  FILES_PATTERNS.thumbnail,
];
const stubs = new RpcStubs();
const { seen, answer } = stubs;

interface BlobRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  bytes: number;
  sha256: string;
}

/** The files service's HTTP listener: /health, and the blob route the test steers. */
class StubBlobServer extends HttpStub {
  handler: HttpHandler = (req, res) => req.resume().on('end', () => res.writeHead(204).end());
  readonly requests: BlobRequest[] = [];

  protected override receive(req: IncomingMessage, res: ServerResponse): void {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    const hash = createHash('sha256');
    const entry: BlobRequest = {
      method: req.method,
      url: req.url,
      headers: req.headers,
      bytes: 0,
      sha256: '',
    };
    this.requests.push(entry);
    req.on('data', (c: Buffer) => {
      entry.bytes += c.length;
      hash.update(c);
    });
    req.on('end', () => (entry.sha256 = hash.digest('hex')));
    this.handler(req, res);
  }
}

const BOUNDARY = '----vault-medium-boundary';

type Part = { field: string; value: string } | { file: Buffer };

function form(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(
      Buffer.from(
        'field' in part
          ? `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`
          : `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\n` +
              'Content-Type: application/octet-stream\r\n\r\n',
      ),
    );
    if ('file' in part) chunks.push(part.file, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const fieldsOf = (m: ReturnType<typeof metadata>): Part[] =>
  Object.entries(m).map(([field, value]) => ({ field, value: String(value) }));

const signedPut = (ownerId: string, fileId: string, len: number) =>
  `/api/files/blob/${ownerId}/${fileId}?op=put&exp=9999999999&len=${len}&sig=${'b'.repeat(64)}`;
const signedGet = (ownerId: string, fileId: string) =>
  `/api/files/blob/${ownerId}/${fileId}?op=get&exp=9999999999&sig=${'c'.repeat(64)}`;

describe('gateway /api/files (real Redis, stub files and auth services over TCP, stub blob listener)', () => {
  let gw: GatewayHarness;
  const blobs = new StubBlobServer();
  let bearer: string;
  let userId: string;

  beforeAll(async () => {
    const [filesPort, authPort] = [await freePort(), await freePort()];
    await stubs.serve('files', filesPort, healthy('files'), SERVED);
    await stubs.serve('auth', authPort, healthy('auth'), [AUTH_PATTERNS.verifyAuthKey]);
    gw = await startGateway({
      filesPort,
      authPort,
      filesHttpUrl: await blobs.start(),
      env: { RATE_LIMIT_AUTH_PER_MINUTE: '4', RATE_LIMIT_BLOB_PER_MINUTE: '6' },
    });
    const { token, caller } = await gw.signedIn();
    bearer = token;
    userId = caller.userId;
  });

  afterAll(async () => {
    await gw?.close();
    await stubs.close();
    await blobs.stop();
  });

  beforeEach(() => {
    stubs.reset();
    blobs.requests.length = 0;
    blobs.handler = (req, res) => req.resume().on('end', () => res.writeHead(204).end());
  });

  /** The gateway on a real socket (listening from the first call on). */
  let listeningAt: string | undefined;
  const socketAddress = async (): Promise<{ hostname: string; port: string }> => {
    if (!listeningAt) {
      await gw.app.listen({ port: 0, host: '127.0.0.1' });
      listeningAt = await gw.app.getUrl();
    }
    const { hostname, port } = new URL(listeningAt);
    return { hostname, port };
  };

  const inject = (opts: InjectOptions, token: string | null = bearer) => gw.inject(opts, token);
  const checks = routeChecks(stubs, inject);
  const multipart = (body: Buffer, token: string | null = bearer) =>
    inject(
      {
        method: 'POST',
        url: '/api/files/cloudinary/upload',
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: body,
      },
      token,
    );

  const ID = randomUUID();
  const PROTECTED: ProtectedRoute[] = [
    { method: 'GET', url: '/api/files/storage-types' },
    { method: 'POST', url: '/api/files/upload-url', body: { ...metadata(), storageType: 'local' } },
    { method: 'POST', url: '/api/files/upload-complete', body: { fileId: ID } },
    { method: 'POST', url: '/api/files/cloudinary/upload-url', body: metadata() },
    { method: 'GET', url: '/api/files' },
    { method: 'GET', url: '/api/files/deleted' },
    { method: 'GET', url: '/api/files/counts' },
    { method: 'DELETE', url: '/api/files/trash' },
    { method: 'DELETE', url: `/api/files/${ID}` },
    { method: 'POST', url: `/api/files/${ID}/restore` },
    { method: 'DELETE', url: `/api/files/${ID}/permanent` },
    { method: 'GET', url: `/api/files/${ID}/metadata` },
    { method: 'GET', url: `/api/files/${ID}/optimized` },
    { method: 'POST', url: `/api/files/${ID}/download-url`, body: { authKey: AUTH_KEY } },
    { method: 'POST', url: `/api/files/${ID}/preview`, body: { authKey: AUTH_KEY } },
  ];

  it.each(PROTECTED)('answers 401 to $method $url without a token, and never calls a service', (route) =>
    checks.unauthenticated(route),
  );

  it('answers 401 to the multipart upload without a token, before reading the form', async () => {
    const res = await multipart(form([...fieldsOf(metadata()), { file: Buffer.alloc(1016) }]), null);
    expect(res.statusCode).toBe(401);
    expect(seen).toEqual([]);
    expect(blobs.requests).toEqual([]);
  });

  describe('what reaches the files service', () => {
    it('creates an upload with 201, passing the body as sent and the caller from the token', async () => {
      const body = { ...metadata(), storageType: 'local' };
      const reply = {
        fileId: body.fileId,
        uploadUrl: signedPut(userId, body.fileId, body.encryptedSize),
        expiresAt: 'x',
      };
      answer(FILES_PATTERNS.createUpload, reply);
      const res = await inject({ method: 'POST', url: '/api/files/upload-url', payload: body });

      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual(reply);
      expect(seen.map((s) => [s.pattern, s.request.body])).toEqual([[FILES_PATTERNS.createUpload, body]]);
      expect(seen[0]?.request.ctx.auth?.userId).toBe(userId);
    });

    it('completes an upload (200 {file}) and signs a Cloudinary direct upload (201)', async () => {
      const file = fileDto();
      answer(FILES_PATTERNS.completeUpload, { file });
      const done = await inject({
        method: 'POST',
        url: '/api/files/upload-complete',
        payload: { fileId: file.id },
      });
      expect(done.statusCode).toBe(200);
      expect(done.json()).toEqual({ file });

      const body = metadata();
      const signed = {
        fileId: body.fileId,
        uploadUrl: 'https://api.cloudinary.com/v1_1/demo/raw/upload',
        fields: { signature: 's' },
        expiresAt: 'x',
      };
      answer(FILES_PATTERNS.createCloudinaryUpload, signed);
      const res = await inject({ method: 'POST', url: '/api/files/cloudinary/upload-url', payload: body });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual(signed);
      expect(seen.map((s) => [s.pattern, s.request.body])).toEqual([
        [FILES_PATTERNS.completeUpload, { fileId: file.id }],
        [FILES_PATTERNS.createCloudinaryUpload, body],
      ]);
    });

    it('answers the storage types, the lists and the counts', async () => {
      const types = { types: [{ type: 'local', label: 'This server' }], default: 'local' };
      answer(FILES_PATTERNS.storageTypes, types);
      answer(FILES_PATTERNS.list, { files: [fileDto()] });
      answer(FILES_PATTERNS.listDeleted, { files: [] });
      answer(FILES_PATTERNS.counts, { active: 1, deleted: 0, bytes: 1016 });

      expect((await inject({ method: 'GET', url: '/api/files/storage-types' })).json()).toEqual(types);
      expect((await inject({ method: 'GET', url: '/api/files' })).json().files).toHaveLength(1);
      expect((await inject({ method: 'GET', url: '/api/files/deleted' })).json()).toEqual({ files: [] });
      expect((await inject({ method: 'GET', url: '/api/files/counts' })).json()).toEqual({
        active: 1,
        deleted: 0,
        bytes: 1016,
      });
    });

    it.each([
      ['DELETE', '/api/files/{id}', FILES_PATTERNS.remove, 204, null, /^$/],
      ['POST', '/api/files/{id}/restore', FILES_PATTERNS.restore, 200, { file: fileDto() }, /"file"/],
      ['DELETE', '/api/files/{id}/permanent', FILES_PATTERNS.purge, 204, null, /^$/],
      ['GET', '/api/files/{id}/metadata', FILES_PATTERNS.metadata, 200, { iv: 'x' }, /"iv"/],
      [
        'GET',
        '/api/files/{id}/optimized',
        FILES_PATTERNS.thumbnail,
        200,
        { encryptedThumbnail: 'x' },
        /"encryptedThumbnail"/,
      ],
    ] as ByIdRoute[])('routes %s %s to %s and answers %i', (...route) => checks.routedById(route));

    it('routes DELETE /api/files/trash to empty-trash, never to a delete of id "trash"', () =>
      checks.trashEmptied('/api/files/trash', FILES_PATTERNS.emptyTrash));

    it('takes the thumbnail’s size query and ignores it; 404 when the file has none', async () => {
      const id = randomUUID();
      answer(FILES_PATTERNS.thumbnail, { encryptedThumbnail: 'x' });
      const ok = await inject({
        method: 'GET',
        url: `/api/files/${id}/optimized?width=200&height=150&quality=80&format=webp`,
      });
      expect(ok.statusCode).toBe(200);
      expect(seen[0]?.request.body).toEqual({ id });

      answer(FILES_PATTERNS.thumbnail, new VaultError(ErrorCode.NOT_FOUND, 'No thumbnail for this file'));
      const none = await inject({ method: 'GET', url: `/api/files/${id}/optimized` });
      expect(none.statusCode).toBe(404);
      expect(none.json()).toMatchObject({ code: 'NOT_FOUND', error: 'No thumbnail for this file' });
    });

    it.each([
      [ErrorCode.CONFLICT, 'File id already exists', 409],
      [ErrorCode.STORAGE_NOT_CONFIGURED, 'This storage type is not configured', 400],
      [ErrorCode.SERVICE_UNAVAILABLE, 'Service unavailable', 503],
    ])('maps %s (%s) from create-upload to HTTP %i with its message', async (code, message, status) => {
      answer(FILES_PATTERNS.createUpload, new VaultError(code, message));
      const res = await inject({
        method: 'POST',
        url: '/api/files/upload-url',
        payload: { ...metadata(), storageType: 's3' },
      });
      expect(res.statusCode).toBe(status);
      expect(res.json()).toMatchObject({ code, error: message });
    });

    it('maps UPLOAD_SIZE_MISMATCH of upload-complete to 400 with the service’s message', async () => {
      const message = 'The uploaded file is 10 bytes; 1016 were declared';
      answer(FILES_PATTERNS.completeUpload, new VaultError(ErrorCode.UPLOAD_SIZE_MISMATCH, message));
      const res = await inject({
        method: 'POST',
        url: '/api/files/upload-complete',
        payload: { fileId: randomUUID() },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'UPLOAD_SIZE_MISMATCH', error: message });
    });
  });

  describe('download-url and preview: the password first', () => {
    it('asks auth to verify the authKey, then files for a download URL, with the same caller', async () => {
      const id = randomUUID();
      const url = { downloadUrl: signedGet(userId, id), size: 1000, encryptedSize: 1016, expiresAt: 'x' };
      answer(AUTH_PATTERNS.verifyAuthKey, { ok: true });
      answer(FILES_PATTERNS.downloadUrl, url);
      const res = await inject({
        method: 'POST',
        url: `/api/files/${id}/download-url`,
        payload: { authKey: AUTH_KEY },
      });

      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(url);
      expect(seen.map((s) => [s.pattern, s.request.body])).toEqual([
        [AUTH_PATTERNS.verifyAuthKey, { authKey: AUTH_KEY }],
        [FILES_PATTERNS.downloadUrl, { id, purpose: 'download' }],
      ]);
      expect(seen.map((s) => s.request.ctx.auth?.userId)).toEqual([userId, userId]);
    });

    it('asks for a preview URL with purpose "preview"', async () => {
      const id = randomUUID();
      answer(AUTH_PATTERNS.verifyAuthKey, { ok: true });
      answer(FILES_PATTERNS.downloadUrl, { content: signedGet(userId, id), expiresAt: 'x' });
      const res = await inject({
        method: 'POST',
        url: `/api/files/${id}/preview`,
        payload: { authKey: AUTH_KEY },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ content: expect.stringMatching(/^\/api\/files\/blob\//) });
      expect(seen.map((s) => [s.pattern, s.request.body])).toEqual([
        [AUTH_PATTERNS.verifyAuthKey, { authKey: AUTH_KEY }],
        [FILES_PATTERNS.downloadUrl, { id, purpose: 'preview' }],
      ]);
    });

    it.each(['download-url', 'preview'])(
      'answers 401 "Invalid password" to a wrong password on %s and never reaches the files service',
      async (route) => {
        answer(AUTH_PATTERNS.verifyAuthKey, new VaultError(ErrorCode.INVALID_PASSWORD));
        const res = await inject({
          method: 'POST',
          url: `/api/files/${randomUUID()}/${route}`,
          payload: { authKey: AUTH_KEY },
        });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'INVALID_PASSWORD', error: 'Invalid password' });
        expect(seen.map((s) => s.pattern)).toEqual([AUTH_PATTERNS.verifyAuthKey]);
      },
    );

    it('answers 423 with Retry-After while auth reports the account locked, and never reaches files', async () => {
      answer(
        AUTH_PATTERNS.verifyAuthKey,
        new VaultError(ErrorCode.ACCOUNT_LOCKED, undefined, { retryAfter: 540 }),
      );
      const res = await inject({
        method: 'POST',
        url: `/api/files/${randomUUID()}/download-url`,
        payload: { authKey: AUTH_KEY },
      });
      expect(res.statusCode).toBe(423);
      expect(res.headers['retry-after']).toBe('540');
      expect(seen.map((s) => s.pattern)).toEqual([AUTH_PATTERNS.verifyAuthKey]);
    });

    it('maps FILE_INFECTED of the files service to 403 with the spec’s message', async () => {
      answer(AUTH_PATTERNS.verifyAuthKey, { ok: true });
      answer(FILES_PATTERNS.downloadUrl, new VaultError(ErrorCode.FILE_INFECTED));
      const res = await inject({
        method: 'POST',
        url: `/api/files/${randomUUID()}/download-url`,
        payload: { authKey: AUTH_KEY },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'FILE_INFECTED',
        error: 'File is infected and cannot be downloaded',
      });
    });

    it('counts both routes against the auth limit, per IP (429 once it is passed)', async () => {
      const ip = clientAddress();
      const statuses: number[] = [];
      for (const route of ['download-url', 'preview', 'download-url', 'preview', 'download-url']) {
        answer(AUTH_PATTERNS.verifyAuthKey, new VaultError(ErrorCode.INVALID_PASSWORD));
        const res = await gw.app.inject({
          method: 'POST',
          url: `/api/files/${randomUUID()}/${route}`,
          remoteAddress: ip,
          headers: { authorization: `Bearer ${bearer}` },
          payload: { authKey: AUTH_KEY },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
    });
  });

  describe('validation at the edge (no service is called)', () => {
    afterEach(() => {
      expect(seen).toEqual([]);
    });

    it.each([
      ['a size over 100 MiB', { ...metadata(), size: 104_857_601, storageType: 'local' }, FILE_SIZE_EXCEEDED],
      [
        'the spec’s plaintext fileName',
        { ...metadata(), storageType: 'local', fileName: 'a.pdf' },
        'Unknown field: fileName',
      ],
      ['an unknown storage type', { ...metadata(), storageType: 'ftp' }, 'Unknown storage type'],
      [
        'sizes that disagree',
        { ...metadata(), encryptedSize: 1000, storageType: 'local' },
        'encryptedSize must equal size + 16 * max(1, ceil(size / chunkSize))',
      ],
      [
        'a plaintext name',
        { ...metadata(), encryptedName: 'report.pdf', storageType: 'local' },
        'Invalid encrypted name',
      ],
    ])('answers 400 to an upload-url with %s', async (_label, payload, message) => {
      const res = await inject({ method: 'POST', url: '/api/files/upload-url', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: message });
    });

    it('answers 400 to a Cloudinary upload-url that names a storage type (the route decides it)', async () => {
      const res = await inject({
        method: 'POST',
        url: '/api/files/cloudinary/upload-url',
        payload: { ...metadata(), storageType: 'cloudinary' },
      });
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: 'Unknown field: storageType' });
    });

    it.each([
      ['a missing authKey', {}, 'Please enter your password'],
      ['a password sent as typed', { authKey: 'hunter2' }, 'Please enter your password'],
      ['an extra field', { authKey: AUTH_KEY, password: 'x' }, 'Unknown field: password'],
    ])('answers 400 to a download-url with %s, before asking auth', async (_label, payload, message) => {
      const res = await inject({ method: 'POST', url: `/api/files/${randomUUID()}/download-url`, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: message });
    });

    it.each([
      ['DELETE', '/api/files/not-a-uuid'],
      ['POST', '/api/files/NOT-A-UUID/restore'],
      ['GET', '/api/files/123/metadata'],
      ['POST', '/api/files/123/download-url'],
    ])('answers 400 Invalid id to %s %s', async (method, url) => {
      const res = await inject({
        method: method as 'GET',
        url,
        ...(method === 'POST' ? { payload: { authKey: AUTH_KEY } } : {}),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: 'Invalid id' });
    });

    it.each([
      ['a width that is no number', '?width=big', 'width must be a number'],
      ['a quality over 100', '?quality=101', 'quality must be between 1 and 100'],
      ['an unknown parameter', '?crop=1', 'Unknown field: crop'],
    ])('answers 400 to a thumbnail query with %s', async (_label, query, message) => {
      const res = await inject({ method: 'GET', url: `/api/files/${randomUUID()}/optimized${query}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: message });
    });
  });

  describe('POST /api/files/cloudinary/upload (multipart, streamed)', () => {
    it('records the upload as Cloudinary, streams the file part to the signed blob URL, completes it: 201 {fileId}', async () => {
      const m = metadata(200_000);
      const bytes = randomBytes(m.encryptedSize);
      const url = signedPut(userId, m.fileId, m.encryptedSize);
      answer(FILES_PATTERNS.createUpload, { fileId: m.fileId, uploadUrl: url, expiresAt: 'x' });
      answer(FILES_PATTERNS.completeUpload, { file: fileDto(m.fileId) });
      const res = await multipart(form([...fieldsOf(m), { file: bytes }]));

      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ fileId: m.fileId });
      expect(seen.map((s) => [s.pattern, s.request.body])).toEqual([
        [FILES_PATTERNS.createUpload, { ...m, storageType: 'cloudinary' }],
        [FILES_PATTERNS.completeUpload, { fileId: m.fileId }],
      ]);
      expect(blobs.requests).toHaveLength(1);
      expect(blobs.requests[0]).toMatchObject({
        method: 'PUT',
        url,
        bytes: m.encryptedSize,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      expect(blobs.requests[0]?.headers['content-length']).toBe(String(m.encryptedSize));
    });

    it('answers 400 "Send the metadata fields before the file" when the file comes first, and calls nothing', async () => {
      const m = metadata();
      const res = await multipart(
        form([
          { field: 'fileId', value: m.fileId },
          { file: Buffer.alloc(m.encryptedSize) },
          ...fieldsOf(m).slice(1),
        ]),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: MULTIPART_MESSAGES.fieldsFirst });
      expect(seen).toEqual([]);
      expect(blobs.requests).toEqual([]);
    });

    it.each<[string, (m: ReturnType<typeof metadata>) => Part[], string]>([
      [
        'the spec’s plaintext fileName',
        (m) => [...fieldsOf(m), { field: 'fileName', value: 'a.pdf' }],
        'Unknown field: fileName',
      ],
      [
        'a size over 100 MiB',
        (m) =>
          fieldsOf({
            ...m,
            size: 104_857_601,
            encryptedSize: expectedEncryptedSize(104_857_601, FILE_CHUNK_SIZE),
          }),
        FILE_SIZE_EXCEEDED,
      ],
      [
        'a size that is not a number',
        (m) => fieldsOf({ ...m, size: 'lots' as unknown as number }),
        'size must be a number of bytes',
      ],
    ])(
      'answers 400 to a form with %s, with the schema’s message, and calls nothing',
      async (_label, parts, message) => {
        const res = await multipart(form([...parts(metadata()), { file: Buffer.alloc(1016) }]));
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: message });
        expect(seen).toEqual([]);
        expect(blobs.requests).toEqual([]);
      },
    );

    it('answers 400 to a JSON body', async () => {
      const res = await inject({ method: 'POST', url: '/api/files/cloudinary/upload', payload: metadata() });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ error: MULTIPART_MESSAGES.notMultipart });
      expect(seen).toEqual([]);
    });

    it('answers 400 UPLOAD_SIZE_MISMATCH to a file part shorter than encryptedSize, and never completes it', async () => {
      const m = metadata();
      answer(FILES_PATTERNS.createUpload, {
        fileId: m.fileId,
        uploadUrl: signedPut(userId, m.fileId, m.encryptedSize),
        expiresAt: 'x',
      });
      const res = await multipart(form([...fieldsOf(m), { file: Buffer.alloc(m.encryptedSize - 16) }]));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'UPLOAD_SIZE_MISMATCH' });
      expect(seen.map((s) => s.pattern)).toEqual([FILES_PATTERNS.createUpload]);
    });

    it('answers the blob route’s refusal as it is, and never completes the upload', async () => {
      const m = metadata();
      answer(FILES_PATTERNS.createUpload, {
        fileId: m.fileId,
        uploadUrl: signedPut(userId, m.fileId, m.encryptedSize),
        expiresAt: 'x',
      });
      blobs.handler = (req, res) =>
        req
          .resume()
          .on('end', () =>
            res
              .writeHead(403, { 'content-type': 'application/json' })
              .end(JSON.stringify({ error: 'This link is invalid or has expired', code: 'LINK_INVALID' })),
          );
      const res = await multipart(form([...fieldsOf(m), { file: Buffer.alloc(m.encryptedSize) }]));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'LINK_INVALID',
        error: 'This link is invalid or has expired',
      });
      expect(seen.map((s) => s.pattern)).toEqual([FILES_PATTERNS.createUpload]);
    });
  });

  describe('the signed blob route (public, streamed)', () => {
    it('passes a PUT without a token through to the files service’s listener, bytes and query unchanged', async () => {
      const owner = randomUUID();
      const id = randomUUID();
      const bytes = randomBytes(2 * 1024 * 1024);
      const url = signedPut(owner, id, bytes.length);
      const res = await inject(
        { method: 'PUT', url, headers: { 'content-type': 'application/octet-stream' }, payload: bytes },
        null,
      );
      expect(res.statusCode).toBe(204);
      expect(blobs.requests[0]).toMatchObject({
        method: 'PUT',
        url,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
      // 2 MiB is over the JSON body limit, which the blob route does not have.
      expect(bytes.length).toBeGreaterThan(gw.config.bodyLimitBytes);
      expect(seen).toEqual([]);
    });

    it('keeps the JSON limit and the JSON-only rule on every other route', async () => {
      const big = await inject({
        method: 'POST',
        url: '/api/files/upload-complete',
        payload: { fileId: 'x'.repeat(gw.config.bodyLimitBytes) },
      });
      expect(big.statusCode).toBe(413);
      const octets = await inject({
        method: 'POST',
        url: '/api/files/upload-complete',
        headers: { 'content-type': 'application/octet-stream' },
        payload: Buffer.alloc(10),
      });
      expect(octets.statusCode).toBe(400);
      expect(octets.json()).toMatchObject({
        error: 'Request body must be JSON (Content-Type: application/json)',
      });
      const unknown = await inject({
        method: 'POST',
        url: '/api/nope',
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      expect(unknown.statusCode).toBe(404);
    });

    it('answers a GET with the object, Range and HEAD passed through, with security headers and no-store', async () => {
      const object = randomBytes(4096);
      blobs.handler = (req, res) => {
        const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
        const headers = { 'content-type': 'application/octet-stream', 'accept-ranges': 'bytes' };
        if (range) {
          const [start, end] = [Number(range[1]), Number(range[2])];
          res.writeHead(206, {
            ...headers,
            'content-range': `bytes ${start}-${end}/${object.length}`,
            'content-length': end - start + 1,
          });
          res.end(object.subarray(start, end + 1));
        } else {
          res.writeHead(200, { ...headers, 'content-length': object.length });
          res.end(req.method === 'HEAD' ? undefined : object);
        }
      };
      const url = signedGet(randomUUID(), randomUUID());
      const whole = await inject({ method: 'GET', url }, null);
      expect(whole.statusCode).toBe(200);
      expect(whole.rawPayload.equals(object)).toBe(true);
      expect(whole.headers).toMatchObject({
        'content-type': 'application/octet-stream',
        'content-length': '4096',
        'accept-ranges': 'bytes',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      expect(String(whole.headers['content-security-policy'])).toMatch(/^default-src 'self'/);

      const part = await inject({ method: 'GET', url, headers: { range: 'bytes=10-19' } }, null);
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe('bytes 10-19/4096');
      expect(part.rawPayload.equals(object.subarray(10, 20))).toBe(true);

      const head = await inject({ method: 'HEAD', url }, null);
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe('4096');
      expect(blobs.requests.map((r) => r.method)).toEqual(['GET', 'GET', 'HEAD']);
    });

    it('never logs the signature of a blob URL (it is a 5-minute credential)', async () => {
      const sig = randomBytes(32).toString('hex');
      const url = `/api/files/blob/${randomUUID()}/${randomUUID()}?op=get&exp=9999999999&sig=${sig}`;
      await inject({ method: 'GET', url }, null);
      const logged = gw.logs.join('\n');
      expect(logged).not.toContain(sig);
      expect(logged).toContain('sig=***');
    });

    it('counts the blob route per IP against its own limit', async () => {
      const ip = clientAddress();
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await gw.app.inject({
          method: 'HEAD',
          url: signedGet(randomUUID(), randomUUID()),
          remoteAddress: ip,
        });
        statuses.push(res.statusCode);
      }
      expect(statuses.slice(0, 6).every((s) => s !== 429)).toBe(true);
      expect(statuses[6]).toBe(429);
    });

    it('streams a multipart upload and a blob download over a real socket', async () => {
      const { hostname, port } = await socketAddress();
      const m = metadata(3 * 1024 * 1024);
      const bytes = randomBytes(m.encryptedSize);
      answer(FILES_PATTERNS.createUpload, {
        fileId: m.fileId,
        uploadUrl: signedPut(userId, m.fileId, m.encryptedSize),
        expiresAt: 'x',
      });
      answer(FILES_PATTERNS.completeUpload, { file: fileDto(m.fileId) });
      const body = form([...fieldsOf(m), { file: bytes }]);
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            hostname,
            port,
            method: 'POST',
            path: '/api/files/cloudinary/upload',
            headers: {
              authorization: `Bearer ${bearer}`,
              'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
              'content-length': body.length,
            },
          },
          (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0)),
        );
        req.on('error', reject);
        // In 64 KiB writes, as a browser would send it.
        for (let i = 0; i < body.length; i += 65_536) req.write(body.subarray(i, i + 65_536));
        req.end();
      });
      expect(status).toBe(201);
      expect(blobs.requests[0]).toMatchObject({
        bytes: m.encryptedSize,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });

      blobs.handler = (_req, res) => res.writeHead(200, { 'content-length': bytes.length }).end(bytes);
      const downloaded = await new Promise<Buffer>((resolve, reject) => {
        httpRequest({ hostname, port, path: signedGet(userId, m.fileId) }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve(Buffer.concat(chunks)));
        })
          .on('error', reject)
          .end();
      });
      expect(downloaded.equals(bytes)).toBe(true);
    });
  });

  it('refuses a large upload without a token at once, then closes the connection instead of reading it all', async () => {
    const { hostname, port } = await socketAddress();
    const started = Date.now();
    const answer = await new Promise<{ status: number; closedAfterMs: number }>((resolve) => {
      let status = 0;
      const req = httpRequest({
        hostname,
        port,
        method: 'POST',
        path: '/api/files/cloudinary/upload',
        headers: {
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'content-length': 50 * 1024 * 1024,
        },
      });
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
      });
      // The answer first, whole; then, with 49 MiB still owed, the server closes after its linger.
      req.on('close', () => resolve({ status, closedAfterMs: Date.now() - started }));
      // A reset at the end is fine: the answer was read before it.
      req.on('error', () => undefined);
      // Only the first megabyte is ever sent: the answer must not wait for the rest.
      req.write(Buffer.alloc(1024 * 1024));
    });
    expect(answer.status).toBe(401);
    expect(answer.closedAfterMs).toBeLessThan(REFUSED_BODY_LINGER_MS + 3_000);
    expect(blobs.requests).toEqual([]);
  });

  describe('health', () => {
    it('names files ok when its RPC and its HTTP listener answer (notes is down here)', async () => {
      const res = await inject({ method: 'GET', url: '/api/health' }, null);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        status: 'degraded',
        services: { gateway: 'ok', redis: 'ok', auth: 'ok', notes: 'down', files: 'ok' },
      });
    });
  });
});
