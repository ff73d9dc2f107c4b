import { storageTypesResponseSchema, type StorageTypesResponse } from '@vault/contracts';
import { useApiClient } from '../../../lib/api-context';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';

/**
 * GET /api/files/storage-types → {types: [{type, label}], default}: the storage this deployment
 * has configured (local disk, S3/R2/MinIO, Cloudinary). The upload dialog offers exactly these.
 */
export async function getStorageTypes(api: ApiClient): Promise<StorageTypesResponse> {
  return parseResponse(storageTypesResponseSchema, await api.get<unknown>('/files/storage-types'));
}

export const storageTypesQueryKey = 'files/storage-types';

export function useStorageTypes(enabled = true) {
  const api = useApiClient();
  return useQuery({ queryKey: storageTypesQueryKey, queryFn: () => getStorageTypes(api), enabled });
}
