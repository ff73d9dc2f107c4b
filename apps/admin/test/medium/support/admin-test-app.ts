import type { INestMicroservice } from '@nestjs/common';
import { startRpcTestApp, type RpcTestApp } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import type { AuditEntryInput } from '../../../src/audit/audit-entry';
import { startAdminService } from '../../../src/bootstrap';
import { loadAdminConfig, type AdminConfig } from '../../../src/config/admin.config';
import { adminDatabaseConfig } from '../../../src/repositories/connections';

export { testAppPerFile } from '@vault/server-kit/testing';

/** The real admin microservice (server-kit's startRpcTestApp). */
export type AdminTestApp = RpcTestApp<AdminConfig, INestMicroservice>;

export function startAdminTestApp(label: string): Promise<AdminTestApp> {
  return startRpcTestApp({
    service: 'admin',
    label,
    loadConfig: loadAdminConfig,
    databaseConfig: (config) => adminDatabaseConfig(config.database),
    start: startAdminService,
    stop: (app) => app.close(),
  });
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
