import type { INestMicroservice } from '@nestjs/common';
import { ADMIN_PATTERNS as P, AUTH_PATTERNS, FILES_PATTERNS, type RpcReply } from '@vault/contracts';
import { createQueueConnection, JOB_QUEUES, queuePrefix, runMigrations } from '@vault/server-kit';
import {
  adminContext,
  createTestRedis,
  freePort,
  testDatabasePerFile,
  type TestRedis,
} from '@vault/server-kit/testing';
import { Worker } from 'bullmq';
import { readFileSync } from 'node:fs';
/* eslint-disable @nx/enforce-module-boundaries -- a cross-service test: the real notes service (its
   sources, not a stale dist) stands behind the admin's health; nothing in apps/admin/src imports it. */
import { startNotesService } from '../../../notes/src/bootstrap';
import { loadNotesConfig, type NotesConfig } from '../../../notes/src/config/notes.config';
import { notesDatabaseConfig } from '../../../notes/src/repositories/connections';
/* eslint-enable @nx/enforce-module-boundaries */
import { startAdminTestApp, testAppPerFile, type AdminTestApp } from './support/admin-test-app';
import { startFakePeer, type FakePeer } from './support/fake-peers';

type Health = RpcReply<'admin.system-health'>;

/**
 * Issue 14: the health names a stopped service as down and sees it again once it is back. The
 * notes service here is the real one (its AppModule, its migrations on this file's database),
 * stopped and started again on the same port. Auth and files are fake peers answering healthy,
 * so notes alone decides between `ok` and `degraded`.
 */
const notesVersion = (
  JSON.parse(readFileSync(`${__dirname}/../../../notes/package.json`, 'utf8')) as {
    version: string;
  }
).version;

describe('admin.system-health against a real notes service stopped and started again', () => {
  const notesDb = testDatabasePerFile('healthrealnotes');
  let notesRedis: TestRedis;
  let notesConfig: NotesConfig;
  let notes: INestMicroservice | undefined;
  let peers: FakePeer[] = [];
  let worker: Worker | undefined;
  let connection: ReturnType<typeof createQueueConnection> | undefined;

  const t = testAppPerFile(async (): Promise<AdminTestApp> => {
    notesRedis = await createTestRedis('health-real-notes');
    notesConfig = loadNotesConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'error',
      DATABASE_URL: notesDb.url,
      REDIS_URL: notesRedis.url,
      REDIS_PREFIX: notesRedis.prefix,
      NOTES_RPC_HOST: '127.0.0.1',
      NOTES_RPC_PORT: String(await freePort()),
      DB_POOL_SIZE: '2',
    });
    await runMigrations(notesDatabaseConfig(notesConfig.database));
    notes = await startNotesService(notesConfig, false);

    const auth = await startFakePeer('auth', [AUTH_PATTERNS.health]);
    const files = await startFakePeer('files', [FILES_PATTERNS.health, FILES_PATTERNS.adminStorageHealth]);
    peers = [auth, files];
    auth.answer(AUTH_PATTERNS.health, () => healthy('auth'));
    files.answer(FILES_PATTERNS.health, () => healthy('files'));
    files.answer(FILES_PATTERNS.adminStorageHealth, () => ({
      storage: [{ driver: 'local', default: true, status: 'up' }],
    }));
    return startAdminTestApp('healthreal', {
      AUTH_RPC_PORT: String(auth.port),
      NOTES_RPC_HOST: '127.0.0.1',
      NOTES_RPC_PORT: String(notesConfig.rpc.port),
      FILES_RPC_PORT: String(files.port),
      RPC_TIMEOUT_MS: '3000',
    });
  });

  // A scan worker on the queue, so the only thing that can degrade the health is notes.
  beforeAll(async () => {
    connection = createQueueConnection(t.redis.url);
    worker = new Worker(JOB_QUEUES.scan.name, async () => undefined, {
      connection,
      prefix: queuePrefix(t.redis.prefix),
    });
    await worker.waitUntilReady();
  });

  afterAll(async () => {
    await worker?.close();
    connection?.disconnect();
    await notes?.close();
    await Promise.all(peers.map((p) => p.close()));
    await notesRedis?.cleanup();
  });

  const superAdmin = adminContext([], 'super_admin');
  const check = async (): Promise<{ health: Health; notes: Health['services'][number]; ms: number }> => {
    const begun = Date.now();
    const health = await t.call<Health>(P.systemHealth, undefined, superAdmin);
    const state = health.services.find((s) => s.name === 'notes');
    if (!state) throw new Error('notes is missing from the system health');
    return { health, notes: state, ms: Date.now() - begun };
  };

  it('shows the running notes service up with its version and memory', async () => {
    const { health, notes: state } = await check();
    expect(state).toMatchObject({ status: 'up', version: notesVersion });
    expect(state.uptimeSeconds).toBeGreaterThanOrEqual(0);
    expect(state.memory!.rssBytes).toBeGreaterThan(0);
    expect(state.memory!.heapUsedBytes).toBeGreaterThan(0);
    expect(state.memory!.heapTotalBytes).toBeGreaterThanOrEqual(state.memory!.heapUsedBytes);
    expect(state.error).toBeUndefined();
    expect(health.status).toBe('ok');
  });

  it('names notes down once it is stopped, and still answers within a few seconds', async () => {
    await notes!.close();
    notes = undefined;

    const { health, notes: state, ms } = await check();
    expect(ms).toBeLessThan(3500);
    expect(state).toMatchObject({ status: 'down', version: null, memory: null });
    expect(state.error).toMatch(/unavailable/i);
    expect(health.status).toBe('degraded');
    // Only notes is down: everything else still answers.
    const others = health.services.filter((s) => s.name !== 'notes');
    expect(others.map((s) => [s.name, s.status])).toEqual(others.map((s) => [s.name, 'up']));
    expect(health.database.status).toBe('up');
    expect(health.redis.status).toBe('up');

    // Asked again while it is still down: no stale connection makes it look up.
    expect((await check()).notes.status).toBe('down');
  });

  it('shows notes up again once it is started on the same port', async () => {
    notes = await startNotesService(notesConfig, false);

    const { health, notes: state } = await check();
    expect(state).toMatchObject({ status: 'up', version: notesVersion });
    expect(state.memory!.rssBytes).toBeGreaterThan(0);
    expect(health.status).toBe('ok');
  });
});

function healthy(service: string) {
  return { service, status: 'ok', uptimeSeconds: 1, checks: {} };
}
