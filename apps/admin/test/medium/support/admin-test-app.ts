import type { INestMicroservice } from '@nestjs/common';
import { AUTH_PATTERNS, FILES_PATTERNS, NOTES_PATTERNS } from '@vault/contracts';
import { startRpcTestApp, type RpcTestApp } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import type { AuditEntryInput } from '../../../src/audit/audit-entry';
import { startAdminService } from '../../../src/bootstrap';
import { loadAdminConfig, type AdminConfig } from '../../../src/config/admin.config';
import { adminDatabaseConfig } from '../../../src/repositories/connections';
import { startFakePeer, type FakePeer } from './fake-peers';

export { testAppPerFile } from '@vault/server-kit/testing';

/** The real admin microservice (server-kit's startRpcTestApp). */
export type AdminTestApp = RpcTestApp<AdminConfig, INestMicroservice>;

export function startAdminTestApp(label: string, env: Record<string, string> = {}): Promise<AdminTestApp> {
  return startRpcTestApp({
    service: 'admin',
    label,
    env,
    loadConfig: loadAdminConfig,
    databaseConfig: (config) => adminDatabaseConfig(config.database),
    start: startAdminService,
    stop: (app) => app.close(),
  });
}

const adminPatterns = (patterns: Record<string, string>) =>
  Object.entries(patterns)
    .filter(([key]) => key.startsWith('admin') || key === 'health')
    .map(([, pattern]) => pattern);

/** The admin service against in-test auth, notes and files (fake-peers.ts), with its peers. */
export interface AdminWithPeers extends AdminTestApp {
  auth: FakePeer;
  notes: FakePeer;
  files: FakePeer;
}

export async function startAdminWithPeers(
  label: string,
  env: Record<string, string> = {},
): Promise<AdminWithPeers> {
  const [auth, notes, files] = await Promise.all([
    startFakePeer('auth', adminPatterns(AUTH_PATTERNS)),
    startFakePeer('notes', adminPatterns(NOTES_PATTERNS)),
    startFakePeer('files', adminPatterns(FILES_PATTERNS)),
  ]);
  const app = await startAdminTestApp(label, {
    AUTH_RPC_PORT: String(auth.port),
    NOTES_RPC_PORT: String(notes.port),
    FILES_RPC_PORT: String(files.port),
    RPC_TIMEOUT_MS: '3000',
    ...env,
  });
  return {
    ...app,
    auth,
    notes,
    files,
    async close() {
      await app.close();
      await Promise.all([auth.close(), notes.close(), files.close()]);
    },
  };
}

/** An admin action as the console will record it. */
export function auditEntry(overrides: Partial<AuditEntryInput> = {}): AuditEntryInput {
  return {
    actorId: randomUUID(),
    actorLabel: 'root@example.org',
    action: 'user.lock',
    targetType: 'user',
    targetId: randomUUID(),
    reason: 'Spam wave',
    ip: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    details: { minutes: 60, sessions: 2 },
    ...overrides,
  };
}
