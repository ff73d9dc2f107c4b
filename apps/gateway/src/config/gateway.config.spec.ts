import { generateKeyPairSync } from 'node:crypto';
import { describeConfig, loadGatewayConfig } from './gateway.config';

const publicPem = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();

describe('loadGatewayConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      auth: { host: '127.0.0.1', port: 4001 },
      notes: { host: '127.0.0.1', port: 4002 },
      files: { host: '127.0.0.1', port: 4003, httpUrl: 'http://127.0.0.1:4013' },
      admin: { host: '127.0.0.1', port: 4004 },
      storageOrigins: {},
      serveStatic: true,
      trustProxy: false,
      corsOrigins: [],
      cookieSecure: 'auto',
      rateLimit: { authPerMinute: 30, apiPerMinute: 600, blobPerMinute: 600 },
      bodyLimitBytes: 1_153_434,
      rpc: { transport: 'tcp', timeoutMs: 10_000 },
      redis: { url: 'redis://127.0.0.1:6379', prefix: 'vault:' },
    });
    expect(config.webRoot).toBeUndefined();
  });

  it('opens the internal ops listener (probes, /metrics) only with HEALTH_PORT, never on the public port', () => {
    expect(loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem }).ops).toEqual({ host: '0.0.0.0' });
    expect(
      loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, HEALTH_PORT: '9090', HEALTH_HOST: '10.0.0.5' }).ops,
    ).toEqual({ host: '10.0.0.5', port: 9090 });
    expect(loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, HEALTH_PORT: '0' }).ops.port).toBe(0);
    expect(() =>
      loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, GATEWAY_PORT: '9090', HEALTH_PORT: '9090' }),
    ).toThrow(/HEALTH_PORT: must differ from GATEWAY_PORT/);
  });

  it('reads where the notes service listens from NOTES_RPC_HOST / NOTES_RPC_PORT', () => {
    const config = loadGatewayConfig({
      JWT_PUBLIC_KEY: publicPem,
      NOTES_RPC_HOST: 'notes',
      NOTES_RPC_PORT: '5002',
    });
    expect(config.notes).toEqual({ host: 'notes', port: 5002 });
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, NOTES_RPC_PORT: '0' })).toThrow(
      /NOTES_RPC_PORT/,
    );
  });

  it('reads where the files service listens: FILES_RPC_HOST / FILES_RPC_PORT and FILES_HTTP_URL', () => {
    const config = loadGatewayConfig({
      JWT_PUBLIC_KEY: publicPem,
      FILES_RPC_HOST: 'files',
      FILES_RPC_PORT: '5003',
      FILES_HTTP_URL: 'http://files:4013/',
    });
    expect(config.files).toEqual({ host: 'files', port: 5003, httpUrl: 'http://files:4013' });
  });

  it.each([
    ['a path', 'http://files:4013/api'],
    ['a query', 'http://files:4013?x=1'],
    ['another scheme', 'ftp://files:4013'],
    ['no URL at all', 'files:4013'],
    ['credentials', 'http://user:pw@files:4013'],
  ])('refuses a FILES_HTTP_URL with %s', (_label, value) => {
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, FILES_HTTP_URL: value })).toThrow(
      /FILES_HTTP_URL/,
    );
  });

  it('keeps only the origin of S3_PUBLIC_ENDPOINT and CLOUDINARY_UPLOAD_ORIGIN (for the CSP)', () => {
    const config = loadGatewayConfig({
      JWT_PUBLIC_KEY: publicPem,
      S3_PUBLIC_ENDPOINT: 'https://s3.example.com:9000/vault-files',
      CLOUDINARY_UPLOAD_ORIGIN: 'https://api.cloudinary.com',
    });
    expect(config.storageOrigins).toEqual({
      s3: 'https://s3.example.com:9000',
      cloudinaryUpload: 'https://api.cloudinary.com',
    });
    expect(loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, S3_PUBLIC_ENDPOINT: ' ' }).storageOrigins).toEqual(
      {},
    );
    expect(() =>
      loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, S3_PUBLIC_ENDPOINT: "https://x.com 'unsafe-eval'" }),
    ).toThrow(/S3_PUBLIC_ENDPOINT: not an http\(s\) URL/);
    expect(() =>
      loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, CLOUDINARY_UPLOAD_ORIGIN: 'javascript:alert(1)' }),
    ).toThrow(/CLOUDINARY_UPLOAD_ORIGIN/);
  });

  it('holds several public keys while the signing key is rotated, each an Ed25519 SPKI block', () => {
    const next = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(loadGatewayConfig({ JWT_PUBLIC_KEY: `${publicPem}\n${next}` }).jwtPublicKeys).toEqual([
      publicPem.trim(),
      next.trim(),
    ]);
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: `${publicPem}\n${next}\n${next}\n${next}` })).toThrow(
      /JWT_PUBLIC_KEY: at most 3 keys/,
    );
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: `${publicPem}\n${ec.toString()}` })).toThrow(
      /JWT_PUBLIC_KEY: must be an Ed25519 public key/,
    );
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: `${publicPem}\ngarbage` })).toThrow(
      /JWT_PUBLIC_KEY: must be an Ed25519 public key/,
    );
  });

  it('accepts a PEM written on one line with literal \\n', () => {
    const config = loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem.trim().replace(/\n/g, '\\n') });
    expect(config.jwtPublicKeys).toEqual([publicPem.trim()]);
  });

  it('parses CORS origins, TRUST_PROXY and booleans', () => {
    const config = loadGatewayConfig({
      JWT_PUBLIC_KEY: publicPem,
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      TRUST_PROXY: 'true',
      SERVE_STATIC: 'false',
    });
    expect(config.corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(config.trustProxy).toBe(true);
    expect(config.serveStatic).toBe(false);
    expect(
      loadGatewayConfig({ JWT_PUBLIC_KEY: publicPem, TRUST_PROXY: '10.0.0.0/8,loopback' }).trustProxy,
    ).toEqual(['10.0.0.0/8', 'loopback']);
  });

  it('lists every problem at once, the missing key included', () => {
    let message = '';
    try {
      loadGatewayConfig({
        RATE_LIMIT_AUTH_PER_MINUTE: 'lots',
        CORS_ORIGINS: 'https://x.com/path',
        COOKIE_SECURE: 'yes',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Invalid configuration:/);
    for (const line of [
      'RATE_LIMIT_AUTH_PER_MINUTE: must be a number',
      'CORS_ORIGINS: not an origin',
      'COOKIE_SECURE:',
      'JWT_PUBLIC_KEY: required',
    ]) {
      expect(message).toContain(line);
    }
  });

  it('refuses a key that is not an Ed25519 SPKI PEM', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: rsa.toString() })).toThrow(
      /must be an Ed25519 public key/,
    );
    expect(() => loadGatewayConfig({ JWT_PUBLIC_KEY: 'secret' })).toThrow(/must be an Ed25519 public key/);
  });

  it('never puts the key or a Redis password in what is logged', () => {
    const config = loadGatewayConfig({
      JWT_PUBLIC_KEY: publicPem,
      REDIS_URL: 'redis://user:s3cret@redis:6379',
    });
    const logged = JSON.stringify(describeConfig(config));
    expect(logged).not.toContain('BEGIN PUBLIC KEY');
    expect(logged).not.toContain('s3cret');
  });
});
