// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { TestingContext } from '../model/context';
import type { CheckDefinition } from '../model/suite';
import { FakeVaultServer, fakeTestingContext } from '../testing/fake-vault-server';
import { e2eSuite } from './e2e';

const check = (id: string): CheckDefinition<TestingContext> => e2eSuite.checks.find((c) => c.id === id)!;

const writes = (server: FakeVaultServer, from = 0) =>
  server.requests.slice(from).filter((r) => r.method !== 'GET' && !r.path.startsWith('/api/auth/refresh'));

describe('e2e suite', () => {
  it('round-trips a note and a file, stores no plaintext and leaves nothing behind', async () => {
    const server = new FakeVaultServer();
    const lines: string[] = [];
    const ctx = fakeTestingContext(server, { log: (l) => lines.push(l) });
    const note = await check('e2e-note').run(ctx);
    expect(note.status).toBe('passed');
    const file = await check('e2e-file').run(ctx);
    expect(file).toMatchObject({ status: 'passed', detail: expect.stringContaining('stored bytes checked') });
    expect(server.notes.size).toBe(0);
    expect(server.files.size).toBe(0);
    expect(server.blobs.size).toBe(0);
    expect(lines).toContain('the stored copy holds none of the plaintext');
    expect(server.requests.some((r) => r.method === 'PUT' && r.path.startsWith('/blob/'))).toBe(true);
  });

  it('checks the file record only when the page has no password to download with', async () => {
    const server = new FakeVaultServer();
    const outcome = await check('e2e-file').run(fakeTestingContext(server, { fileAuthKey: undefined }));
    expect(outcome).toMatchObject({
      status: 'passed',
      detail: expect.stringContaining('need your password'),
    });
    expect(server.requests.some((r) => r.path.endsWith('/download-url'))).toBe(false);
    expect(server.files.size).toBe(0);
  });

  it('warns that the download part was skipped when the password dialog was cancelled', async () => {
    const server = new FakeVaultServer();
    const lines: string[] = [];
    const ctx = fakeTestingContext(server, { fileAuthKey: async () => null, log: (l) => lines.push(l) });
    const outcome = await check('e2e-file').run(ctx);
    expect(outcome).toEqual({
      status: 'warning',
      detail:
        'uploaded, read back, decrypted and deleted for good; nothing left; the download part was skipped: no password was given',
    });
    expect(lines).toContain('content download skipped: no password was given');
    expect(server.requests.some((r) => r.path.endsWith('/download-url'))).toBe(false);
    expect(server.files.size + server.blobs.size).toBe(0);
  });

  it('warns, naming the answer, when the typed password is not accepted', async () => {
    const server = new FakeVaultServer();
    const wrongPassword: typeof fetch = async (input, init) => {
      if (!String(input).endsWith('/download-url')) return server.fetch(input, init);
      return new Response(JSON.stringify({ error: 'Invalid password', code: 'INVALID_PASSWORD' }), {
        status: 401,
        headers: { 'content-type': 'application/json' },
      });
    };
    const lines: string[] = [];
    const ctx = fakeTestingContext({ ...server, fetch: wrongPassword } as FakeVaultServer, {
      log: (l) => lines.push(l),
    });
    const outcome = await check('e2e-file').run(ctx);
    expect(outcome.status).toBe('warning');
    expect(outcome.detail).toContain('the download part was skipped: the password was not accepted');
    expect(lines.join('\n')).toContain('answered 401 (Invalid password, INVALID_PASSWORD)');
    expect(server.files.size + server.blobs.size).toBe(0);
  });

  it('fails when the download URL fails for another reason', async () => {
    const server = new FakeVaultServer();
    const broken: typeof fetch = async (input, init) =>
      String(input).endsWith('/download-url')
        ? new Response(JSON.stringify({ error: 'Storage unavailable', code: 'STORAGE_ERROR' }), {
            status: 503,
            headers: { 'content-type': 'application/json' },
          })
        : server.fetch(input, init);
    const ctx = fakeTestingContext({ ...server, fetch: broken } as FakeVaultServer);
    const outcome = await check('e2e-file').run(ctx);
    expect(outcome.status).toBe('failed');
    expect(outcome.detail).toContain('POST /api/files/{id}/download-url answered 503');
    expect(server.files.size).toBe(0);
  });

  it('quick runs the note round trip only', () => {
    expect(e2eSuite.checks.filter((c) => c.quick).map((c) => c.id)).toEqual(['e2e-note']);
  });

  it.each([500, 503])('fails with a clear detail when notes answers %i', async (status) => {
    const server = new FakeVaultServer();
    server.notesDown = status;
    const outcome = await check('e2e-note').run(fakeTestingContext(server));
    expect(outcome.status).toBe('failed');
    expect(outcome.detail).toContain(`GET /api/notes/counts answered ${status}`);
  });

  it('fails the zero-knowledge canary when the server stores plaintext, and still cleans up', async () => {
    const server = new FakeVaultServer();
    server.leakCanary = true;
    const outcome = await check('e2e-note').run(fakeTestingContext(server));
    expect(outcome).toEqual({
      status: 'failed',
      detail: 'Zero-knowledge canary: the stored note contains the plaintext marker',
    });
    expect(server.notes.size).toBe(0);
  });

  it('fails when the vault is locked, without touching the server', async () => {
    const server = new FakeVaultServer();
    const outcome = await check('e2e-note').run(fakeTestingContext(server, { vaultKey: null }));
    expect(outcome.status).toBe('failed');
    expect(server.requests).toEqual([]);
  });

  it.each(['e2e-note', 'e2e-file'])('%s: Stop starts no further request but the clean-up', async (id) => {
    const server = new FakeVaultServer();
    const controller = new AbortController();
    let abortedAt = -1;
    let storedAtStop = 0;
    // Stop on the first read-back, once the item is stored on the server.
    server.onRequest = (req) => {
      if (abortedAt < 0 && /^\/api\/(notes\?limit=5|files\/[^/]+\/metadata)$/.test(req.path)) {
        controller.abort();
        abortedAt = req.at;
        storedAtStop = server.notes.size + server.files.size;
      }
    };
    const ctx = fakeTestingContext(server, { signal: controller.signal });
    await expect(check(id).run(ctx)).rejects.toMatchObject({ name: 'AbortError' });
    const after = server.requests.slice(abortedAt + 1);
    expect(after.every((r) => r.method === 'DELETE')).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    expect(writes(server, abortedAt + 1).length).toBe(after.length);
    expect(server.notes.size + server.files.size + server.blobs.size).toBe(0);
    expect(storedAtStop).toBe(1);
    expect(server.requests.some((r) => r.path.includes('permanent'))).toBe(true);
  });
});
