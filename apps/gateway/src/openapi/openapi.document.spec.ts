import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AUTH_MODE } from '../auth/auth.decorators';
import { RATE_LIMIT_BUCKET } from '../security/rate-limit.decorator';
import { AuthController } from '../routes/auth/auth.controller';
import { TwoFactorController } from '../routes/auth/two-factor.controller';
import { RecoveryController } from '../routes/auth/recovery.controller';
import { AccountController } from '../routes/auth/account.controller';
import { FilesBlobController } from '../routes/files/files-blob.controller';
import { FilesController } from '../routes/files/files.controller';
import { HealthController } from '../routes/health/health.controller';
import { NotesController } from '../routes/notes/notes.controller';
import { buildOpenApiDocument, ROUTES } from './openapi.document';

/** The routes of the brief and of docs/api.md "Routes" that this gateway serves. */
const EXPECTED = [
  'post /api/auth/prelogin',
  'post /api/auth/signup',
  'post /api/auth/login',
  'post /api/auth/refresh',
  'post /api/auth/logout',
  'get /api/auth/me',
  'post /api/auth/change-password',
  'get /api/auth/sessions',
  'delete /api/auth/sessions/{id}',
  'delete /api/auth/account',
  'get /api/auth/settings',
  'put /api/auth/settings',
  'post /api/auth/verify-emergency',
  'get /api/notes',
  'get /api/notes/deleted',
  'get /api/notes/counts',
  'post /api/notes',
  'post /api/notes/batch',
  'put /api/notes/{id}',
  'put /api/notes/{id}/key',
  'delete /api/notes/{id}',
  'post /api/notes/{id}/restore',
  'delete /api/notes/{id}/permanent',
  'delete /api/notes/trash',
  'get /api/files/storage-types',
  'post /api/files/upload-url',
  'post /api/files/upload-complete',
  'post /api/files/cloudinary/upload-url',
  'post /api/files/cloudinary/upload',
  'get /api/files',
  'get /api/files/deleted',
  'get /api/files/counts',
  'delete /api/files/trash',
  'delete /api/files/{id}',
  'post /api/files/{id}/restore',
  'delete /api/files/{id}/permanent',
  'put /api/files/{id}/key',
  'get /api/files/{id}/metadata',
  'get /api/files/{id}/optimized',
  'post /api/files/{id}/download-url',
  'post /api/files/{id}/preview',
  'put /api/files/blob/{objectKey}',
  'get /api/files/blob/{objectKey}',
  'head /api/files/blob/{objectKey}',
  'get /api/health',
  'get /api/health/live',
  // Two-factor authentication (two-factor.routes.ts).
  'post /api/auth/2fa/login',
  'post /api/auth/2fa/backup-login',
  'post /api/auth/2fa/enable',
  'post /api/auth/2fa/verify',
  'post /api/auth/2fa/disable',
  'get /api/auth/2fa/backup-codes',
  'post /api/auth/2fa/backup-codes/regenerate',
  // Recovery (recovery.routes.ts).
  'post /api/auth/recovery/email-code',
  'post /api/auth/recovery/verify-email',
  'post /api/auth/recovery/setup-key',
  'post /api/auth/recovery/verify-key',
  'post /api/auth/recovery/setup-questions',
  'get /api/auth/security-questions',
  'post /api/auth/recovery/get-questions',
  'post /api/auth/recovery/verify-questions',
  'post /api/auth/recovery/reset',
  'get /api/auth/legacy-keys',
  'delete /api/auth/legacy-keys/{id}',
];

interface ControllerRoute {
  key: string;
  authMode: string;
  rateLimit: string;
}

/** Routes as Nest will register them, read from the controllers' decorators. */
function controllerRoutes(): ControllerRoute[] {
  const out: ControllerRoute[] = [];
  const controllers = [
    AuthController,
    TwoFactorController,
    RecoveryController,
    AccountController,
    NotesController,
    FilesController,
    FilesBlobController,
    HealthController,
  ];
  for (const controller of controllers) {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
    const proto = controller.prototype as unknown as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (path === undefined || method === undefined) continue;
      const full = ['/api', base, path]
        .filter((s) => s && s !== '/')
        .join('/')
        .replace(/\/+/g, '/')
        .replace(/:([A-Za-z]+)/g, '{$1}')
        // The blob route's wildcard is the signed object key (`<ownerId>/<fileId>`).
        .replace(/\/\*$/, '/{objectKey}');
      out.push({
        key: `${RequestMethod[method].toLowerCase()} ${full}`,
        authMode:
          (Reflect.getMetadata(AUTH_MODE, handler) as string | undefined) ??
          (Reflect.getMetadata(AUTH_MODE, controller) as string | undefined) ??
          'required',
        rateLimit:
          (Reflect.getMetadata(RATE_LIMIT_BUCKET, handler) as string | undefined) ??
          (Reflect.getMetadata(RATE_LIMIT_BUCKET, controller) as string | undefined) ??
          'api',
      });
    }
  }
  return out;
}

describe('buildOpenApiDocument', () => {
  const doc = buildOpenApiDocument();
  const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => `${method} ${path}`),
  );

  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it('contains every route of the gateway, and nothing else', () => {
    expect([...documented].sort()).toEqual([...EXPECTED].sort());
  });

  it('matches the routes the controllers declare', () => {
    expect(
      controllerRoutes()
        .map((r) => r.key)
        .sort(),
    ).toEqual([...documented].sort());
  });

  it('documents the same protection and rate limit the controllers apply', () => {
    const toSecurity = { public: 'none', optional: 'optional-bearer', required: 'bearer' } as const;
    for (const route of controllerRoutes()) {
      const doc = ROUTES.find((r) => `${r.method} ${r.path}` === route.key);
      const expected =
        route.key === 'post /api/auth/refresh' ? 'refresh-cookie' : toSecurity[route.authMode as 'public'];
      expect({ key: route.key, security: doc?.security, rateLimit: doc?.rateLimit }).toEqual({
        key: route.key,
        security: expected,
        rateLimit: route.rateLimit,
      });
    }
  });

  it('builds request bodies from the contract schemas, strict as they are', () => {
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    const signup = schemas.SignupBody as {
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    expect(signup.additionalProperties).toBe(false);
    expect(Object.keys(signup.properties).sort()).toEqual(
      [
        'authKey',
        'email',
        'kdfParams',
        'phoneNumber',
        'recovery',
        'salt',
        'username',
        'wrappedVaultKey',
      ].sort(),
    );
    expect(signup.properties.kdfParams).toHaveProperty('oneOf');
    expect(schemas.LoginBody).toMatchObject({ required: ['identifier', 'authKey'] });
  });

  it('documents error answers, with Retry-After on 423 and 429', () => {
    const login = doc.paths['/api/auth/login']?.post as {
      responses: Record<string, Record<string, unknown>>;
    };
    expect(Object.keys(login.responses).sort()).toEqual(
      ['200', '400', '401', '413', '418', '423', '429', '500', '503'].sort(),
    );
    expect(login.responses['423']).toHaveProperty('headers.Retry-After');
    expect(login.responses['429']).toHaveProperty('headers.Retry-After');
    expect(login.responses['200']).toHaveProperty('headers.Set-Cookie');
  });

  it('documents the notes routes: query parameters, path ids, 201/204, 404/409/413 and 503', () => {
    type Op = { parameters?: { name: string; in: string }[]; responses: Record<string, unknown> };
    const op = (path: string, method: string) => doc.paths[path]?.[method] as Op;
    expect(op('/api/notes', 'get').parameters?.map((p) => `${p.in}:${p.name}`)).toEqual([
      'query:limit',
      'query:cursor',
    ]);
    expect(op('/api/notes/{id}', 'put').parameters?.map((p) => `${p.in}:${p.name}`)).toEqual(['path:id']);
    expect(Object.keys(op('/api/notes', 'post').responses).sort()).toEqual(
      ['201', '400', '401', '409', '413', '429', '500', '503'].sort(),
    );
    expect(Object.keys(op('/api/notes/{id}/permanent', 'delete').responses)).toEqual(
      expect.arrayContaining(['204', '404', '503']),
    );
    expect(Object.keys(op('/api/notes/trash', 'delete').responses)).toEqual(expect.arrayContaining(['200']));
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    expect(schemas.CreateNoteBody).toMatchObject({
      additionalProperties: false,
      required: ['id', 'title', 'content', 'tags', 'wrappedDEK'],
    });
  });

  it('documents the batch create: 201 with the notes in order, 400/409/413, at most 100 strict notes', () => {
    type Op = { requestBody?: unknown; responses: Record<string, { content?: unknown }> };
    const batch = doc.paths['/api/notes/batch']?.post as Op;
    expect(Object.keys(batch.responses).sort()).toEqual(
      ['201', '400', '401', '409', '413', '429', '500', '503'].sort(),
    );
    expect(batch.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateNoteBatchBody' } } },
    });
    expect(batch.responses['201']?.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/CreateNoteBatchResponse' } },
    });
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;
    expect(schemas.CreateNoteBatchBody).toMatchObject({
      additionalProperties: false,
      required: ['notes'],
      properties: {
        notes: {
          type: 'array',
          minItems: 1,
          maxItems: 100,
          items: {
            additionalProperties: false,
            required: ['id', 'title', 'content', 'tags', 'wrappedDEK'],
            properties: {
              createdAt: {
                type: 'string',
                format: 'date-time',
                description: expect.stringContaining('backup'),
              },
              updatedAt: {
                type: 'string',
                format: 'date-time',
                description: expect.stringContaining('backup'),
              },
            },
          },
        },
      },
    });
    expect((batch as { summary?: string }).summary).toMatch(/createdAt.*updatedAt.*2000-01-01.*5 minutes/);
    expect(schemas.CreateNoteBatchResponse).toMatchObject({
      required: ['notes'],
      properties: {
        notes: { type: 'array', items: { required: expect.arrayContaining(['id', 'createdAt']) } },
      },
    });
  });

  describe('files routes', () => {
    type Op = {
      parameters?: { name: string; in: string }[];
      requestBody?: { content: Record<string, { schema: unknown }> };
      responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>;
      security: unknown[];
    };
    const op = (path: string, method: string) => doc.paths[path]?.[method] as Op;
    const statuses = (path: string, method: string) => Object.keys(op(path, method).responses).sort();
    const schemas = (doc.components as { schemas: Record<string, Record<string, unknown>> }).schemas;

    it('answers 201 to the upload URLs and the multipart upload, which create a pending file', () => {
      expect(statuses('/api/files/upload-url', 'post')).toEqual(
        ['201', '400', '401', '409', '413', '429', '500', '503'].sort(),
      );
      expect(statuses('/api/files/cloudinary/upload-url', 'post')).toContain('201');
      expect(statuses('/api/files/cloudinary/upload', 'post')).toEqual(
        ['201', '400', '401', '409', '413', '429', '500', '503'].sort(),
      );
      expect(statuses('/api/files/upload-complete', 'post')).toEqual(
        ['200', '400', '401', '404', '413', '429', '500', '503'].sort(),
      );
    });

    it('describes the upload bodies with the contract schemas, strict, and the form as multipart with the file last', () => {
      expect(schemas.CreateUploadBody).toMatchObject({
        additionalProperties: false,
        required: expect.arrayContaining(['fileId', 'size', 'encryptedSize', 'storageType']),
        properties: { size: { type: 'integer', maximum: 104_857_600 } },
      });
      const form = op('/api/files/cloudinary/upload', 'post').requestBody?.content;
      expect(Object.keys(form ?? {})).toEqual(['multipart/form-data']);
      expect(schemas.CloudinaryUploadForm).toMatchObject({
        required: expect.arrayContaining(['fileId', 'encryptedSize', 'file']),
        properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
      });
      expect(schemas.CloudinaryUploadForm?.required).not.toContain('storageType');
    });

    it('puts the password-checked routes on the auth limit, with 401/403/404/423 documented', () => {
      for (const path of ['/api/files/{id}/download-url', '/api/files/{id}/preview']) {
        expect(ROUTES.find((r) => r.path === path)?.rateLimit).toBe('auth');
        expect(statuses(path, 'post')).toEqual(
          ['200', '400', '401', '403', '404', '413', '423', '429', '500', '503'].sort(),
        );
        expect(schemas.FileAccessBody).toMatchObject({ required: ['authKey'], additionalProperties: false });
      }
    });

    it('documents the trash, the per-id routes (path id), the counts and the thumbnail query', () => {
      expect(statuses('/api/files/{id}', 'delete')).toEqual(expect.arrayContaining(['204', '400', '404']));
      expect(statuses('/api/files/{id}/permanent', 'delete')).toEqual(
        expect.arrayContaining(['204', '404', '503']),
      );
      expect(statuses('/api/files/trash', 'delete')).toContain('200');
      expect(op('/api/files/{id}/optimized', 'get').parameters?.map((p) => `${p.in}:${p.name}`)).toEqual([
        'path:id',
        'query:width',
        'query:height',
        'query:quality',
        'query:format',
      ]);
      expect(schemas.FileCountsResponse).toMatchObject({ required: ['active', 'deleted', 'bytes'] });
    });

    it('documents upload parts: partSize on the upload-url answer, Content-Range on the blob PUT', () => {
      const answer = schemas.CreateUploadResponse as {
        properties: Record<string, unknown>;
        required: string[];
      };
      expect(answer.properties.partSize).toMatchObject({ type: 'integer' });
      expect(answer.required).not.toContain('partSize');
      expect(op('/api/files/blob/{objectKey}', 'put').parameters?.map((p) => `${p.in}:${p.name}`)).toContain(
        'header:Content-Range',
      );
      expect(op('/api/files/blob/{objectKey}', 'get').parameters?.map((p) => p.in)).not.toContain('header');
    });

    it('documents the blob route as public, on its own limit, bytes in and out, 206 with Content-Range', () => {
      for (const method of ['put', 'get', 'head']) {
        expect(op('/api/files/blob/{objectKey}', method).security).toEqual([]);
        expect(
          ROUTES.find((r) => r.method === method && r.path === '/api/files/blob/{objectKey}')?.rateLimit,
        ).toBe('blob');
      }
      expect(Object.keys(op('/api/files/blob/{objectKey}', 'put').requestBody?.content ?? {})).toEqual([
        'application/octet-stream',
      ]);
      expect(statuses('/api/files/blob/{objectKey}', 'put')).toEqual(
        ['204', '400', '403', '409', '413', '429', '500', '503'].sort(),
      );
      const get = op('/api/files/blob/{objectKey}', 'get');
      expect(Object.keys(get.responses['200']?.content ?? {})).toEqual(['application/octet-stream']);
      expect(get.responses['206']?.headers).toHaveProperty('Content-Range');
      expect(statuses('/api/files/blob/{objectKey}', 'get')).toEqual(
        expect.arrayContaining(['200', '206', '403', '404', '503']),
      );
    });
  });

  it('has no dangling $ref', () => {
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? [];
    for (const ref of refs) expect(schemas).toHaveProperty(ref.split('/').pop() as string);
  });
});
