import { CreateAdminAuditLog1795700000000 } from './1795700000000-create-admin-audit-log';

/** Every migration of the admin schema, oldest first (classes, so ts-jest and dist both work). */
export const ADMIN_MIGRATIONS = [CreateAdminAuditLog1795700000000];
