import { FetchDecryptJobs } from './files-download-fetch';
import type { FileDecryptParams, FilesDownloadErrorInfo } from './files-download-messages';
import { decryptFileStream, downloadErrorInfo, openFileKey } from './files-download-ops';
import { RpcError, transfer } from './worker-rpc';

/** decrypt()'s failures carry the code and message only (the page makes them CryptoOperationErrors). */
function failure(phase: FilesDownloadErrorInfo['phase'], error: unknown): RpcError {
  const { code, message } = downloadErrorInfo(phase, error);
  return new RpcError({ code, message });
}

/**
 * Opens the file key, hands the plaintext stream (transferred) to `onStream`, then resolves once
 * the last stored byte went through and verified, or rejects (KEY_UNAVAILABLE before the stream;
 * DECRYPT_FAILED, STREAM_TRUNCATED, ... after it: a transferred stream's error loses its code on
 * the way, so the verdict carries it). The stored bytes arrive as a transferred stream too, so
 * they flow with backpressure and no copy is kept in either realm.
 */
export async function decrypt(
  vaultKey: CryptoKey,
  file: FileDecryptParams,
  encrypted: ReadableStream<Uint8Array>,
  onStream: (plaintext: ReadableStream<Uint8Array>) => void,
): Promise<void> {
  let done: Promise<void>;
  try {
    const fileKey = await openFileKey(vaultKey, file);
    const decrypting = decryptFileStream(fileKey, file, encrypted);
    done = decrypting.done;
    onStream(transfer(decrypting.plaintext, [decrypting.plaintext]));
  } catch (error) {
    // Nothing will read the stored bytes: stop the download behind them.
    encrypted.cancel(error).catch(() => undefined);
    throw failure('key', error);
  }
  try {
    await done;
  } catch (error) {
    throw failure('stream', error);
  }
}

/**
 * What files-download.worker.ts serves (worker-rpc.ts): `decrypt` (a transferred stream, also run
 * in-thread by InlineFilesDownloadCrypto), and `fetchDecrypt` (the worker fetches the signed URL
 * itself, files-download-fetch.ts) with the page's `ack` of each piece. `fetchImpl` is for tests.
 */
export function createFilesDownloadApi(fetchImpl?: typeof fetch) {
  const jobs = new FetchDecryptJobs(fetchImpl);
  return {
    decrypt,
    fetchDecrypt: (
      jobId: number,
      vaultKey: CryptoKey,
      file: FileDecryptParams,
      url: string,
      onReceived: (bytes: number, done: boolean) => void,
      onPiece: (data: ArrayBuffer) => void,
      signal: AbortSignal,
    ) => jobs.run(jobId, { vaultKey, file, url }, { onReceived, onPiece }, signal),
    ack: (jobId: number, buffer?: ArrayBuffer) => jobs.ack(jobId, buffer),
  };
}

export type FilesDownloadApi = ReturnType<typeof createFilesDownloadApi>;
