import { storageTypesResponseSchema, type StorageTypesResponse } from '@vault/contracts';
import { useApiClient } from '../../../lib/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';

/**
 * GET /api/files/storage-types → {types, kinds: [{type, label, configured, enableWith}], default}:
 * every storage kind the product supports (local disk, S3/R2/MinIO, Cloudinary), whether this
 * deployment has it configured and the settings that turn it on. The upload dialog shows them
 * all, the ones not configured disabled with that explanation, and preselects the default.
 */
export async function getStorageTypes(api: ApiClient): Promise<StorageTypesResponse> {
  return parseResponse(storageTypesResponseSchema, await api.get<unknown>('/files/storage-types'));
}

export const storageTypesQueryKey = 'files/storage-types';

export function useStorageTypes(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: storageTypesQueryKey, queryFn: () => getStorageTypes(api), enabled });
}
