import { startHealthServer, type HealthServer } from '../../src/health';
import { setMetricsService } from '../../src/metrics';
import { metricValue, parseMetrics } from '../../src/testing';
import type { HealthReply } from '@vault/contracts';

describe(startHealthServer.name, () => {
  let status: HealthReply['status'] = 'ok';
  let server: HealthServer;
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

  beforeAll(async () => {
    server = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      ready: async () => ({
        service: 'kit',
        status,
        uptimeSeconds: 1,
        checks: { database: status === 'ok' ? 'ok' : 'down' },
      }),
    });
  });
  afterAll(() => server.close());

  it('answers liveness while the process runs', async () => {
    const res = await fetch(url('/health/live'));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers readiness from the service check: 200 when ok, 503 naming what is down', async () => {
    status = 'ok';
    expect((await fetch(url('/health/ready'))).status).toBe(200);
    status = 'degraded';
    const res = await fetch(url('/health/ready'));
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ checks: { database: 'down' } });
  });

  it('serves nothing else', async () => {
    expect((await fetch(url('/'))).status).toBe(404);
    expect((await fetch(url('/health/live'), { method: 'POST' })).status).toBe(405);
  });
});

describe(`${startHealthServer.name} /metrics`, () => {
  let server: HealthServer;
  const url = (path: string) => `http://127.0.0.1:${server.port}${path}`;

  beforeAll(async () => {
    setMetricsService('kit-health');
    server = await startHealthServer({
      host: '127.0.0.1',
      port: 0,
      ready: async () => ({ service: 'kit', status: 'ok', uptimeSeconds: 1, checks: {} }),
    });
  });
  afterAll(() => server.close());

  it("serves the process's metrics in the Prometheus text format, never cached", async () => {
    const res = await fetch(url('/metrics'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const samples = parseMetrics(await res.text());
    expect(metricValue(samples, 'process_resident_memory_bytes', { service: 'kit-health' })).toBeGreaterThan(
      0,
    );
    expect(metricValue(samples, 'nodejs_heap_size_used_bytes', { service: 'kit-health' })).toBeGreaterThan(0);
  });

  it('answers HEAD with the headers alone, and refuses other methods', async () => {
    const head = await fetch(url('/metrics'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect((await fetch(url('/metrics'), { method: 'POST' })).status).toBe(405);
  });
});
