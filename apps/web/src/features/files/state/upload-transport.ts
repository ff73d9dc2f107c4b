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
  /**
   * POST multipart/form-data: every field, then the bytes as `file`, for a signed direct upload
   * (POST /api/files/cloudinary/upload-url). The upload queue does not use it: Cloudinary uploads
   * go through the files service's blob route with a PUT, like local disk.
   */
  postForm(
    url: string,
    fields: Readonly<Record<string, string>>,
    file: Blob,
    onProgress: UploadProgress,
    signal: AbortSignal,
  ): Promise<void>;
}

function abortError(): Error {
  const error = new Error('Upload cancelled');
  error.name = 'AbortError';
  return error;
}

function send(
  method: 'PUT' | 'POST',
  url: string,
  body: Blob | FormData,
  onProgress: UploadProgress,
  signal: AbortSignal,
  contentType?: string,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal.removeEventListener('abort', onAbort);
    xhr.open(method, url);
    // Signed URLs carry their own authorisation: no cookies, no bearer token to storage.
    xhr.withCredentials = false;
    if (contentType) xhr.setRequestHeader('Content-Type', contentType);
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
  put: (url, body, onProgress, signal) =>
    send('PUT', url, body, onProgress, signal, 'application/octet-stream'),
  postForm: (url, fields, file, onProgress, signal) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('file', file, 'encrypted.bin');
    return send('POST', url, form, onProgress, signal);
  },
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
