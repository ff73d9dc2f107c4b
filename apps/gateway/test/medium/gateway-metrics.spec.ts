import { NOTES_PATTERNS } from '@vault/contracts';
import type { HealthServer } from '@vault/server-kit';
import { labelValues, metricValue, parseMetrics, type MetricSample } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import { startOpsServer } from '../../src/ops/ops-server';
import { clientAddress, freePort, startGateway, type GatewayHarness } from './support/gateway-harness';
import { RpcStubs } from './support/rpc-stubs';

/**
 * The gateway's metrics (docs/metrics.md): served on the internal ops listener (HEALTH_PORT), never
 * on the public one; requests counted by route pattern and status, timed, with RPC latency; and no
 * identifier of a request (ids, email, IP, token, file name, URL query) ever as a label value.
 */

const HEALTHY = { service: 'notes', status: 'ok', uptimeSeconds: 1, checks: { database: 'ok', redis: 'ok' } };
const stubs = new RpcStubs();

describe('gateway metrics (real Redis, stub notes service over TCP)', () => {
  let gw: GatewayHarness;
  let ops: HealthServer;

  beforeAll(async () => {
    const notesPort = await freePort();
    await stubs.serve('notes', notesPort, HEALTHY, [NOTES_PATTERNS.remove]);
    gw = await startGateway({
      notesPort,
      env: { HEALTH_HOST: '127.0.0.1', HEALTH_PORT: '0', RATE_LIMIT_AUTH_PER_MINUTE: '2' },
    });
    ops = (await startOpsServer(gw.config, gw.redis.client))!;
  });

  afterAll(async () => {
    await ops?.close();
    await gw?.close();
    await stubs.close();
  });

  const scrape = async (): Promise<{ res: Response; samples: MetricSample[] }> => {
    const res = await fetch(`http://127.0.0.1:${ops.port}/metrics`);
    return { res, samples: parseMetrics(await res.text()) };
  };

  it('serves /metrics on the ops listener in the Prometheus text format, with its probes', async () => {
    const { res, samples } = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(metricValue(samples, 'process_resident_memory_bytes', { service: 'gateway' })).toBeGreaterThan(0);
    expect((await fetch(`http://127.0.0.1:${ops.port}/health/live`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${ops.port}/health/ready`)).status).toBe(200);
  });

  it('answers /metrics on the public listener with 404, not the web app', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await gw.inject({ method, url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(String(res.headers['content-type'])).not.toMatch(/text\/(html|plain)/);
    }
  });

  it('shows whether the session watch is up and how many live sessions the gateway remembers', async () => {
    const { token } = await gw.signedIn();
    expect((await gw.inject({ method: 'DELETE', url: `/api/notes/${randomUUID()}` }, token)).statusCode).toBe(
      204,
    );
    const { samples } = await scrape();
    expect(metricValue(samples, 'gateway_session_watch_up', { service: 'gateway' })).toBe(1);
    expect(
      metricValue(samples, 'gateway_sessions_remembered', { service: 'gateway' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts a request by its route pattern and status, times it, and times its RPC call', async () => {
    const { token } = await gw.signedIn();
    const route = { method: 'DELETE', route: '/api/notes/:id' };
    const before = metricValue((await scrape()).samples, 'http_requests_total', { ...route, status: '204' });
    const id = randomUUID();
    expect((await gw.inject({ method: 'DELETE', url: `/api/notes/${id}` }, token)).statusCode).toBe(204);

    const { samples } = await scrape();
    expect(metricValue(samples, 'http_requests_total', { ...route, status: '204', service: 'gateway' })).toBe(
      before + 1,
    );
    expect(metricValue(samples, 'http_request_duration_seconds_count', route)).toBeGreaterThanOrEqual(1);
    expect(metricValue(samples, 'http_request_duration_seconds_bucket', { ...route, le: '+Inf' })).toBe(
      metricValue(samples, 'http_request_duration_seconds_count', route),
    );
    expect(
      metricValue(samples, 'rpc_client_duration_seconds_count', { pattern: 'notes.delete', outcome: 'ok' }),
    ).toBeGreaterThanOrEqual(1);
    expect(labelValues(samples).has(id)).toBe(false);
  });

  it('shows failures as 5xx with an unavailable RPC outcome, and rate-limited answers as 429', async () => {
    const ip = clientAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await gw.app.inject({
        method: 'POST',
        url: '/api/auth/prelogin',
        remoteAddress: ip,
        payload: { identifier: 'alice' },
      });
      statuses.push(res.statusCode);
    }
    // No auth service listens: two answers 503, then the limit of 2 a minute.
    expect(statuses).toEqual([503, 503, 429]);
    const { samples } = await scrape();
    const route = { method: 'POST', route: '/api/auth/prelogin' };
    expect(metricValue(samples, 'http_requests_total', { ...route, status: '503' })).toBeGreaterThanOrEqual(
      2,
    );
    expect(metricValue(samples, 'http_requests_total', { ...route, status: '429' })).toBeGreaterThanOrEqual(
      1,
    );
    expect(
      metricValue(samples, 'rpc_client_duration_seconds_count', {
        pattern: 'auth.prelogin',
        outcome: 'unavailable',
      }),
    ).toBeGreaterThanOrEqual(2);
  });

  it('never makes an identifier, an address, a token, a file name or a URL query a label value', async () => {
    const { token, caller } = await gw.signedIn();
    const noteId = randomUUID();
    const email = `metrics.person.${randomUUID().slice(0, 8)}@example.com`;
    const forwarded = '203.0.113.77';
    const remote = clientAddress();
    const signature = `sig${randomUUID().replace(/-/g, '')}`;
    const fileName = `holiday-photo-${randomUUID().slice(0, 8)}.jpg`;
    const headers = { 'x-forwarded-for': forwarded };
    const requests = [
      { method: 'DELETE' as const, url: `/api/notes/${noteId}`, headers },
      { method: 'GET' as const, url: `/api/notes?cursor=${signature}&limit=5`, headers },
      {
        method: 'GET' as const,
        url: `/api/files/blob/${fileName}?expires=1&signature=${signature}`,
        headers,
      },
      { method: 'POST' as const, url: '/api/auth/prelogin', payload: { identifier: email }, headers },
      { method: 'GET' as const, url: `/${fileName}`, headers },
      { method: 'GET' as const, url: `/api/no-such-route/${caller.userId}?email=${email}`, headers },
    ];
    for (const request of requests) {
      await gw.app.inject({
        ...request,
        remoteAddress: remote,
        headers: { ...request.headers, authorization: `Bearer ${token}` },
      });
    }

    const { samples } = await scrape();
    const values = [...labelValues(samples)];
    const secrets = [
      caller.userId,
      caller.sessionId,
      noteId,
      email,
      forwarded,
      remote,
      token,
      signature,
      fileName,
    ];
    for (const secret of secrets) {
      expect(values.filter((v) => v.includes(secret))).toEqual([]);
    }
    // Only patterns: what the requests above were counted under.
    const routes = new Set(
      samples.filter((s) => s.name === 'http_requests_total').map((s) => s.labels.route),
    );
    expect([...routes].every((r) => r === 'unmatched' || /^\/[A-Za-z0-9/:*_-]*$/.test(r!))).toBe(true);
    for (const expected of [
      '/api/notes/:id',
      '/api/notes',
      '/api/files/blob/*',
      '/api/auth/prelogin',
      'unmatched',
    ]) {
      expect(routes.has(expected)).toBe(true);
    }
  });
});
