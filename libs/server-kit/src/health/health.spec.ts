import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RPC } from '@vault/contracts';
import { ServiceHealth } from '../bootstrap/rpc-service';
import { checkHealth, serviceVersion } from './health';

describe(checkHealth.name, () => {
  it('is ok when every probe answers', async () => {
    const reply = await checkHealth('auth', { database: async () => 1, redis: async () => 'PONG' });
    expect(reply).toMatchObject({ service: 'auth', status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('names the probe that failed or hung', async () => {
    const reply = await checkHealth(
      'auth',
      {
        database: async () => {
          throw new Error('down');
        },
        redis: () => new Promise(() => undefined),
      },
      50,
    );
    expect(reply.status).toBe('degraded');
    expect(reply.checks).toEqual({ database: 'down', redis: 'down' });
  });
});

describe(serviceVersion.name, () => {
  it("reads the version of the service's package.json", () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../../apps/notes/package.json'), 'utf8'));
    expect(serviceVersion('notes')).toBe(pkg.version);
    expect(serviceVersion('notes')).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('is undefined for a service without a package', () => {
    expect(serviceVersion('no-such-service')).toBeUndefined();
  });
});

describe(ServiceHealth.name, () => {
  it('answers the version read at boot and the memory of this process', async () => {
    const reply = await new ServiceHealth('files', { database: async () => 1 }).check();
    expect(reply).toMatchObject({ service: 'files', status: 'ok', version: serviceVersion('files') });
    expect(RPC['files.health'].reply.parse(reply)).toEqual(reply);
    const { rssBytes, heapUsedBytes, heapTotalBytes } = reply.memory!;
    expect(Number.isInteger(rssBytes) && rssBytes > 0).toBe(true);
    expect(heapUsedBytes).toBeGreaterThan(0);
    expect(heapTotalBytes).toBeGreaterThanOrEqual(heapUsedBytes);
    expect(rssBytes).toBeGreaterThanOrEqual(heapUsedBytes);
  });

  it('leaves the version out when the package cannot be read, and still answers', async () => {
    const reply = await new ServiceHealth('no-such-service', {}).check();
    expect(reply.version).toBeUndefined();
    expect(reply.memory).toBeDefined();
  });
});
