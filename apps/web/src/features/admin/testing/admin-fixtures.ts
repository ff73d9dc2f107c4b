import type {
  AdminActivity,
  AdminIdentity,
  AdminSessionResponse,
  AdminStats,
  AuditEntryDto,
  SystemHealth,
} from '@vault/contracts';
import { json, type FakeServer } from '../../../testing/fake-server';
import { SUPER_ADMIN } from './admin-tab-harness';

export const STATS: AdminStats = {
  totalUsers: 1234,
  activeUsers: 321,
  lockedUsers: 7,
  totalFiles: 4567,
  totalNotes: 8910,
  storedBytes: 123_456_789,
  activeSessions: 42,
  recentSignups: 15,
  timestamp: '2026-11-26T10:00:00.000Z',
};

/** 168 hours ending at 2026-11-26 23:00 UTC: one sign-up every 4th hour, two failed sign-ins every 12th. */
export function activity(): AdminActivity {
  const end = Date.parse('2026-11-26T23:00:00.000Z');
  const hours = Array.from({ length: 168 }, (_, i) => ({
    hour: new Date(end - (167 - i) * 3_600_000).toISOString(),
    signups: i % 4 === 0 ? 1 : 0,
    failedSignIns: i % 12 === 0 ? 2 : 0,
  }));
  return { hours };
}

export function adminSession(admin: AdminIdentity = SUPER_ADMIN, idleMs = 15 * 60_000): AdminSessionResponse {
  return {
    admin,
    expiresAt: new Date(Date.now() + 8 * 3_600_000).toISOString(),
    idleExpiresAt: new Date(Date.now() + idleMs).toISOString(),
  };
}

const memory = {
  rssBytes: 150 * 1024 * 1024,
  heapUsedBytes: 60 * 1024 * 1024,
  heapTotalBytes: 90 * 1024 * 1024,
};

export function health(over: Partial<SystemHealth> = {}): SystemHealth {
  return {
    status: 'ok',
    database: { status: 'up', latencyMs: 2, version: 'PostgreSQL 16.4' },
    redis: { status: 'up', latencyMs: 1, version: '7.4.1' },
    queue: { waiting: 3, active: 1, delayed: 0, failed: 2 },
    queues: [{ name: 'virus-scan', waiting: 3, active: 1, delayed: 0, failed: 2 }],
    services: [
      { name: 'auth', status: 'up', version: '1.4.0', uptimeSeconds: 93_784, memory },
      { name: 'files', status: 'up', version: '1.4.0', uptimeSeconds: 3_700, memory },
    ],
    storage: [{ driver: 'local', default: true, status: 'up' }],
    clamd: {
      status: 'up',
      version: 'ClamAV 1.4.1',
      signatureVersion: 27_470,
      signatureDate: '2026-11-26T08:00:00.000Z',
      signatureAgeHours: 3,
    },
    uptime: 5_000,
    nodeVersion: 'v22.11.0',
    environment: 'test',
    timestamp: '2026-11-26T10:00:00.000Z',
    memory,
    ...over,
  };
}

export function auditEntry(id: number, over: Partial<AuditEntryDto> = {}): AuditEntryDto {
  return {
    id,
    createdAt: new Date(Date.parse('2026-11-26T10:00:00.000Z') - id * 60_000).toISOString(),
    actorId: SUPER_ADMIN.id,
    actorLabel: SUPER_ADMIN.username,
    action: `user.lock.${id}`,
    targetType: 'user',
    targetId: null,
    reason: 'Manual admin lock',
    ip: '203.0.113.9',
    userAgent: 'test',
    details: { duration: 60 },
    ...over,
  };
}

/** The console's reads for a signed-in `admin`: session, stats, activity, health, scans, audit. */
export function withAdminConsole(server: FakeServer, admin: AdminIdentity = SUPER_ADMIN): FakeServer {
  return server
    .on('GET /api/admin/session', () => json(200, adminSession(admin)))
    .on('DELETE /api/admin/session', () => json(204))
    .on('GET /api/admin/stats', () => json(200, STATS))
    .on('GET /api/admin/activity', () => json(200, activity()))
    .on('GET /api/admin/system/health', () => json(200, health()))
    .on('GET /api/admin/scans/failed', () => json(200, { scans: [], total: 0 }))
    .on('GET /api/admin/audit', () => json(200, { entries: [], nextBefore: null }));
}
