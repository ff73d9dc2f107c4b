import { Body, Controller, Get, Param } from '@nestjs/common';
import { noteIdParamSchema } from '@vault/contracts';
import { z } from 'zod';
import { GATEWAY_CONTROLLERS } from '../routes/controllers';
import { zodPipe } from '../validation/zod.pipe';
import { Route } from './api-doc';
import { mappedRoutes } from './mapped-routes';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.document';

type Operation = {
  security?: unknown[];
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: unknown }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  'x-rate-limit'?: string;
};

/**
 * What is wrong with the document of these controllers, one line a route: a route Nest maps that
 * the document lacks, or describes without a request schema where the handler takes a body, path
 * or query, without a success answer or error answers, or with other protection or rate limit than
 * the route's own decorators. Every route is read from Nest's metadata, not from a list here.
 */
function documentProblems(controllers: Parameters<typeof mappedRoutes>[0]): string[] {
  const doc = buildOpenApiDocument('test', controllers);
  const problems: string[] = [];
  const toSecurity = {
    public: [],
    optional: [{}, { bearer: [] }],
    required: [{ bearer: [] }],
    admin: [{ adminCookie: [] }],
  };
  for (const route of mappedRoutes(controllers)) {
    const key = `${route.method} ${route.path}`;
    const op = doc.paths[route.path]?.[route.method] as Operation | undefined;
    if (!op) {
      problems.push(`${key}: not in the document (no @Route)`);
      continue;
    }
    const body = route.args.body === undefined ? undefined : (route.doc?.body ?? route.args.body);
    if (route.args.body !== undefined && !body) problems.push(`${key}: a @Body without a schema`);
    const schemaOf = Object.values(op.requestBody?.content ?? {})[0]?.schema;
    if (body && !schemaOf) problems.push(`${key}: no request body in the document`);
    const inPath = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    const documentedPath = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
    if (inPath.join() !== documentedPath.join()) problems.push(`${key}: path parameters not described`);
    if (route.args.params === null && !route.doc?.params) problems.push(`${key}: a @Param without a schema`);
    if (route.args.query === null && !route.doc?.query) problems.push(`${key}: a @Query without a schema`);
    const statuses = Object.keys(op.responses ?? {}).map(Number);
    if (!statuses.some((s) => s < 300)) problems.push(`${key}: no success answer`);
    if (!statuses.includes(500)) problems.push(`${key}: no error answers`);
    const security = route.doc?.refreshCookie ? [{ refreshCookie: [] }] : toSecurity[route.auth];
    if (JSON.stringify(op.security) !== JSON.stringify(security)) problems.push(`${key}: other security`);
    if (op['x-rate-limit'] !== route.rateLimit) problems.push(`${key}: other rate limit`);
  }
  return problems;
}

describe('the document and the routes', () => {
  it('describes every route the gateway maps, with its schemas, answers, protection and limit', () => {
    expect(documentProblems(GATEWAY_CONTROLLERS)).toEqual([]);
  });

  it('documents nothing but the mapped routes', () => {
    const doc = buildOpenApiDocument();
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method} ${path}`),
    );
    const mapped = mappedRoutes(GATEWAY_CONTROLLERS).map((r) => `${r.method} ${r.path}`);
    expect(documented.sort()).toEqual(mapped.sort());
    expect(mapped.length).toBeGreaterThan(0);
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('catches a route added without a description or a schema', () => {
    @Controller('notes')
    class UndocumentedController {
      @Get('new')
      added(): string {
        return 'added';
      }

      @Route('post', ':id/plain', { summary: 'A body nothing checks', success: [] })
      plain(@Param(zodPipe(noteIdParamSchema)) _params: unknown, @Body() _body: unknown): void {}
    }
    expect(documentProblems([UndocumentedController])).toEqual([
      'get /api/notes/new: not in the document (no @Route)',
      'post /api/notes/{id}/plain: a @Body without a schema',
      'post /api/notes/{id}/plain: no success answer',
    ]);
  });

  it('refuses an answer schema without a name', () => {
    @Controller('notes')
    class UnnamedController {
      @Route('post', 'unnamed', {
        summary: 'An inline schema',
        success: [{ description: 'x', schema: z.object({ x: z.string() }) }],
      })
      unnamed(): void {}
    }
    expect(() => buildOpenApiDocument('test', [UnnamedController])).toThrow(/no name/);
  });
});

describe('buildOpenApiDocument', () => {
  const doc: OpenApiDocument = buildOpenApiDocument();

  it('is an OpenAPI 3.1 document', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
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

  it('documents the admin session routes: the admin cookie, its 401/403 and the cookie headers', () => {
    type Op = { security: unknown[]; responses: Record<string, Record<string, unknown>> } & Record<
      string,
      unknown
    >;
    const op = (method: string) => doc.paths['/api/admin/session']?.[method] as Op;
    expect(doc.components.securitySchemes['adminCookie']).toEqual({
      type: 'apiKey',
      in: 'cookie',
      name: 'vault_admin',
    });
    expect(op('get').security).toEqual([{ adminCookie: [] }]);
    expect(op('get')['x-admin-requirement']).toBe('session');
    expect(Object.keys(op('get').responses).sort()).toEqual(['200', '401', '403', '429', '500', '503']);
    expect(op('get').responses['403']?.['description']).toContain('ADMIN_2FA_REQUIRED');
    expect(op('get').responses['403']?.['description']).not.toContain('PERMISSION_DENIED');
    expect(op('post').security).toEqual([]);
    expect(op('post')['x-rate-limit']).toBe('auth');
    expect(op('post').responses['200']).toHaveProperty('headers.Set-Cookie');
    expect(JSON.stringify(op('post').responses['200'])).toContain('Path=/api/admin');
    expect(op('delete').responses['204']).toHaveProperty('headers.Set-Cookie');
    // Every permission-guarded admin route documents its 403s and the cookie scheme.
    for (const [path, methods] of Object.entries(doc.paths).filter(([p]) => p.startsWith('/api/admin/'))) {
      for (const [method, operation] of Object.entries(methods) as [string, Op][]) {
        if (!operation['x-admin-requirement']) continue;
        expect(operation.security).toEqual([{ adminCookie: [] }]);
        expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['401', '403']));
        if (operation['x-admin-requirement'] !== 'session') {
          expect(`${method} ${path}: ${String(operation.responses['403']?.['description'])}`).toContain(
            'PERMISSION_DENIED',
          );
        }
      }
    }
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
        expect((op(path, 'post') as { 'x-rate-limit'?: string })['x-rate-limit']).toBe('auth');
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
        expect((op('/api/files/blob/{objectKey}', method) as Operation)['x-rate-limit']).toBe('blob');
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
