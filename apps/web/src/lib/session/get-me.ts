import { meResponseSchema } from '@vault/contracts';
import { defineGetQuery } from '../get-query';
import { KdfParamsRefusedError, kdfRefusal } from './prelogin';

/**
 * GET /api/auth/me: the account ({createdAt, twoFactorEnabled, ...}) and its vault key material.
 * KDF parameters outside the protocol's range are refused with the same words as at sign-in
 * (KdfParamsRefusedError), before the unlock screen hands the password to the KDF.
 */
const me = defineGetQuery('/auth/me', meResponseSchema, 'auth/me', (data) => {
  const vault =
    typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['vault'] : undefined;
  const kdfParams =
    typeof vault === 'object' && vault !== null ? (vault as Record<string, unknown>)['kdfParams'] : undefined;
  // An answer without them at all is malformed: the schema says so.
  const refusal = kdfParams === undefined ? null : kdfRefusal(kdfParams);
  if (refusal) throw new KdfParamsRefusedError(refusal);
});

export const getMe = me.get;
export const meQueryKey = me.queryKey;
export const useMe = me.use;
