import { useCallback, useEffect, useRef } from 'react';
import type { FileView } from '../../types';
import { ACCESS_MESSAGES } from '../utils/access-messages';
import {
  FileAccessError,
  MemorySink,
  fetchDecrypted,
  isCancelled,
  resolveStorageUrl,
} from '../utils/fetch-decrypted';
import { DiskSink, pickSaveTarget, saveBlob } from '../utils/save-file';
import { paramsOf, type TransferDeps } from './transfer-params';
import type { TransferStatus } from './use-transfer-status';

/**
 * Downloads: one at a time per file, saved where the user picks (or as a Blob once every chunk
 * verified), with progress and a notice on failure. Leaving the File Vault aborts them all.
 */
export function useDownloads(
  { filesCrypto, fetchImpl, apiBaseUrl }: TransferDeps,
  { setFileProgress, notify, clearNoticeFor }: TransferStatus,
) {
  const transfers = useRef(new Map<string, AbortController>());

  const isDownloading = useCallback((fileId: string) => transfers.current.has(fileId), []);

  const runDownload = async (file: FileView, rawUrl: string, encryptedSize: number, vaultKey: CryptoKey) => {
    const id = file.dto.id;
    if (transfers.current.has(id)) return;
    const controller = new AbortController();
    transfers.current.set(id, controller);
    clearNoticeFor(id);
    try {
      const url = resolveStorageUrl(rawUrl, apiBaseUrl, window.location.href);
      // First, while the click that confirmed the password may still count as a user gesture.
      const target = await pickSaveTarget(file.name);
      if (target.kind === 'cancelled') {
        setFileProgress(id, null);
        return;
      }
      setFileProgress(id, { stage: 'downloading', percent: 0 });
      const sink = target.kind === 'disk' ? new DiskSink(target.writable) : new MemorySink();
      await fetchDecrypted({
        url,
        file: paramsOf(file),
        encryptedSize,
        vaultKey,
        crypto: filesCrypto,
        sink,
        signal: controller.signal,
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
        onProgress: (stage, percent) => setFileProgress(id, { stage, percent }),
      });
      if (sink instanceof MemorySink) {
        // Only now, with every chunk verified, does a file appear.
        saveBlob(sink.toBlob('application/octet-stream'), file.name);
        sink.release();
      }
      setFileProgress(id, { stage: 'completed', percent: 100 });
    } catch (error) {
      if (isCancelled(error) || controller.signal.aborted) {
        setFileProgress(id, null);
        return;
      }
      const message = error instanceof FileAccessError ? error.message : ACCESS_MESSAGES.downloadFailed;
      setFileProgress(id, { stage: 'error', percent: 0, error: message });
      notify(file, message);
    } finally {
      if (transfers.current.get(id) === controller) transfers.current.delete(id);
    }
  };

  // Leaving the File Vault stops every download.
  useEffect(() => {
    const running = transfers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      running.clear();
    };
  }, []);

  return { isDownloading, runDownload };
}
