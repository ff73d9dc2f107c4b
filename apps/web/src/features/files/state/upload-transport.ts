/**
 * Sends an upload's ciphertext straight to storage, with real progress: one XMLHttpRequest PUT
 * of the staged Blob (workers/xhr-put.ts), never one JS buffer.
 */
import { UploadHttpError, xhrPut } from '../../../workers/xhr-put';

export { UploadHttpError };

export type UploadProgress = (sent: number, total: number) => void;

export interface UploadTransport {
  /** PUT the bytes to a signed URL (no credentials, no Authorization header): what every upload uses. */
  put(url: string, body: Blob, onProgress: UploadProgress, signal: AbortSignal): Promise<void>;
}

export const xhrUploadTransport: UploadTransport = {
  put: (url, body, onProgress, signal) => xhrPut(url, body, { onProgress, signal }),
};

/**
 * Where to send the bytes. The blob route (local disk, Cloudinary) answers a relative URL
 * (`/api/files/blob/...`), resolved against the API's origin; S3 answers an absolute presigned
 * one, used as it is.
 * Only http(s) is accepted.
 */
export function resolveUploadUrl(uploadUrl: string, apiBaseUrl: string, pageOrigin: string): string {
  const apiBase = new URL(apiBaseUrl, pageOrigin);
  const url = new URL(uploadUrl, apiBase.origin);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error('Unexpected upload address from the server');
  }
  return url.toString();
}
