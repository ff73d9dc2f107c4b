import type { AdminSecurityEvent, AdminUser } from '@vault/contracts';

/** An account as auth's admin calls answer it. */
export function adminUser(id: string, overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    _id: id,
    email: `${id.slice(0, 8)}@example.org`,
    username: `user-${id.slice(0, 8)}`,
    role: 'user',
    permissions: [],
    accountLocked: false,
    accountLockedReason: null,
    lockedUntil: null,
    twoFactorEnabled: false,
    createdAt: '2026-11-01T00:00:00.000Z',
    lastLoginAt: null,
    failedLoginAttempts: 0,
    ...overrides,
  };
}

/** A security event as auth's admin events answer it. */
export function securityEvent(
  n: number,
  overrides: Partial<AdminSecurityEvent['event']> = {},
): AdminSecurityEvent {
  return {
    id: String(n),
    userId: null,
    email: null,
    username: null,
    event: {
      eventType: 'login_failed',
      ipAddress: '203.0.113.9',
      userAgent: 'curl/8',
      timestamp: new Date(Date.UTC(2026, 10, 25, 0, 0, n)).toISOString(),
      details: {},
      ...overrides,
    },
  };
}
