import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientAddress, startGateway, type GatewayHarness } from './support/gateway-harness';

describe('gateway options', () => {
  describe('CORS_ORIGINS and WEB_ROOT set', () => {
    const webRoot = mkdtempSync(join(tmpdir(), 'vault-web-'));
    let gw: GatewayHarness;

    beforeAll(async () => {
      mkdirSync(join(webRoot, 'assets'));
      writeFileSync(
        join(webRoot, 'index.html'),
        '<!doctype html><title>Vault web app</title><div id="root"></div>',
      );
      writeFileSync(join(webRoot, 'assets', 'index-a1b2c3d4e5.js'), 'console.log(1)');
      writeFileSync(join(webRoot, 'env-config.js'), 'window.__ENV__={}');
      gw = await startGateway({
        env: { CORS_ORIGINS: 'https://app.example.com,http://localhost:5173', WEB_ROOT: webRoot },
      });
    });
    afterAll(async () => {
      await gw.close();
      rmSync(webRoot, { recursive: true, force: true });
    });

    it('allows exactly the configured origins, with credentials', async () => {
      const ok = await gw.app.inject({
        method: 'OPTIONS',
        url: '/api/auth/login',
        remoteAddress: clientAddress(),
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(ok.statusCode).toBe(204);
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
      expect(ok.headers['access-control-allow-credentials']).toBe('true');
      const other = await gw.app.inject({
        method: 'GET',
        url: '/api/health/live',
        remoteAddress: clientAddress(),
        headers: { origin: 'https://evil.example' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('serves the built web app: index.html, hashed assets cached for good, client routes fall back', async () => {
      const index = await gw.app.inject({ method: 'GET', url: '/' });
      expect(index.body).toContain('Vault web app');
      const asset = await gw.app.inject({ method: 'GET', url: '/assets/index-a1b2c3d4e5.js' });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toMatch(/javascript/);
      expect(asset.headers['cache-control']).toMatch(/max-age=31536000.*immutable/);
      // The runtime config is the gateway's own, never a stale file from the build folder.
      const runtimeConfig = await gw.app.inject({ method: 'GET', url: '/env-config.js' });
      expect(runtimeConfig.headers['cache-control']).toBe('no-store');
      expect(runtimeConfig.body).toContain('window.__VAULT_CONFIG__');
      expect(runtimeConfig.body).not.toContain('__ENV__');
      const route = await gw.app.inject({ method: 'GET', url: '/files/trash' });
      expect(route.statusCode).toBe(200);
      expect(route.body).toContain('Vault web app');
    });
  });

  describe('TRUST_PROXY', () => {
    it('ignores X-Forwarded-For by default', async () => {
      const gw = await startGateway({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2' } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 3; i++) {
          const res = await gw.app.inject({
            method: 'POST',
            url: '/api/auth/prelogin',
            remoteAddress: '10.0.0.1',
            headers: { 'x-forwarded-for': `203.0.113.${i}` },
            payload: { identifier: 'a' },
          });
          statuses.push(res.statusCode);
        }
        expect(statuses).toEqual([503, 503, 429]);
      } finally {
        await gw.close();
      }
    });

    it('when true, counts the client address the proxy added, not one a client forged', async () => {
      const gw = await startGateway({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '2', TRUST_PROXY: 'true' } });
      try {
        const send = (xff: string) =>
          gw.app.inject({
            method: 'POST',
            url: '/api/auth/prelogin',
            remoteAddress: '10.0.0.1',
            headers: { 'x-forwarded-for': xff },
            payload: { identifier: 'a' },
          });
        // Two clients behind the same proxy have separate limits.
        expect((await send('198.51.100.1')).statusCode).toBe(503);
        expect((await send('198.51.100.1')).statusCode).toBe(503);
        expect((await send('198.51.100.1')).statusCode).toBe(429);
        expect((await send('198.51.100.2')).statusCode).toBe(503);
        // A forged left-most entry does not buy a fresh limit: the proxy's entry counts.
        expect((await send('1.2.3.4, 198.51.100.1')).statusCode).toBe(429);
      } finally {
        await gw.close();
      }
    });
  });

  describe('SERVE_STATIC=false', () => {
    it('serves no web app: / answers 404 JSON', async () => {
      const gw = await startGateway({ env: { SERVE_STATIC: 'false' } });
      try {
        const res = await gw.app.inject({ method: 'GET', url: '/' });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
      } finally {
        await gw.close();
      }
    });
  });
});
