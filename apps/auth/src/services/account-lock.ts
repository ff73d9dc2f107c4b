import type { UserEntity } from '../entities/user.entity';

/** The reason the lockout writes when failed sign-ins lock an account (any other is an administrator's). */
export const AUTO_LOCK_REASON = 'Too many failed login attempts';

/**
 * A lock still running whose reason is not the failures' own: an administrator's (admin-accounts).
 * Only such a lock ends a live admin console session: failed sign-ins can be caused by anyone who
 * knows the username, and must not sign the admin out.
 */
export function isAdminLock(user: UserEntity | null, now = Date.now()): boolean {
  return (
    !!user?.lockedUntil &&
    user.lockedUntil.getTime() > now &&
    !!user.lockedReason &&
    user.lockedReason !== AUTO_LOCK_REASON
  );
}
