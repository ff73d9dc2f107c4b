/**
 * The client side of files, as the web app does it (`@vault/crypto`): metadata sealed under a fresh
 * file key, content encrypted in 64 KiB chunks, the ciphertext PUT to the signed upload URL.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  expectedEncryptedSize,
  FILE_CHUNK_SIZE,
  type CreateUploadBody,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileDto,
  type FileResponse,
  type StorageType,
} from '@vault/contracts';
import {
  bytesToHex,
  decryptFileBytes,
  decryptFileMetadata,
  encryptFileBytes,
  encryptFileMetadata,
  newItemId,
  unwrapFileKey,
  type FileMetadataPlaintext,
} from '@vault/crypto';
import type { TestAccount } from './accounts';
import { e2eEnv } from './env';
import { assertStatus, type ApiClient } from './http';

export interface SealedFile {
  body: CreateUploadBody;
  ciphertext: Uint8Array;
}

export async function sealFile(
  account: TestAccount,
  plaintext: Uint8Array,
  meta: FileMetadataPlaintext,
  storageType: StorageType = 'local',
): Promise<SealedFile> {
  const fileId = newItemId();
  const sealed = await encryptFileMetadata(account.keys.vaultKey, fileId, meta);
  const iv = randomBytes(12);
  const ciphertext = await encryptFileBytes(
    { fileKey: sealed.fileKey, fileId, iv, chunkSize: FILE_CHUNK_SIZE },
    plaintext,
  );
  return {
    ciphertext,
    body: {
      fileId,
      size: plaintext.length,
      encryptedSize: expectedEncryptedSize(plaintext.length, FILE_CHUNK_SIZE),
      chunkSize: FILE_CHUNK_SIZE,
      iv: bytesToHex(iv),
      wrappedKey: sealed.wrappedKey,
      encryptedName: sealed.encryptedName,
      encryptedMimeType: sealed.encryptedMimeType,
      encryptedTags: sealed.encryptedTags,
      storageType,
    },
  };
}

/** Resolves an upload or download URL (the blob route's are relative to the API origin). */
export function absoluteUrl(url: string): string {
  return new URL(url, e2eEnv().baseUrl).toString();
}

/** PUT of `bytes` to an upload URL; `headers` add to (or override) the octet-stream content type. */
export async function putBytes(
  url: string,
  bytes: Uint8Array,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(absoluteUrl(url), {
    method: 'PUT',
    body: new Blob([bytes as Uint8Array<ArrayBuffer>]),
    headers: { 'content-type': 'application/octet-stream', ...headers },
  });
}

export interface UploadOptions {
  /** Sent with upload-complete: the plaintext's fingerprint, for the malware-fingerprint check. */
  plaintextSha256?: string;
}

/** upload-url for a sealed file, answered 201 (`what` names the call in a failure): where to PUT it. */
export async function requestUpload(
  account: TestAccount,
  sealed: SealedFile,
  what = 'upload-url',
): Promise<CreateUploadResponse> {
  return assertStatus(
    await account.client.post<CreateUploadResponse>('/api/files/upload-url', sealed.body),
    201,
    what,
  ).body;
}

/** upload-url → PUT → upload-complete; the file as the API lists it. */
export async function uploadFile(
  account: TestAccount,
  plaintext: Uint8Array,
  meta: FileMetadataPlaintext,
  storageType: StorageType = 'local',
  options: UploadOptions = {},
): Promise<{ sealed: SealedFile; file: FileDto }> {
  const sealed = await sealFile(account, plaintext, meta, storageType);
  const started = await requestUpload(account, sealed);
  const put = await putBytes(started.uploadUrl, sealed.ciphertext);
  if (put.status >= 300) throw new Error(`PUT ${put.status}: ${await put.text()}`);
  const done = assertStatus(
    await account.client.post<FileResponse>('/api/files/upload-complete', {
      fileId: sealed.body.fileId,
      ...(options.plaintextSha256 ? { plaintextSha256: options.plaintextSha256 } : {}),
    }),
    200,
    'upload-complete',
  );
  return { sealed, file: done.body.file };
}

/** download-url with the account's authKey, fetch, decrypt: the plaintext (throws on any tampering). */
export async function downloadFile(
  account: TestAccount,
  file: FileDto,
  client: ApiClient = account.client,
): Promise<Uint8Array> {
  const link = assertStatus(
    await client.post<DownloadUrlResponse>(`/api/files/${file.id}/download-url`, {
      authKey: account.keys.authKey,
    }),
    200,
    'download-url',
  );
  const res = await fetch(absoluteUrl(link.body.downloadUrl));
  if (res.status !== 200) throw new Error(`download ${res.status}`);
  const ciphertext = new Uint8Array(await res.arrayBuffer());
  const fileKey = await unwrapFileKey(account.keys.vaultKey, file.id, file.wrappedKey);
  return decryptFileBytes(
    { fileKey, fileId: file.id, iv: file.iv, size: file.size, chunkSize: file.chunkSize },
    ciphertext,
  );
}

export function openMetadata(account: TestAccount, file: FileDto): Promise<FileMetadataPlaintext> {
  return decryptFileMetadata(account.keys.vaultKey, file.id, file);
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
