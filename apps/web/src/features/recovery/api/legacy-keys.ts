import type { LegacyKeyDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';

/** A vault key from before an access reset, still wrapped under the old password (lib/legacy-keys.ts lists them). */
export type LegacyKey = LegacyKeyDto;

/** DELETE /api/auth/legacy-keys/{id}: once every item it opened is re-wrapped under the current key. */
export async function deleteLegacyKey(api: ApiClient, id: string): Promise<void> {
  await api.delete(`/auth/legacy-keys/${encodeURIComponent(id)}`);
}
