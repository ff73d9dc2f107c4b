import type { PartPut } from '../../../workers/files-parts';
import { UploadHttpError, type UploadProgress, type UploadTransport } from '../state/upload-transport';
import type { FakeFilesApi } from './files-harness';

/** Reads a Blob in jsdom (whose Blob has no arrayBuffer()). */
export function readBlob(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((b) => new Uint8Array(b));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

interface StorageRequest {
  method: 'PUT' | 'POST';
  url: string;
  fields?: Record<string, string>;
  size: number;
  /** A part's Content-Range (`bytes first-last/total`). */
  range?: string;
}

/**
 * The object storage the browser uploads to: records each request, reports progress in two
 * steps (half, then all), stores the bytes in the fake API. `hold()` stops after the first
 * progress event until `release()`; `fail(status)` answers the next upload with that status.
 */
export class FakeStorage implements UploadTransport {
  readonly requests: StorageRequest[] = [];
  private failures: number[] = [];
  private holding = false;
  private waiting: Array<() => void> = [];

  constructor(private readonly api: FakeFilesApi) {}

  fail(status: number): this {
    this.failures.push(status);
    return this;
  }

  hold(): this {
    this.holding = true;
    return this;
  }

  release(): void {
    this.holding = false;
    const waiting = this.waiting;
    this.waiting = [];
    waiting.forEach((go) => go());
  }

  private async receive(
    req: StorageRequest,
    fileId: string,
    body: Blob,
    onProgress: UploadProgress,
    signal: AbortSignal,
  ): Promise<void> {
    this.requests.push(req);
    onProgress(Math.floor(body.size / 2), body.size);
    if (this.holding) {
      await new Promise<void>((resolve, reject) => {
        this.waiting.push(resolve);
        signal.addEventListener('abort', () => {
          const error = new Error('aborted');
          error.name = 'AbortError';
          reject(error);
        });
      });
    }
    const status = this.failures.shift();
    if (status !== undefined) throw new UploadHttpError(status);
    this.api.stored.set(fileId, await readBlob(body));
    onProgress(body.size, body.size);
  }

  put = async (url: string, body: Blob, onProgress: UploadProgress, signal: AbortSignal) => {
    const fileId = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    await this.receive({ method: 'PUT', url, size: body.size }, fileId, body, onProgress, signal);
  };

  /**
   * One part of an upload sent in parts (the files service's rules: in order, the first part at 0
   * starts over, anything else must start where the stored bytes end: 409 otherwise). `fail`
   * answers the next part; `hold` stops before storing a part until `release`.
   */
  putPart: PartPut = async ({ url, ranged, body: blob, first, last, total }) => {
    const body = await readBlob(blob);
    const fileId = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
    this.requests.push({
      method: 'PUT',
      url,
      size: body.length,
      ...(ranged ? { range: `bytes ${first}-${last}/${total}` } : {}),
    });
    if (this.holding) await new Promise<void>((resolve) => this.waiting.push(resolve));
    const status = this.failures.shift();
    if (status !== undefined) throw new UploadHttpError(status);
    if (!ranged) {
      // A part URL (S3): parts in any order, joined once every byte is there.
      const parts = this.numbered.get(fileId) ?? new Map<number, Uint8Array>();
      parts.set(first, body);
      this.numbered.set(fileId, parts);
      if ([...parts.values()].reduce((n, p) => n + p.length, 0) === total) {
        const joined = new Uint8Array(total);
        for (const [at, p] of parts) joined.set(p, at);
        this.numbered.delete(fileId);
        this.api.stored.set(fileId, joined);
      }
      return;
    }
    const held = first === 0 ? new Uint8Array(0) : (this.partial.get(fileId) ?? new Uint8Array(0));
    if (held.length !== first || last - first + 1 !== body.length) throw new UploadHttpError(409);
    const joined = new Uint8Array(held.length + body.length);
    joined.set(held);
    joined.set(body, held.length);
    if (last + 1 === total) {
      this.partial.delete(fileId);
      this.api.stored.set(fileId, joined);
    } else {
      this.partial.set(fileId, joined);
    }
  };

  private readonly partial = new Map<string, Uint8Array>();
  private readonly numbered = new Map<string, Map<number, Uint8Array>>();
}
