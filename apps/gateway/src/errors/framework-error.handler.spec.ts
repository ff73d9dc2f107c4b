import Fastify, { type FastifyInstance } from 'fastify';
import { frameworkErrorHandler } from './framework-error.handler';

describe('frameworkErrorHandler (requests the router refuses before any route)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ frameworkErrors: frameworkErrorHandler, genReqId: () => 'req-1' });
    app.delete('/api/notes/:id', async () => ({ deleted: true }));
    await app.ready();
  });
  afterAll(() => app.close());

  const long = 'a'.repeat(101);

  it('a path segment past 100 characters: 404 NOT_FOUND with our shape, the path not echoed', async () => {
    const res = await app.inject({ method: 'DELETE', url: `/api/notes/${long}` });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found', code: 'NOT_FOUND', requestId: 'req-1' });
    expect(res.body).not.toContain(long);
  });

  it('a path that is not valid percent-encoding: 400 VALIDATION_FAILED "Malformed URL"', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/notes/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'Malformed URL', code: 'VALIDATION_FAILED', requestId: 'req-1' });
  });

  it('sets the headers of an API error answer (no route hook runs for it)', async () => {
    const res = await app.inject({ method: 'DELETE', url: `/api/notes/${long}` });
    expect(res.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'req-1',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
  });

  it('a segment of 100 characters still reaches its route', async () => {
    const res = await app.inject({ method: 'DELETE', url: `/api/notes/${'a'.repeat(100)}` });
    expect(res.statusCode).toBe(200);
  });
});
