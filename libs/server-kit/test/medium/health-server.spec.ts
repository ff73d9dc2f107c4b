import { startHealthServer, type HealthServer } from '../../src/health';
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
