import { cryptoErrorCode } from './crypto-service';
import { controlFetchDecrypt, runFetchDecrypt } from './files-download-fetch';
import type {
  FilesDownloadErrorInfo,
  FilesDownloadMessage,
  FilesDownloadRequest,
  FilesDownloadResponse,
} from './files-download-messages';
import { decryptFileStream, openFileKey } from './files-download-ops';

/** Sends one answer; `transfer` lists what moves rather than copies (the plaintext stream). */
export type FilesDownloadPost = (message: FilesDownloadResponse, transfer?: Transferable[]) => void;

function describe(error: unknown, phase: FilesDownloadErrorInfo['phase']): FilesDownloadErrorInfo {
  const code = cryptoErrorCode(error);
  const message = error instanceof Error && error.message ? error.message : String(error);
  if (phase === 'key') {
    return { code: code === 'DECRYPT_FAILED' ? 'KEY_UNAVAILABLE' : (code ?? 'INTERNAL'), message, phase };
  }
  return { code: code ?? 'INTERNAL', message, phase };
}

/**
 * Runs one decrypt request: opens the file key, answers with the plaintext stream, then with
 * `done` or `error` once the last stored byte went through. Failures become `{code, message}`
 * (errors do not clone well, and a transferred stream's error loses its code on the way).
 */
export async function handleFilesDownloadRequest(
  req: FilesDownloadRequest,
  post: FilesDownloadPost,
): Promise<void> {
  let fileKey: CryptoKey;
  try {
    if (req.op !== 'decrypt') throw new Error('Unknown files-download operation');
    fileKey = await openFileKey(req.vaultKey, req.file);
  } catch (error) {
    // Nothing will read the stored bytes: stop the download behind them.
    req.encrypted?.cancel(error).catch(() => undefined);
    post({ id: req.id, type: 'error', error: describe(error, 'key') });
    return;
  }
  let done: Promise<void>;
  try {
    const decrypting = decryptFileStream(fileKey, req.file, req.encrypted);
    done = decrypting.done;
    post({ id: req.id, type: 'stream', plaintext: decrypting.plaintext }, [decrypting.plaintext]);
  } catch (error) {
    req.encrypted.cancel(error).catch(() => undefined);
    post({ id: req.id, type: 'error', error: describe(error, 'key') });
    return;
  }
  try {
    await done;
    post({ id: req.id, type: 'done' });
  } catch (error) {
    post({ id: req.id, type: 'error', error: describe(error, 'stream') });
  }
}

/**
 * Every message the worker gets: `decrypt` (a transferred stream), `fetchDecrypt` (the worker
 * fetches), and the page's `ack` / `cancel` for a running fetchDecrypt. `fetchImpl` is for tests.
 */
export function handleFilesDownloadMessage(
  message: FilesDownloadMessage,
  post: FilesDownloadPost,
  fetchImpl?: typeof fetch,
): Promise<void> {
  switch (message.op) {
    case 'ack':
    case 'cancel':
      controlFetchDecrypt(message);
      return Promise.resolve();
    case 'fetchDecrypt':
      return runFetchDecrypt(message, post, fetchImpl);
    default:
      return handleFilesDownloadRequest(message, post);
  }
}
