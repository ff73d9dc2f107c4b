// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { TestingContext } from '../model/context';
import type { CheckDefinition } from '../model/suite';
import { FakeVaultServer, fakeTestingContext } from '../testing/fake-vault-server';
import { apiSuite } from './api';

const check = (id: string): CheckDefinition<TestingContext> => {
  const found = apiSuite.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

describe('api suite', () => {
  it('passes against a server that keeps the contract', async () => {
    const server = new FakeVaultServer();
    const ctx = fakeTestingContext(server);
    for (const c of apiSuite.checks) {
      const outcome = await c.run(ctx);
      expect({ id: c.id, ...outcome }).toMatchObject({ id: c.id, status: 'passed' });
    }
    expect(server.requests.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/api/auth/me', '/api/notes?limit=1', '/api/files/counts', '/api/about']),
    );
  });

  it('has a 3-check quick subset', () => {
    expect(apiSuite.checks.filter((c) => c.quick).map((c) => c.id)).toEqual([
      'api-contract',
      'api-health',
      'api-unauthenticated',
    ]);
  });

  it.each([500, 503])('fails with a clear detail when notes answers %i', async (status) => {
    const server = new FakeVaultServer();
    server.notesDown = status;
    const ctx = fakeTestingContext(server);
    const contract = await check('api-contract').run(ctx);
    expect(contract.status).toBe('failed');
    expect(contract.detail).toContain(`GET /api/notes/counts answered ${status}`);
    const health = await check('api-health').run(ctx);
    expect(health).toEqual({ status: 'failed', detail: 'GET /api/health answered 503: down: notes' });
  });

  it('fails when an answer does not match its schema, naming the field', async () => {
    const server = new FakeVaultServer();
    const real = server.fetch;
    const ctx = fakeTestingContext(server, {});
    const broken: typeof fetch = async (input, init) => {
      if (String(input) === '/api/files/counts') {
        return new Response(JSON.stringify({ active: 'two', deleted: 0, bytes: 0 }), {
          headers: { 'content-type': 'application/json' },
        });
      }
      return real(input, init);
    };
    const outcome = await check('api-contract').run({
      ...ctx,
      api: fakeTestingContext({ ...server, fetch: broken } as FakeVaultServer).api,
    });
    expect(outcome.status).toBe('failed');
    expect(outcome.detail).toContain('GET /api/files/counts');
  });

  it('fails when a call without a session is not refused, or the 404 carries no code', async () => {
    const server = new FakeVaultServer();
    const open: typeof fetch = async () =>
      new Response(JSON.stringify({}), { status: 200, headers: { 'content-type': 'application/json' } });
    const unauth = await check('api-unauthenticated').run(fakeTestingContext(server, { fetch: open }));
    expect(unauth).toEqual({
      status: 'failed',
      detail: 'GET /api/auth/me without a session answered 200, not 401',
    });

    const bare: typeof fetch = async (input, init) => {
      const res = await server.fetch(input, init);
      return res.status === 404
        ? new Response(JSON.stringify({ error: 'Not found' }), {
            status: 404,
            headers: { 'content-type': 'application/json' },
          })
        : res;
    };
    const ctx = fakeTestingContext(server);
    const notFound = await check('api-not-found').run({
      ...ctx,
      api: fakeTestingContext({ ...server, fetch: bare } as FakeVaultServer).api,
    });
    expect(notFound.status).toBe('failed');
    expect(notFound.detail).toContain('lacks {error, code} (code:');
  });

  it('probes 404 with a fresh random v4 id', async () => {
    const server = new FakeVaultServer();
    await check('api-not-found').run(fakeTestingContext(server));
    const ids = server.requests.map((r) => /\/(?:files|notes)\/([0-9a-f-]{36})\//.exec(r.path)?.[1]);
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
