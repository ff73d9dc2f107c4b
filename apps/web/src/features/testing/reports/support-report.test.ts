import { describe, expect, it } from 'vitest';
import type { SuiteRun } from '../model/suite';
import { redact } from './redact';
import { readBrowserInfo, readServerSettings, userSecrets, type SupportInfo } from './support-info';
import { supportReport } from './support-report';

const EMAIL = 'alice.smith@example.org';
const USER_ID = '3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b';
const NOTE_ID = '0a1b2c3d-4e5f-4a7b-8c9d-0e1f2a3b4c5d';
const JWT =
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIzZjJiOGMxZSIsImV4cCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlLXNpZ25hdHVyZS1zaWc';
const SEALED = `${'ab'.repeat(20)}:${'cd'.repeat(12)}`;
const KEY_HEX = 'f'.repeat(8) + '0123456789abcdef'.repeat(3) + 'a'.repeat(8);
const REFRESH = 'Rk9vYmFyQmF6UXV4X3JlZnJlc2gtdG9rZW4tMTIzNDU2';
const IP = '203.0.113.42';
const SECRETS = [EMAIL, 'alice.smith', USER_ID, NOTE_ID, JWT, SEALED, KEY_HEX, REFRESH, IP, '2001:db8::17'];

const info: SupportInfo = {
  browser: {
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    language: 'en-GB',
    hardwareConcurrency: 8,
    crossOriginIsolated: false,
    secureContext: true,
    storage: { usage: 5 * 1024 * 1024, quota: 1024 * 1024 * 1024 },
  },
  server: {
    config: { apiBaseUrl: '/api', inactivityTimeoutMs: 600_000, inactivityWarningMs: 60_000 },
    storage: { types: ['local', 's3'], default: 's3' },
    health: { status: 'degraded', services: { gateway: 'ok', notes: 'down' } },
  },
  secrets: userSecrets({ id: USER_ID, email: EMAIL }),
};

const run = (over: Partial<SuiteRun>): SuiteRun => ({
  suiteId: 'api',
  status: 'failed',
  quick: false,
  startedAt: '2026-11-26T18:50:48.000Z',
  durationMs: 1234,
  checks: [],
  errors: [],
  output: [],
  ...over,
});

const runs: SuiteRun[] = [
  run({
    suiteId: 'security',
    checks: [
      {
        id: 'security-refresh-cookie',
        name: 'Refresh cookie',
        status: 'failed',
        detail: `document.cookie shows vault_refresh=${REFRESH}; user ${EMAIL} (${USER_ID}) from ${IP}`,
        durationMs: 12,
      },
      {
        id: 'api-contract',
        name: 'Contract',
        status: 'failed',
        detail: `note ${NOTE_ID}: wrappedDEK ${SEALED}, authKey: ${KEY_HEX}, Authorization: Bearer ${JWT} via 2001:db8::17`,
        durationMs: 40,
        metrics: { medianMs: 12.5 },
      },
    ],
    errors: [`user alice.smith failed with ${JWT}`],
    output: [`FAIL token=${JWT} for ${EMAIL}`, `key ${KEY_HEX}`],
  }),
  run({
    suiteId: 'crypto',
    status: 'passed',
    checks: [
      {
        id: 'crypto-aes-gcm',
        name: 'AES',
        status: 'passed',
        detail: 'AES-256-GCM: 412 MB/s',
        durationMs: 900,
      },
    ],
  }),
];

const about = {
  version: '1.4.0',
  commit: 'c0ffee1234567890abcdef1234567890abcdef12',
  builtAt: '2026-11-01T00:00:00Z',
  environment: 'production',
};
const report = supportReport({
  ...info,
  about,
  runs,
  nameOf: (id) => `Suite ${id}`,
  now: new Date('2026-11-26T19:00:00Z'),
});

describe('the support report', () => {
  it('carries the build, browser, server settings and each suite’s statuses, checks and metrics', () => {
    for (const part of [
      'version: 1.4.0',
      'commit: c0ffee123456',
      'environment: production',
      'user agent: Mozilla/5.0 (X11; Linux x86_64)',
      'language: en-GB',
      'cores: 8',
      'cross-origin isolated: no',
      'secure context: yes',
      'storage: 5.0 MB used of 1024.0 MB',
      'inactivity timeout: 600000 ms',
      'storage types: local, s3 (default s3)',
      'health: degraded (gateway ok, notes down)',
      '## Suite security (security)',
      'status: failed, duration: 1234 ms',
      '- security-refresh-cookie: failed (12 ms)',
      '- crypto-aes-gcm: passed (900 ms): AES-256-GCM: 412 MB/s',
      'metrics: medianMs=12.5',
    ]) {
      expect(report).toContain(part);
    }
  });

  it('never carries a planted secret: e-mail, ids, JWT, sealed value, IP, key, refresh cookie', () => {
    for (const secret of SECRETS) expect(report).not.toContain(secret);
    expect(report).not.toMatch(/alice/i);
    expect(report).toContain('vault_refresh=<redacted>');
    expect(report).toContain('authKey: <redacted>');
    expect(report).toContain('Bearer <redacted>');
    expect(report).toContain('note <id>');
    // The output log and error lines are left out altogether.
    expect(report).not.toContain('FAIL token');
  });

  it('says so when nothing has run and the server did not answer', () => {
    const empty = supportReport({
      ...info,
      server: { ...info.server, storage: null, health: null },
      browser: { ...info.browser, storage: null, hardwareConcurrency: null },
      about: { version: 'unknown', commit: 'unknown', builtAt: 'unknown', environment: 'unknown' },
      runs: [],
      nameOf: (id) => id,
    });
    expect(empty).toContain('# Latest runs: none yet');
    expect(empty).toContain('storage types: unknown');
    expect(empty).toContain('health: unknown');
    expect(empty).toContain('cores: unknown');
  });
});

describe('redact', () => {
  it('leaves ordinary text alone: times, versions, check ids, sizes', () => {
    const line = 'crypto-truncated-stream passed at 18:50:48 in 1.2.3, 412 MB/s, perf-api-latency p95=40';
    expect(redact(line)).toBe(line);
  });

  it('replaces each kind of secret with its placeholder', () => {
    expect(redact(`id ${USER_ID}`)).toBe('id <id>');
    expect(redact(`to ${EMAIL}`)).toBe('to <email>');
    expect(redact(`jwt ${JWT}`)).toBe('jwt <token>');
    expect(redact(`from ${IP} and ::1`)).toBe('from <ip> and <ip>');
    expect(redact(`hex ${KEY_HEX}`)).toBe('hex <redacted>');
    expect(redact(`b64 ${REFRESH}`)).toBe('b64 <redacted>');
    expect(redact(`sealed ${SEALED}`)).toBe('sealed <redacted>');
    expect(redact('Cookie: a=1; b=2')).toBe('Cookie: <redacted>');
    expect(redact('hello bob', ['bob'])).toBe('hello <redacted>');
  });
});

describe('the support info', () => {
  it('reads the browser, with the storage estimate when there is one', async () => {
    const nav = {
      userAgent: 'UA',
      language: 'fr',
      hardwareConcurrency: 4,
      storage: { estimate: async () => ({ usage: 10, quota: 100 }) },
    } as unknown as Navigator;
    const browser = await readBrowserInfo(nav, {
      crossOriginIsolated: true,
      isSecureContext: false,
    } as typeof globalThis);
    expect(browser).toEqual({
      userAgent: 'UA',
      language: 'fr',
      hardwareConcurrency: 4,
      crossOriginIsolated: true,
      secureContext: false,
      storage: { usage: 10, quota: 100 },
    });
    const refused = {
      ...nav,
      storage: { estimate: () => Promise.reject(new Error('no')) },
    } as unknown as Navigator;
    expect((await readBrowserInfo(refused)).storage).toBeNull();
  });

  it('reads storage types and health (a 503 body too); a failed call is null', async () => {
    const config = info.server.config;
    const api = {
      get: async () => ({ types: [{ type: 'local', label: 'Local' }], kinds: [], default: 'local' }),
    } as never;
    const fetch503 = (async () =>
      new Response(JSON.stringify({ status: 'degraded', services: { notes: 'down' } }), {
        status: 503,
      })) as typeof fetch;
    const settings = await readServerSettings(api, config, new AbortController().signal, fetch503);
    expect(settings).toEqual({
      config,
      storage: { types: ['local'], default: 'local' },
      health: { status: 'degraded', services: { notes: 'down' } },
    });
    const failing = { get: () => Promise.reject(new Error('HTTP 500')) } as never;
    const down = (() => Promise.reject(new TypeError('offline'))) as typeof fetch;
    expect(await readServerSettings(failing, config, new AbortController().signal, down)).toEqual({
      config,
      storage: null,
      health: null,
    });
  });
});
