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
export function hasPermission(user: PermissionHolder | null | undefined, permission: Permission): boolean {
  if (!user || !isPermission(permission)) return false;
  if (user.role === 'super_admin') return true;
  if (user.role !== 'admin') return false;
  return Array.isArray(user.permissions) && user.permissions.includes(permission);
}
