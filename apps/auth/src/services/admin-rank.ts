import { ADMIN_MESSAGES, ErrorCode, VaultError, type Role, type RpcAdmin } from '@vault/contracts';
import type { EntityManager } from 'typeorm';
import type { AdminUsersRepository } from '../repositories/admin-users.repository';

/**
 * The rank rules of every admin action on an account (lock, unlock, remove 2FA, end sessions,
 * revoke a session, set the role): a super_admin account is acted on only by a super_admin, and
 * never your own account unless `self: 'allowed'` (ending your own vault sessions).
 */
export function assertMayActOn(
  actor: RpcAdmin,
  target: { id: string; role: Role },
  { self = 'refused' }: { self?: 'allowed' | 'refused' } = {},
): void {
  if (self === 'refused' && actor.id === target.id) {
    throw new VaultError(ErrorCode.FORBIDDEN, ADMIN_MESSAGES.notYourself);
  }
  if (target.role === 'super_admin' && actor.role !== 'super_admin') {
    throw new VaultError(ErrorCode.PERMISSION_DENIED, ADMIN_MESSAGES.superAdminTarget);
  }
}

/**
 * Inside a transaction holding every super_admin row (AdminUsersRepository.lockSuperAdmins):
 * the actor is still an unlocked super_admin (a concurrent demotion or lock of the actor
 * committed first wins), and, when `target` is about to stop being one that can sign in
 * (demoted or locked), another unlocked super_admin remains. `refusal`: the 403's message.
 */
export async function assertSuperAdminStanding(
  repo: AdminUsersRepository,
  manager: EntityManager,
  actor: RpcAdmin,
  { losing, refusal }: { losing?: string; refusal: string },
): Promise<void> {
  // The actor's row is one of the locked super_admin rows, unless it no longer is one.
  const row = await repo.lockRow(manager, actor.id);
  const locked = !!row?.lockedUntil && row.lockedUntil.getTime() > Date.now();
  if (row?.role !== 'super_admin' || locked) {
    throw new VaultError(ErrorCode.PERMISSION_DENIED, refusal);
  }
  if (losing && (await repo.unlockedSuperAdminsBesides(manager, losing)) === 0) {
    throw new VaultError(ErrorCode.CONFLICT, ADMIN_MESSAGES.lastSuperAdmin);
  }
}
