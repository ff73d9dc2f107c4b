import { encryptedSizeFor } from '@vault/crypto';
import { BufferPool, createBatchedDecryptStream } from './files-chunks';
import type { FileDecryptParams, FilesDownloadErrorInfo } from './files-download-messages';
import { DECRYPT_BATCH_BYTES, downloadErrorInfo, openFileKey } from './files-download-ops';
import { RpcError, transfer } from './worker-rpc';

/**
 * The worker's half of `fetchDecrypt` (files-download-crypto.ts): fetch the stored object here,
 * open it batch by batch, and send the verified plaintext to the page in transferred buffers, at
 * most PIECES_IN_FLIGHT unacknowledged; the page acknowledges each piece once written (handing
 * the buffer back for reuse when its sink keeps no reference), which is the backpressure.
 * Measured (bench/files.bench.mjs): the page no longer copies every stored byte into this worker,
 * nor every plaintext byte back.
 */

/** Pieces sent and not yet written by the page. */
const PIECES_IN_FLIGHT = 3;

class FetchJob {
  readonly controller = new AbortController();
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
    this.controller.abort();
    this.wake();
  }

  private wake(): void {
    const w = this.waiting;
    this.waiting = null;
    w?.();
  }
}

/** What the page does with the progress and the plaintext (callbacks across worker-rpc.ts). */
export interface FetchDecryptSink {
  /** Stored bytes received so far; `done` once the object has ended. */
  onReceived(bytes: number, done: boolean): void;
  /** The next verified plaintext, in a transferred buffer. */
  onPiece(data: ArrayBuffer): void;
}

/** The running fetchDecrypts of one worker, by the page's job number (for their acks). */
export class FetchDecryptJobs {
  private readonly jobs = new Map<number, FetchJob>();

  constructor(private readonly fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init)) {}

  /** A piece was written (unknown jobs are ignored: the job has ended). */
  ack(jobId: number, buffer?: ArrayBuffer): void {
    this.jobs.get(jobId)?.ack(buffer);
  }

  /** Resolves once every chunk and the end verified; throws RpcError (FilesDownloadErrorInfo). */
  async run(
    jobId: number,
    req: { vaultKey: CryptoKey; file: FileDecryptParams; url: string },
    sink: FetchDecryptSink,
    signal: AbortSignal,
  ): Promise<void> {
    const job = new FetchJob();
    this.jobs.set(jobId, job);
    const cancel = () => job.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      await run(req, job, sink, this.fetchImpl);
    } finally {
      signal.removeEventListener('abort', cancel);
      this.jobs.delete(jobId);
    }
  }
}

function failure(
  phase: FilesDownloadErrorInfo['phase'],
  error: unknown,
  extra: Partial<FilesDownloadErrorInfo> = {},
): RpcError<FilesDownloadErrorInfo> {
  return new RpcError(downloadErrorInfo(phase, error, extra));
}

async function run(
  req: { vaultKey: CryptoKey; file: FileDecryptParams; url: string },
  job: FetchJob,
  sink: FetchDecryptSink,
  fetchImpl: typeof fetch,
): Promise<void> {
  let fileKey: CryptoKey;
  try {
    fileKey = await openFileKey(req.vaultKey, req.file);
  } catch (error) {
    throw failure('key', error);
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
    throw failure('network', error);
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    const status = response.ok ? 0 : response.status;
    throw failure(response.ok ? 'network' : 'http', new Error(`HTTP ${response.status}`), { status });
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
    throw failure('stream', error);
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
        // A read that fails because this job aborted the fetch (the decryptor refused the bytes,
        // or the page cancelled) is not the network's fault: the refusal is the reason to report.
        if (!job.controller.signal.aborted) sourceError = error;
        await writer.abort(error).catch(() => undefined);
        return;
      }
      if (chunk.done) break;
      received += chunk.value.byteLength;
      const now = Math.floor((received * 100) / total);
      if (now !== percent) {
        percent = now;
        sink.onReceived(received, false);
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
    sink.onReceived(received, true);
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
      sink.onPiece(transfer(data, [data]));
    }
    await feeding;
  } catch (error) {
    job.controller.abort();
    await plaintext.cancel().catch(() => undefined);
    await body.cancel().catch(() => undefined);
    await feeding.catch(() => undefined);
    throw sourceError !== null ? failure('network', sourceError) : failure('stream', error);
  }
}
