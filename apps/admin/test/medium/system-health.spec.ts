import { ADMIN_PATTERNS as P, ErrorCode, type RpcReply } from '@vault/contracts';
import { createQueueConnection, JOB_QUEUES, queuePrefix } from '@vault/server-kit';
import { adminContext } from '@vault/server-kit/testing';
import { Worker } from 'bullmq';
import { createServer, type Server, type Socket } from 'node:net';
import { startAdminWithPeers, testAppPerFile, type AdminWithPeers } from './support/admin-test-app';

type Health = RpcReply<'admin.system-health'>;

/** A stand-in clamd answering `zVERSION` as ClamAV 1.4 does (no clamd runs on the test machines' 3310). */
async function fakeClamd(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    sockets.push(socket);
    socket.once('data', (data) => {
      if (data.toString() === 'zVERSION\0') socket.end('ClamAV 1.4.3/27470/Tue Nov 25 08:37:00 2026\0');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

describe('admin.system-health', () => {
  let clamd: Awaited<ReturnType<typeof fakeClamd>>;
  const t = testAppPerFile(async (): Promise<AdminWithPeers> => {
    clamd = await fakeClamd();
    return startAdminWithPeers('health', { CLAMD_HOST: '127.0.0.1', CLAMD_PORT: String(clamd.port) });
  });
  const reader = adminContext(['system:read']);
  let worker: Worker | undefined;
  let connection: ReturnType<typeof createQueueConnection> | undefined;

  afterAll(async () => {
    await worker?.close();
    connection?.disconnect();
    await clamd.close();
  });

  const memory = { rssBytes: 100, heapUsedBytes: 50, heapTotalBytes: 80 };

  it('reports every dependency: database, Redis, services, scan worker, queues, storage, clamd', async () => {
    t.auth.answer('auth.health', () => ({
      service: 'auth',
      status: 'ok',
      uptimeSeconds: 12,
      checks: { database: 'ok', redis: 'ok' },
      version: '1.2.3',
      memory,
    }));
    // An older service without version and memory is tolerated.
    t.notes.answer('notes.health', () => ({
      service: 'notes',
      status: 'ok',
      uptimeSeconds: 5,
      checks: { database: 'ok' },
    }));
    t.files.answer('files.health', () => ({
      service: 'files',
      status: 'ok',
      uptimeSeconds: 7,
      checks: { storage: 'ok' },
    }));
    t.files.answer('files.admin.storage-health', () => ({
      storage: [{ driver: 'local', default: true, status: 'up' }],
    }));
    connection = createQueueConnection(t.redis.url);
    worker = new Worker(JOB_QUEUES.scan.name, async () => undefined, {
      connection,
      prefix: queuePrefix(t.redis.prefix),
    });
    await worker.waitUntilReady();
    await t.queue(JOB_QUEUES.filesMaintenance.name).add('cleanup-abandoned-uploads', {});

    const health = await t.call<Health>(P.systemHealth, undefined, reader);
    expect(health.status).toBe('ok');
    expect(health.database).toMatchObject({
      status: 'up',
      version: expect.stringMatching(/^PostgreSQL \d+/),
    });
    expect(health.database.latencyMs).toBeGreaterThanOrEqual(0);
    expect(health.redis).toMatchObject({ status: 'up', version: expect.stringMatching(/^\d+\.\d+/) });
    const byName = Object.fromEntries(health.services.map((s) => [s.name, s]));
    expect(Object.keys(byName).sort()).toEqual(['admin', 'auth', 'files', 'notes', 'scan-worker']);
    expect(byName.auth).toMatchObject({ status: 'up', version: '1.2.3', uptimeSeconds: 12, memory });
    expect(byName.notes).toMatchObject({ status: 'up', version: null, memory: null });
    expect(byName['scan-worker']!.status).toBe('up');
    expect(byName.admin!.status).toBe('up');
    expect(health.queues.map((q) => q.name).sort()).toEqual(
      Object.values(JOB_QUEUES)
        .map((q) => q.name)
        .sort(),
    );
    expect(health.queues.find((q) => q.name === JOB_QUEUES.filesMaintenance.name)!.waiting).toBe(1);
    expect(health.queue.waiting).toBe(health.queues.reduce((sum, q) => sum + q.waiting, 0));
    expect(health.storage).toEqual([{ driver: 'local', default: true, status: 'up' }]);
    expect(health.clamd).toMatchObject({
      status: 'up',
      version: 'ClamAV 1.4.3',
      signatureVersion: 27470,
      signatureDate: '2026-11-25T08:37:00.000Z',
    });
    expect(health.environment).toBe('test');
    expect(health.nodeVersion).toBe(process.version);
    // The peers were asked with the admin's context.
    expect(t.auth.calls.at(-1)!.ctx.admin).toEqual(reader.admin);
  });

  it('reports what is down without failing: a silent service (2 s), a missing one, no worker, clamd gone', async () => {
    t.auth.answer('auth.health', () => new Promise((resolve) => setTimeout(resolve, 2600)));
    t.notes.answer('notes.health', () => ({
      service: 'notes',
      status: 'degraded',
      uptimeSeconds: 5,
      checks: { database: 'down' },
    }));
    t.files.answer('files.health', () => {
      throw new Error('boom');
    });
    t.files.answer('files.admin.storage-health', () => new Promise((resolve) => setTimeout(resolve, 2600)));
    await worker!.close();
    worker = undefined;
    await clamd.close();

    const begun = Date.now();
    const health = await t.call<Health>(P.systemHealth, undefined, reader);
    expect(Date.now() - begun).toBeLessThan(3500);
    expect(health.status).toBe('degraded');
    const byName = Object.fromEntries(health.services.map((s) => [s.name, s]));
    expect(byName.auth!.status).toBe('down');
    expect(byName.notes).toMatchObject({ status: 'down', error: 'checks down: database' });
    expect(byName.files!.status).toBe('down');
    expect(byName['scan-worker']!.status).toBe('down');
    expect(health.storage[0]!.status).toBe('down');
    expect(health.clamd.status).toBe('down');
    // What still answers is still up.
    expect(health.database.status).toBe('up');
    expect(health.redis.status).toBe('up');
  });

  it('needs system:read', async () => {
    expect((await t.fail(P.systemHealth, undefined, adminContext(['stats:read']))).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
  });
});
