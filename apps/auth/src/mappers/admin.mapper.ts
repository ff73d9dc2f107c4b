import type { AdminSecurityEvent, AdminSessionRow, AdminUser, OwnSecurityEvent } from '@vault/contracts';
import type { AdminUserRow } from '../repositories/admin-users.repository';
import type { EventRow } from '../repositories/security-events.repository';
import type { SessionRecord } from '../repositories/sessions.repository';
import { toUserDto } from './user.mapper';

/**
 * What the admin console sees of an account, a session and an event: names, role, lock and 2FA
 * state, times and counts. Never a hash, a salt, a wrapped key, KDF parameters or a token: the
 * rows these are built from do not even carry them (AdminUserRow, SessionRecord).
 */
export function toAdminUser(user: AdminUserRow, now = Date.now()): AdminUser {
  const dto = toUserDto(user);
  const locked = user.lockedUntil !== null && user.lockedUntil.getTime() > now;
  return {
    _id: dto.id,
    email: dto.email,
    username: dto.username,
    role: dto.role,
    permissions: dto.permissions,
    accountLocked: locked,
    accountLockedReason: locked ? user.lockedReason : null,
    lockedUntil: locked ? user.lockedUntil!.toISOString() : null,
    twoFactorEnabled: dto.twoFactorEnabled,
    createdAt: dto.createdAt,
    lastLoginAt: user.lastLoginAt ? user.lastLoginAt.toISOString() : null,
    failedLoginAttempts: user.failedLoginAttempts,
  };
}

export function toAdminSessionRow(
  session: SessionRecord,
  names: { email: string; username: string } | undefined,
): AdminSessionRow {
  return {
    sessionId: session.id,
    userId: session.userId,
    email: names?.email ?? '',
    username: names?.username ?? '',
    ipAddress: session.ip,
    userAgent: session.userAgent,
    createdAt: new Date(session.createdAt).toISOString(),
    lastSeenAt: new Date(session.lastSeenAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
  };
}

export function toOwnSecurityEvent(row: EventRow): OwnSecurityEvent {
  return {
    id: row.id,
    eventType: row.eventType,
    ipAddress: row.ipAddress,
    userAgent: row.userAgent,
    timestamp: row.createdAt.toISOString(),
    details: row.details ?? {},
  };
}

export function toAdminSecurityEvent(row: EventRow): AdminSecurityEvent {
  const { id, ...event } = toOwnSecurityEvent(row);
  return { id, userId: row.userId, email: row.email, username: row.username, event };
}
