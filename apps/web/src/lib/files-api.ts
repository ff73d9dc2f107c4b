import {
  createUploadResponseSchema,
  downloadUrlResponseSchema,
  fileResponseSchema,
  type CompleteUploadBody,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileAccessBody,
  type FileDto,
  type StorageType,
} from '@vault/contracts';
import type { SealedUploadFields } from '../workers/files-messages';
import { metadataBody } from '../workers/files-upload-body';
import type { ApiClient } from './api-client';
import { parseResponse } from './parse-response';

/**
 * The file calls that the File Vault and the testing dashboard's file check both make, each
 * parsed with its contract schema. `signal` aborts the request (the dashboard's Stop).
 */
interface CallOptions {
  signal?: AbortSignal;
}

/**
 * POST /api/files/upload-url {fileId, size, encryptedSize, chunkSize, iv, wrappedKey,
 * encryptedName, encryptedMimeType, encryptedTags, encryptedThumbnail?, storageType} →
 * {fileId, uploadUrl, expiresAt}. Records a pending file and signs a PUT of its encrypted bytes
 * (local disk and Cloudinary: a relative `/api/files/blob/...` URL of the files service's blob
 * route; S3: an absolute presigned URL).
 */
export async function createUpload(
  api: ApiClient,
  fields: SealedUploadFields,
  storageType: StorageType,
  { signal }: CallOptions = {},
): Promise<CreateUploadResponse> {
  return parseResponse(
    createUploadResponseSchema,
    await api.post<unknown>('/files/upload-url', { ...metadataBody(fields), storageType }, { signal }),
  );
}

/**
 * POST /api/files/upload-complete {fileId, plaintextSha256?} → {file}: the server checks the
 * stored object's size against `encryptedSize`, makes the file visible and queues the scan (every
 * storage type). `plaintextSha256` only when the account opted in to the fingerprint check.
 */
export async function completeUpload(
  api: ApiClient,
  fileId: string,
  plaintextSha256?: string,
  { signal }: CallOptions = {},
): Promise<FileDto> {
  const body: CompleteUploadBody = plaintextSha256 ? { fileId, plaintextSha256 } : { fileId };
  return parseResponse(
    fileResponseSchema,
    await api.post<unknown>('/files/upload-complete', body, { signal }),
  ).file;
}

/**
 * POST /api/files/{id}/download-url {authKey} → {downloadUrl, size, encryptedSize, expiresAt}.
 * The URL is signed and lives 5 minutes: relative (`/api/files/blob/...`, this deployment's own
 * storage) or absolute (an S3 presigned URL). 401 INVALID_PASSWORD for a wrong password; 423
 * {retryAfter} while locked out; 403 FILE_INFECTED for a file the scan flagged.
 */
export async function getDownloadUrl(
  api: ApiClient,
  fileId: string,
  body: FileAccessBody,
  { signal }: CallOptions = {},
): Promise<DownloadUrlResponse> {
  return parseResponse(
    downloadUrlResponseSchema,
    await api.post<unknown>(`/files/${encodeURIComponent(fileId)}/download-url`, body, { signal }),
  );
}
