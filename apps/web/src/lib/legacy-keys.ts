import { legacyKeysResponseSchema } from '@vault/contracts';
import { defineGetQuery } from './get-query';

/**
 * GET /api/auth/legacy-keys → {keys}: the vault keys from before an access reset, still wrapped
 * under the old password (empty unless a reset made a new vault key). One query for the vault's
 * notice that offers to unlock them (features/recovery) and for the notes, which tell a note
 * locked since a reset (its key does not open under the current vault key, and the account has an
 * older one) from a note whose key was swapped or changed on the server (no older key: nothing can
 * be locked).
 */
const legacyKeys = defineGetQuery('/auth/legacy-keys', legacyKeysResponseSchema, 'auth/legacy-keys');

export const useLegacyKeys = legacyKeys.use;

/** Whether the account has a vault key from before a reset; false until known (and if it cannot be). */
export function useHasLegacyKeys(enabled = true): boolean {
  const query = legacyKeys.use(enabled);
  return (query.data?.keys.length ?? 0) > 0;
}
