import { PERMISSIONS, type Permission, type Role } from './user.schema';

/** The roles that open the admin console (issue 14 "Who is an admin"). */
export const ADMIN_ROLES = ['admin', 'super_admin'] as const satisfies readonly Role[];
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** Who a permission check looks at: the stored role and permission list (or the access token's role). */
export interface PermissionHolder {
  role: string;
  permissions?: readonly string[] | null;
}

export function isAdminRole(role: unknown): role is AdminRole {
  return typeof role === 'string' && (ADMIN_ROLES as readonly string[]).includes(role);
}

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/**
 * The admin permission check (spec: "super_admin always allowed; otherwise the permission must
 * be in the admin's list"). `super_admin` has every permission whatever its stored list says;
 * `admin` only those in its list; `user`, and any role this code does not know, none. Fails
 * closed: a missing holder, a non-string role or a list that is not an array answers false.
 */
/**
 * What an admin route or call may require: one permission (super_admin holds all), the
 * super_admin role itself, or `session`: any admin.
 */
export type AdminRequirement = Permission | 'super_admin' | 'session';

/** Whether this holder meets `requirement`; a missing requirement is refused (fail closed). */
export function meetsAdminRequirement(
  user: PermissionHolder | null | undefined,
  requirement: AdminRequirement | undefined,
): boolean {
  if (!user || requirement === undefined) return false;
  if (requirement === 'session') return isAdminRole(user.role);
  if (requirement === 'super_admin') return user.role === 'super_admin';
  return hasPermission(user, requirement);
}

export function hasPermission(user: PermissionHolder | null | undefined, permission: Permission): boolean {
  if (!user || !isPermission(permission)) return false;
  if (user.role === 'super_admin') return true;
  if (user.role !== 'admin') return false;
  return Array.isArray(user.permissions) && user.permissions.includes(permission);
}
