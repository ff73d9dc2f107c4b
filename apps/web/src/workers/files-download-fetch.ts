import { encryptedSizeFor } from '@vault/crypto';
import { cryptoErrorCode } from './crypto-service';
import { BufferPool, createBatchedDecryptStream } from './files-chunks';
import type {
  FilesDownloadControl,
  FilesDownloadErrorInfo,
  FilesDownloadResponse,
  FilesFetchDecryptRequest,
} from './files-download-messages';
import { DECRYPT_BATCH_BYTES, openFileKey } from './files-download-ops';

/**
 * The worker's half of `fetchDecrypt` (files-download-messages.ts): fetch the stored object here,
 * open it batch by batch, and send the verified plaintext to the page in transferred buffers, at
 * most PIECES_IN_FLIGHT unacknowledged. Measured (bench/files.bench.mjs): the page no longer
 * copies every stored byte into this worker, nor every plaintext byte back.
 */

export type FetchDecryptPost = (message: FilesDownloadResponse, transfer?: Transferable[]) => void;

/** Pieces sent and not yet written by the page. */
const PIECES_IN_FLIGHT = 3;

class FetchJob {
  readonly controller = new AbortController();
  /** The page cancelled: nothing more is posted. */
  cancelled = false;
  readonly outputs = new BufferPool(PIECES_IN_FLIGHT + 2);
  private unacked = 0;
  private waiting: (() => void) | null = null;

  /** Resolves when another piece may be sent (or the job was cancelled). */
  async credit(): Promise<void> {
    while (this.unacked >= PIECES_IN_FLIGHT && !this.controller.signal.aborted) {
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
    this.unacked += 1;
  }

  ack(buffer?: ArrayBuffer): void {
    if (buffer) this.outputs.give(buffer);
    this.unacked = Math.max(0, this.unacked - 1);
    this.wake();
  }

  cancel(): void {
    this.cancelled = true;
    this.controller.abort();
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }
}

const jobs = new Map<number, FetchJob>();

/** `ack` and `cancel` for a running fetchDecrypt (unknown ids are ignored: the job has ended). */
export function controlFetchDecrypt(message: FilesDownloadControl): void {
  const job = jobs.get(message.id);
  if (!job) return;
  if (message.op === 'cancel') job.cancel();
  else job.ack(message.buffer);
}

function info(
  phase: FilesDownloadErrorInfo['phase'],
  error: unknown,
  extra: Partial<FilesDownloadErrorInfo> = {},
): FilesDownloadErrorInfo {
  const code = cryptoErrorCode(error);
  const message = error instanceof Error && error.message ? error.message : String(error);
  if (phase === 'key') {
    return { code: code === 'DECRYPT_FAILED' ? 'KEY_UNAVAILABLE' : (code ?? 'INTERNAL'), message, phase };
  }
  return { code: code ?? 'INTERNAL', message, phase, ...extra };
}

export async function runFetchDecrypt(
  req: FilesFetchDecryptRequest,
  post: FetchDecryptPost,
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<void> {
  const job = new FetchJob();
  jobs.set(req.id, job);
  try {
    await run(req, job, post, fetchImpl);
  } finally {
    jobs.delete(req.id);
  }
}

async function run(
  req: FilesFetchDecryptRequest,
  job: FetchJob,
  post: FetchDecryptPost,
  fetchImpl: typeof fetch,
): Promise<void> {
  const fail = (error: FilesDownloadErrorInfo) => {
    if (!job.cancelled) post({ id: req.id, type: 'error', error });
  };
  let fileKey: CryptoKey;
  try {
    fileKey = await openFileKey(req.vaultKey, req.file);
  } catch (error) {
    fail(info('key', error));
    return;
  }
  let response: Response;
  try {
    // A signed URL needs no Authorization header and no cookie (an S3 presigned URL must see neither).
    response = await fetchImpl(req.url, {
      method: 'GET',
      credentials: 'omit',
      cache: 'no-store',
      referrerPolicy: 'no-referrer',
      signal: job.controller.signal,
    });
  } catch (error) {
    fail(info('network', error));
    return;
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    const status = response.ok ? 0 : response.status;
    fail(info(response.ok ? 'network' : 'http', new Error(`HTTP ${response.status}`), { status }));
    return;
  }
  let transform: TransformStream<Uint8Array, Uint8Array>;
  try {
    transform = createBatchedDecryptStream(
      {
        fileKey,
        fileId: req.file.fileId,
        iv: req.file.iv,
        size: req.file.size,
        chunkSize: req.file.chunkSize,
        batchBytes: DECRYPT_BATCH_BYTES,
      },
      job.outputs,
    );
  } catch (error) {
    await response.body.cancel().catch(() => undefined);
    fail(info('stream', error));
    return;
  }

  // Stored bytes → decryptor, with the received count for the page's percent (posted when the
  // whole percent changes, and at the end).
  const body = response.body.getReader();
  const total = encryptedSizeFor(req.file.size, req.file.chunkSize);
  let sourceError: unknown = null;
  const feeding = (async () => {
    const writer = transform.writable.getWriter();
    let received = 0;
    let percent = -1;
    for (;;) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await body.read();
      } catch (error) {
        sourceError = error;
        await writer.abort(error).catch(() => undefined);
        return;
      }
      if (chunk.done) break;
      received += chunk.value.byteLength;
      const now = Math.floor((received * 100) / total);
      if (now !== percent) {
        percent = now;
        post({ id: req.id, type: 'received', bytes: received, done: false });
      }
      try {
        // Queued, not awaited: the network is read on while earlier bytes are decrypted.
        await writer.ready;
        writer.write(chunk.value).catch(() => undefined);
      } catch {
        // The decryptor failed (its reader has the error): stop the download behind it.
        await body.cancel().catch(() => undefined);
        return;
      }
    }
    post({ id: req.id, type: 'received', bytes: received, done: true });
    await writer.close().catch(() => undefined);
  })();

  const plaintext = transform.readable.getReader();
  try {
    for (;;) {
      const { done, value } = await plaintext.read();
      if (done) break;
      await job.credit();
      if (job.controller.signal.aborted) throw new Error('cancelled');
      const whole = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
      const data = (whole ? value.buffer : value.slice().buffer) as ArrayBuffer;
      post({ id: req.id, type: 'piece', data }, [data]);
    }
    await feeding;
    post({ id: req.id, type: 'done' });
  } catch (error) {
    job.controller.abort();
    await plaintext.cancel().catch(() => undefined);
    await body.cancel().catch(() => undefined);
    await feeding.catch(() => undefined);
    if (sourceError !== null) fail(info('network', sourceError));
    else fail(info('stream', error));
  }
}
