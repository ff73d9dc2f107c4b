import {
  PERMISSIONS,
  ROLES,
  type MeResponse,
  type Permission,
  type Role,
  type UserDto,
  type VaultKeyMaterial,
} from '@vault/contracts';
import type { UserEntity } from '../entities/user.entity';

const isPermission = (p: string): p is Permission => (PERMISSIONS as readonly string[]).includes(p);
const asRole = (r: string): Role => ((ROLES as readonly string[]).includes(r) ? (r as Role) : 'user');

/** `user` in answers (docs/api.md "Signing in"): never a hash, a key or a lockout detail. */
export function toUserDto(
  user: Pick<
    UserEntity,
    'id' | 'email' | 'username' | 'role' | 'permissions' | 'twoFactorEnabled' | 'createdAt'
  >,
): UserDto {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    role: asRole(user.role),
    permissions: user.permissions.filter(isPermission),
    twoFactorEnabled: user.twoFactorEnabled,
    createdAt: user.createdAt.toISOString(),
  };
}

export function toVaultKeyMaterial(user: UserEntity): VaultKeyMaterial {
  return { salt: user.salt, kdfParams: user.kdfParams, wrappedVaultKey: user.wrappedVaultKey };
}

export function toMeResponse(user: UserEntity): MeResponse {
  return { user: toUserDto(user), vault: toVaultKeyMaterial(user) };
}
