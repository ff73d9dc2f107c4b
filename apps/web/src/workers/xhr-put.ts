/**
 * A PUT of a Blob to a signed storage URL with XMLHttpRequest: the page's whole-object uploads
 * (features/files/state/upload-transport.ts) and the upload worker's parts (files-parts.ts)
 * both send this way. XHR because fetch() reports no upload progress and cannot stream a request
 * body over HTTP/1.1; the body is a Blob the browser reads from its blob store or a staging file
 * as it sends, never one JS buffer.
 */

/**
 * A storage answer that was not a success: status 0 when the network failed. `serverMessage` is
 * the files service's own text when it answered (the blob route's JSON errors, e.g. 503
 * STORAGE_UNAVAILABLE "... Nothing was stored; please try again."); S3's XML errors keep the status.
 */
export class UploadHttpError extends Error {
  /** The code it keeps when it crosses from the upload worker to the page. */
  readonly code = 'UPLOAD_HTTP';

  constructor(
    readonly status: number,
    serverMessage?: string,
  ) {
    super(serverMessage ?? (status === 0 ? 'Upload failed' : `Upload failed with status ${status}`));
    this.name = 'UploadHttpError';
  }
}

/** The `error` text of a JSON error answer (docs/api.md "Errors"), if that is what came back. */
function serverMessageOf(xhr: XMLHttpRequest): string | undefined {
  if (!/^application\/json\b/i.test(xhr.getResponseHeader('content-type') ?? '')) return undefined;
  try {
    const body = JSON.parse(xhr.responseText) as { error?: unknown };
    return typeof body.error === 'string' && body.error.length > 0 && body.error.length <= 300
      ? body.error
      : undefined;
  } catch {
    return undefined;
  }
}

export interface XhrPutOptions {
  /** Request headers besides `Content-Type: application/octet-stream`. */
  headers?: Record<string, string>;
  onProgress?: (sent: number, total: number) => void;
  /** Called once the request body has left (the storage may still be storing it). */
  onBodySent?: () => void;
  signal?: AbortSignal;
}

function abortError(): Error {
  const error = new Error('Upload cancelled');
  error.name = 'AbortError';
  return error;
}

/** Resolves on a 2xx; rejects with UploadHttpError, or an AbortError when `signal` aborts. */
export function xhrPut(url: string, body: Blob, options: XhrPutOptions = {}): Promise<void> {
  const { headers = {}, onProgress, onBodySent, signal } = options;
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('PUT', url);
    // Signed URLs carry their own authorisation: no cookies, no bearer token to storage.
    xhr.withCredentials = false;
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    if (onProgress) {
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) onProgress(event.loaded, event.total);
      });
    }
    if (onBodySent) xhr.upload.addEventListener('load', onBodySent, { once: true });
    xhr.addEventListener('load', () => {
      done();
      if (xhr.status >= 200 && xhr.status < 300) resolve();
      else reject(new UploadHttpError(xhr.status, serverMessageOf(xhr)));
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
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(body);
  });
}
