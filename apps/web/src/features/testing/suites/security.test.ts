// @vitest-environment node
import { describe, expect, it } from 'vitest';
import type { TestingContext } from '../model/context';
import type { CheckDefinition } from '../model/suite';
import { FakeVaultServer, fakeTestingContext } from '../testing/fake-vault-server';
import { securitySuite } from './security';
import { headerProblems, transportOf } from './security-headers';

const check = (id: string): CheckDefinition<TestingContext> => securitySuite.checks.find((c) => c.id === id)!;

describe('security suite', () => {
  it('passes the gateway’s headers, a hidden cookie, HTTPS, strong KDF, a good clock and a recovery key', async () => {
    const server = new FakeVaultServer();
    const ctx = fakeTestingContext(server);
    const outcomes = Object.fromEntries(
      await Promise.all(securitySuite.checks.map(async (c) => [c.id, (await c.run(ctx)).status] as const)),
    );
    expect(outcomes).toEqual({
      'security-headers-app': 'passed',
      'security-headers-api': 'passed',
      'security-refresh-cookie': 'passed',
      'security-https': 'passed',
      'security-kdf': 'passed',
      'security-clock': 'passed',
      'security-2fa': 'warning',
      'security-recovery-key': 'passed',
    });
  });

  it('quick runs the headers, the cookie and HTTPS', () => {
    expect(securitySuite.checks.filter((c) => c.quick).map((c) => c.id)).toEqual([
      'security-headers-app',
      'security-headers-api',
      'security-refresh-cookie',
      'security-https',
    ]);
  });

  it('names each missing header', () => {
    const bare = new Headers({ 'content-security-policy': "default-src 'self'" });
    expect(headerProblems(bare, true, true)).toEqual([
      'the CSP has no frame-ancestors',
      'no X-Content-Type-Options: nosniff',
      'no Strict-Transport-Security over HTTPS',
      'no Cache-Control: no-store',
    ]);
    expect(headerProblems(new Headers(), false, false)).toEqual([
      'no Content-Security-Policy',
      'no X-Content-Type-Options: nosniff',
    ]);
  });

  it('fails a refresh cookie readable by script', async () => {
    const ctx = fakeTestingContext(new FakeVaultServer(), { readCookies: () => 'a=1; vault_refresh=abc' });
    expect((await check('security-refresh-cookie').run(ctx)).status).toBe('failed');
  });

  it('warns on plain HTTP outside this machine only', async () => {
    expect(transportOf('http://localhost:5173/testing')).toBe('local-http');
    expect(transportOf('http://127.0.0.1/')).toBe('local-http');
    expect(transportOf('http://[::1]:8080/')).toBe('local-http');
    const ctx = fakeTestingContext(new FakeVaultServer(), { pageUrl: 'http://vault.example.org/testing' });
    expect(await check('security-https').run(ctx)).toEqual({
      status: 'warning',
      detail: 'plain HTTP on vault.example.org',
    });
  });

  it('warns when the device clock is more than 30 s off the server’s Date', async () => {
    const server = new FakeVaultServer();
    server.clockOffsetMs = 45_000;
    const outcome = await check('security-clock').run(fakeTestingContext(server));
    expect(outcome.status).toBe('warning');
    expect(outcome.metrics?.['skewMs']).toBeGreaterThan(43_000);
  });

  it('fails KDF parameters below the floors', async () => {
    const server = new FakeVaultServer();
    const weak: typeof fetch = async (input, init) => {
      if (String(input) !== '/api/auth/me') return server.fetch(input, init);
      const me = (await (await server.fetch(input, init)).json()) as { vault: { kdfParams: unknown } };
      // The contract refuses such parameters: the check must say so, not pass.
      me.vault.kdfParams = { kdf: 'pbkdf2-sha256', iterations: 1000 };
      return new Response(JSON.stringify(me), { headers: { 'content-type': 'application/json' } });
    };
    const ctx = fakeTestingContext({ ...server, fetch: weak } as FakeVaultServer);
    const outcome = await check('security-kdf').run(ctx);
    expect(outcome.status).toBe('failed');
  });
});
