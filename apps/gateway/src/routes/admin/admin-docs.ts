import { ErrorCode as E } from '@vault/contracts';

/** The errors every /api/admin call may answer besides its own (docs/api.md "Admin"). */
export const ADMIN_ERRORS = [E.ADMIN_REQUIRED, E.PERMISSION_DENIED];
