import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { AdminRequirement } from '@vault/contracts';
import { AUTH_MODE } from './auth.decorators';

/**
 * What an admin route needs (docs/api.md "Admin"): a live admin session (the HttpOnly admin
 * cookie, never a bearer token) and this permission, checked on the server for every call by
 * AdminGuard with the role and permissions read from the database. `super_admin`: only that role
 * (roles and permissions are managed by super admins). `session`: any admin (sign-in state).
 */
export const ADMIN_REQUIREMENT = 'vault:admin-requirement';
export type { AdminRequirement };

export const AdminOnly = (requirement: AdminRequirement): MethodDecorator & ClassDecorator =>
  applyDecorators(SetMetadata(AUTH_MODE, 'admin'), SetMetadata(ADMIN_REQUIREMENT, requirement));
