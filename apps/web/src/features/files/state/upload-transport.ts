/**
 * Sends an upload's ciphertext straight to storage, with real progress. XMLHttpRequest, because
 * fetch() reports no upload progress and cannot stream a request body over HTTP/1.1 (see
 * workers/files-staging.ts): the body is a Blob the browser reads from its blob store or from
 * the OPFS staging file as it sends, never one JS buffer.
 */

/** A storage answer that was not a success: status 0 when the network failed. */
export class UploadHttpError extends Error {
  constructor(readonly status: number) {
    super(status === 0 ? 'Upload failed' : `Upload failed with status ${status}`);
    this.name = 'UploadHttpError';
  }
}

export type UploadProgress = (sent: number, total: number) => void;

export interface UploadTransport {
  /** PUT the bytes to a signed URL (no credentials, no Authorization header): what every upload uses. */
  put(url: string, body: Blob, onProgress: UploadProgress, signal: AbortSignal): Promise<void>;
}

function abortError(): Error {
  const error = new Error('Upload cancelled');
  error.name = 'AbortError';
  return error;
}

function putBlob(url: string, body: Blob, onProgress: UploadProgress, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal.removeEventListener('abort', onAbort);
    xhr.open('PUT', url);
    // Signed URLs carry their own authorisation: no cookies, no bearer token to storage.
    xhr.withCredentials = false;
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    xhr.addEventListener('load', () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new UploadHttpError(xhr.status));
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new UploadHttpError(0));
    });
    xhr.addEventListener('timeout', () => {
      done();
      reject(new UploadHttpError(0));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(abortError());
    });
    signal.addEventListener('abort', onAbort, { once: true });
    xhr.send(body);
  });
}

export const xhrUploadTransport: UploadTransport = {
  put: putBlob,
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
