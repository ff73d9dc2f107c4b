import { storageTypesResponseSchema, type StorageTypesResponse } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { defineGetQuery } from '../../../lib/get-query';

/**
 * GET /api/files/storage-types → {types, kinds: [{type, label, configured, enableWith}], default}:
 * every storage kind the product supports (local disk, S3/R2/MinIO, Cloudinary), whether this
 * deployment has it configured and the settings that turn it on. The upload dialog shows them
 * all, the ones not configured disabled with that explanation, and preselects the default.
 */
const storageTypes = defineGetQuery(
  '/files/storage-types',
  storageTypesResponseSchema,
  'files/storage-types',
);

export const getStorageTypes: (api: ApiClient) => Promise<StorageTypesResponse> = storageTypes.get;
export const storageTypesQueryKey = storageTypes.queryKey;
export const useStorageTypes = storageTypes.use;
