import { adminBulkResultSchema, ErrorCode as E } from '@vault/contracts';
import type { RouteOptions } from '../../openapi/api-doc';

/** The errors every /api/admin call may answer besides its own (docs/api.md "Admin"). */
export const ADMIN_ERRORS = [E.ADMIN_REQUIRED, E.PERMISSION_DENIED];

/** A bulk account action (`users/bulk/*`): one result and one audit entry per account. */
export function bulkDoc(summary: string): RouteOptions {
  return {
    status: 200,
    summary: `${summary}; one result and one audit entry per account`,
    success: [{ description: 'Per account: ok or its error code', schema: adminBulkResultSchema }],
    errors: ADMIN_ERRORS,
  };
}
