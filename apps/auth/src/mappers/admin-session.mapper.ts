import type { AdminSessionResponse } from '@vault/contracts';
import type { UserEntity } from '../entities/user.entity';
import type { AdminSessionRecord } from '../repositories/admin-sessions.repository';
import { toUserDto } from './user.mapper';

/** The console's view of its session: who is signed in and when the session ends (no token, no hash). */
export function toAdminSessionResponse(
  user: UserEntity,
  session: Pick<AdminSessionRecord, 'expiresAt'>,
  idleEnd: number,
): AdminSessionResponse {
  const { id, email, username, role, permissions } = toUserDto(user);
  return {
    admin: { id, email, username, role, permissions },
    expiresAt: new Date(session.expiresAt).toISOString(),
    idleExpiresAt: new Date(idleEnd).toISOString(),
  };
}
