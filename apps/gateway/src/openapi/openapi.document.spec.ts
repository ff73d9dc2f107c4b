import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AUTH_MODE } from '../auth/auth.decorators';
import { RATE_LIMIT_BUCKET } from '../security/rate-limit.decorator';
import { AuthController } from '../routes/auth/auth.controller';
import { HealthController } from '../routes/health/health.controller';
import { NotesController } from '../routes/notes/notes.controller';
import { buildOpenApiDocument, ROUTES } from './openapi.document';

/** The routes of the brief and of api-contract.md that this gateway serves. */
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
  'get /api/notes',
  'get /api/notes/deleted',
  'get /api/notes/counts',
  'post /api/notes',
  'post /api/notes/batch',
  'put /api/notes/{id}',
  'delete /api/notes/{id}',
  'post /api/notes/{id}/restore',
  'delete /api/notes/{id}/permanent',
  'delete /api/notes/trash',
  'get /api/health',
  'get /api/health/live',
];

interface ControllerRoute {
  key: string;
  authMode: string;
  rateLimit: string;
}

/** Routes as Nest will register them, read from the controllers' decorators. */
function controllerRoutes(): ControllerRoute[] {
  const out: ControllerRoute[] = [];
  for (const controller of [AuthController, NotesController, HealthController]) {
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
        .replace(/:([A-Za-z]+)/g, '{$1}');
      out.push({
        key: `${RequestMethod[method].toLowerCase()} ${full}`,
        authMode:
          (Reflect.getMetadata(AUTH_MODE, handler) as string | undefined) ??
          (Reflect.getMetadata(AUTH_MODE, controller) as string | undefined) ??
          'required',
        rateLimit: (Reflect.getMetadata(RATE_LIMIT_BUCKET, handler) as string | undefined) ?? 'api',
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
          },
        },
      },
    });
    expect(schemas.CreateNoteBatchResponse).toMatchObject({
      required: ['notes'],
      properties: {
        notes: { type: 'array', items: { required: expect.arrayContaining(['id', 'createdAt']) } },
      },
    });
  });

  it('has no dangling $ref', () => {
    const schemas = (doc.components as { schemas: Record<string, unknown> }).schemas;
    const refs = JSON.stringify(doc).match(/#\/components\/schemas\/[A-Za-z0-9]+/g) ?? [];
    for (const ref of refs) expect(schemas).toHaveProperty(ref.split('/').pop() as string);
  });
});
