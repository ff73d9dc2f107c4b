import { meResponseSchema } from '@vault/contracts';
import { defineGetQuery } from '../get-query';

/** GET /api/auth/me: the account ({createdAt, twoFactorEnabled, ...}) and its vault key material. */
const me = defineGetQuery('/auth/me', meResponseSchema, 'auth/me');

export const getMe = me.get;
export const meQueryKey = me.queryKey;
export const useMe = me.use;
