import type { ApiClient } from '../../../lib/api-client';
import { useUnlockedQuery } from '../../../lib/session/use-unlocked';
import type { FilesCrypto } from '../../../workers/files-crypto';
import { useFilesCrypto } from '../../../workers/files-crypto-context';
import type { FileMetaOutcome } from '../../../workers/files-messages';
import { getDeletedFiles } from '../api/get-deleted-files';
import { deletedFilesQueryKey } from '../api/invalidate';
import type { FileView } from '../types';
import { viewFromOutcome } from './files-store';

/**
 * The files in the trash (GET /api/files/deleted), their names decrypted in the files worker
 * (one that cannot be decrypted shows as 'Encrypted File'; the others are unaffected).
 */
export async function loadDeletedFiles(
  api: ApiClient,
  crypto: FilesCrypto,
  vaultKey: CryptoKey,
): Promise<FileView[]> {
  const sealed = await getDeletedFiles(api);
  if (sealed.length === 0) return [];
  let outcomes: FileMetaOutcome[];
  try {
    outcomes = await crypto.decryptMetadata(vaultKey, sealed);
  } catch {
    outcomes = [];
  }
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  return sealed.map((dto) => viewFromOutcome(dto, byId.get(dto.id)));
}

export { deletedFilesQueryKey };

export function useDeletedFiles() {
  const crypto = useFilesCrypto();
  return useUnlockedQuery(deletedFilesQueryKey, (api, vaultKey) => loadDeletedFiles(api, crypto, vaultKey));
}
