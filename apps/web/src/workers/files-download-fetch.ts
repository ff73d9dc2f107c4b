import { encryptedSizeFor } from '@vault/crypto';
import { cryptoErrorCode } from './crypto-service';
import { BufferPool, createBatchedDecryptStream } from './files-chunks';
import {
  SAVE_UNAVAILABLE,
  type FilesDownloadControl,
  type FilesDownloadErrorInfo,
  type FilesDownloadResponse,
  type FilesFetchDecryptRequest,
} from './files-download-messages';
import { DECRYPT_BATCH_BYTES, openFileKey } from './files-download-ops';

/**
 * The worker's half of `fetchDecrypt` (files-download-messages.ts): fetch the stored object here,
 * open it batch by batch, and write the verified plaintext to the picked file (`save`, FileOut) or
 * send it to the page in transferred buffers, at most PIECES_IN_FLIGHT unacknowledged. Measured (bench/files.bench.mjs): the page no longer
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

/** Where the verified plaintext goes: the page (`piece` messages) or the picked file (FileOut). */
interface PlaintextOut {
  /** Takes the next verified piece; its buffer may be handed on or given back to the pool. */
  put(value: Uint8Array): Promise<void>;
  /** Every chunk verified: commit. */
  finish(): Promise<void>;
  /** Anything failed: nothing may look complete. */
  abort(reason: unknown): Promise<void>;
}

/** A write to the picked file failed (its message goes to the page as phase 'sink'). */
class SinkFailure extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error && reason.message ? reason.message : String(reason));
  }
}

/**
 * Bytes per write to the picked file. Measured (bench/files.bench.mjs): 4 MiB writes were fast but
 * the renderer's peak grew with the file (+92 MiB at 25 MiB, +140..149 at 100); 2 MiB keeps it
 * flat (+78..86 at both) at about the same speed; 1 MiB was slower.
 */
export const WRITE_BYTES = 2 * 1024 * 1024;

/**
 * Writes the plaintext to the file the user picked, from this worker: no hop through the page and
 * no buffer round trips. Pieces are copied into WRITE_BYTES staging buffers (two: one fills while
 * the other is being written), so the disk sees few big writes and memory stays flat. Chromium
 * writes to a swap file and moves it into place only on close(); abort() discards it.
 */
class FileOut implements PlaintextOut {
  private readonly staging: Uint8Array<ArrayBuffer>[] = [];
  private readonly pending: (Promise<void> | null)[] = [null, null];
  private current = 0;
  private filled = 0;

  private saved = 0;
  private failed: unknown = null;

  constructor(
    private readonly writer: WritableStreamDefaultWriter<BufferSource>,
    private readonly outputs: BufferPool,
    /** The page's decrypting percent: bytes handed to the file so far. */
    private readonly onSaved: (bytes: number) => void,
  ) {}

  async put(value: Uint8Array): Promise<void> {
    // A write already failed: stop the download now rather than at the end.
    if (this.failed !== null) throw new SinkFailure(this.failed);
    let at = 0;
    while (at < value.byteLength) {
      if (this.filled === 0) await this.settle(this.current);
      const buffer = (this.staging[this.current] ??= new Uint8Array(WRITE_BYTES));
      const n = Math.min(value.byteLength - at, WRITE_BYTES - this.filled);
      buffer.set(value.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === WRITE_BYTES) this.flush();
    }
    // Copied: the decryptor may reuse it.
    if (value.byteOffset === 0 && value.byteLength === value.buffer.byteLength) {
      this.outputs.give(value.buffer as ArrayBuffer);
    }
    this.saved += value.byteLength;
    this.onSaved(this.saved);
  }

  async finish(): Promise<void> {
    this.flush();
    await this.settle(0);
    await this.settle(1);
    try {
      await this.writer.close();
    } catch (error) {
      throw new SinkFailure(error);
    }
  }

  async abort(reason: unknown): Promise<void> {
    await this.writer.abort(reason).catch(() => undefined);
  }

  private flush(): void {
    if (this.filled === 0) return;
    const buffer = this.staging[this.current]!;
    const written = this.writer.write(buffer.subarray(0, this.filled));
    written.catch((error: unknown) => {
      this.failed ??= error;
    });
    this.pending[this.current] = written;
    this.current ^= 1;
    this.filled = 0;
  }

  /** Waits until staging buffer `i` is written (free again); a failed write fails the download. */
  private async settle(i: number): Promise<void> {
    const written = this.pending[i];
    if (!written) return;
    try {
      await written;
    } catch (error) {
      throw new SinkFailure(error);
    }
    this.pending[i] = null;
  }
}

/** The page path: transferred `piece` messages, at most PIECES_IN_FLIGHT unacknowledged. */
function pageOut(req: FilesFetchDecryptRequest, job: FetchJob, post: FetchDecryptPost): PlaintextOut {
  return {
    async put(value) {
      await job.credit();
      if (job.controller.signal.aborted) throw new Error('cancelled');
      const whole = value.byteOffset === 0 && value.byteLength === value.buffer.byteLength;
      const data = (whole ? value.buffer : value.slice().buffer) as ArrayBuffer;
      post({ id: req.id, type: 'piece', data }, [data]);
    },
    finish: () => Promise.resolve(),
    abort: () => Promise.resolve(),
  };
}

export async function runFetchDecrypt(
  req: FilesFetchDecryptRequest,
  post: FetchDecryptPost,
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<void> {
  const job = new FetchJob();
  jobs.set(req.id, job);
  let out: PlaintextOut | null = null;
  let committed = false;
  try {
    committed = await run(req, job, post, fetchImpl, async () => {
      if (!req.save) return (out = pageOut(req, job, post));
      const writable = await req.save.createWritable({ keepExistingData: false });
      return (out = new FileOut(writable.getWriter(), job.outputs, (bytes) => {
        if (!job.cancelled) post({ id: req.id, type: 'saved', bytes });
      }));
    });
  } finally {
    // Whatever stopped the transfer (the storage, the network, a bad tag, a cancel), a file
    // opened here is discarded rather than left looking complete.
    if (!committed) await (out as PlaintextOut | null)?.abort(new Error('download failed'));
    jobs.delete(req.id);
  }
}

async function run(
  req: FilesFetchDecryptRequest,
  job: FetchJob,
  post: FetchDecryptPost,
  fetchImpl: typeof fetch,
  open: () => Promise<PlaintextOut>,
): Promise<boolean> {
  const fail = (error: FilesDownloadErrorInfo) => {
    if (!job.cancelled) post({ id: req.id, type: 'error', error });
  };
  let fileKey: CryptoKey;
  try {
    fileKey = await openFileKey(req.vaultKey, req.file);
  } catch (error) {
    fail(info('key', error));
    return false;
  }
  let out: PlaintextOut;
  try {
    out = await open();
  } catch (error) {
    // Nothing fetched yet: the page can still write the file itself.
    fail({ ...info('sink', error), code: SAVE_UNAVAILABLE });
    return false;
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
    return false;
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel().catch(() => undefined);
    const status = response.ok ? 0 : response.status;
    fail(info(response.ok ? 'network' : 'http', new Error(`HTTP ${response.status}`), { status }));
    return false;
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
    return false;
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
      if (job.controller.signal.aborted) throw new Error('cancelled');
      await out.put(value);
    }
    await feeding;
    // Verified to the end marker: only now is the file committed.
    await out.finish();
    post({ id: req.id, type: 'done' });
    return true;
  } catch (error) {
    job.controller.abort();
    await plaintext.cancel().catch(() => undefined);
    await body.cancel().catch(() => undefined);
    await feeding.catch(() => undefined);
    if (sourceError !== null) fail(info('network', sourceError));
    else if (error instanceof SinkFailure) fail(info('sink', error.reason));
    else fail(info('stream', error));
    return false;
  }
}
