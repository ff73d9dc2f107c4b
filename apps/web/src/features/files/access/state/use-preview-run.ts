import { FILE_MAX_BYTES } from '@vault/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { FileTransferProgress, FileView } from '../../types';
import type { PreviewState } from '../components/preview-modal';
import {
  RELOAD_IMAGE_PREVIEW_EVENT,
  type ReloadImagePreviewDetail,
} from '../components/preview/image-preview';
import { previewErrorFor } from '../utils/access-errors';
import { ACCESS_MESSAGES } from '../utils/access-messages';
import { buildPreview } from '../utils/build-preview';
import { MemorySink, fetchDecrypted, isCancelled, resolveStorageUrl } from '../utils/fetch-decrypted';
import { paramsOf, type TransferDeps } from './transfer-params';
import type { TransferStatus } from './use-transfer-status';

/** The preview being shown: its transfer, the object URLs it made (all revoked on close), its plaintext. */
interface PreviewRun {
  fileId: string;
  controller: AbortController;
  urls: Set<string>;
  blob: Blob | null;
  settled: boolean;
  /** The image was re-created from its Blob once after failing to load (reload-image-preview). */
  reloaded: boolean;
}

/**
 * The preview modal's state: the file decrypted in memory (at most FILE_MAX_BYTES), shown once every
 * chunk verified; closing it (or leaving the File Vault) stops the transfer and frees every byte and
 * object URL.
 */
export function usePreviewRun(
  { filesCrypto, fetchImpl, apiBaseUrl }: TransferDeps,
  { setFileProgress }: TransferStatus,
) {
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const previewRun = useRef<PreviewRun | null>(null);

  const closePreview = useCallback(() => {
    const run = previewRun.current;
    previewRun.current = null;
    if (run) {
      run.controller.abort();
      for (const url of run.urls) URL.revokeObjectURL(url);
      run.urls.clear();
      run.blob = null;
      if (!run.settled) setFileProgress(run.fileId, null);
    }
    setPreview(null);
  }, [setFileProgress]);

  /** An error in the modal instead of a preview (e.g. a file too large to hold in memory). */
  const showPreviewError = useCallback(
    (file: FileView, message: string) => {
      closePreview();
      setPreview({ status: 'error', file, message });
    },
    [closePreview],
  );

  /** The shown preview's plaintext, verified, when it is there (Download saves it without a second transfer). */
  const previewedBlob = (): Blob | null => previewRun.current?.blob ?? null;

  const runPreview = async (file: FileView, rawUrl: string, vaultKey: CryptoKey) => {
    closePreview();
    const id = file.dto.id;
    const run: PreviewRun = {
      fileId: id,
      controller: new AbortController(),
      urls: new Set(),
      blob: null,
      settled: false,
      reloaded: false,
    };
    previewRun.current = run;
    // The modal draws the card's progress (use-transfer-status: a running percent at most every
    // PROGRESS_INTERVAL_MS); its own state changes with the stage only.
    let stage: FileTransferProgress['stage'] | null = null;
    const show = (p: FileTransferProgress) => {
      if (previewRun.current !== run) return;
      if (p.stage !== stage) {
        stage = p.stage;
        setPreview({ status: 'loading', file, progress: p });
      }
      setFileProgress(id, p);
    };
    show({ stage: 'downloading', percent: 0 });
    const sink = new MemorySink(FILE_MAX_BYTES);
    try {
      const url = resolveStorageUrl(rawUrl, apiBaseUrl, window.location.href);
      await fetchDecrypted({
        url,
        file: paramsOf(file),
        encryptedSize: file.dto.encryptedSize,
        vaultKey,
        crypto: filesCrypto,
        sink,
        signal: run.controller.signal,
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
        onProgress: (stage, percent) => show({ stage, percent }),
      });
      if (previewRun.current !== run) return;
      const built = buildPreview(sink, file, (blob) => {
        const objectUrl = URL.createObjectURL(blob);
        run.urls.add(objectUrl);
        return objectUrl;
      });
      run.blob = built.blob;
      run.settled = true;
      setPreview({ status: 'ready', file, content: built.content });
      setFileProgress(id, { stage: 'completed', percent: 100 });
    } catch (error) {
      if (previewRun.current !== run || isCancelled(error)) return;
      run.settled = true;
      setFileProgress(id, null);
      setPreview({ status: 'error', file, message: previewErrorFor(error) });
    }
  };

  // Spec: an image that fails to load from its blob triggers reload-image-preview with the file id.
  // The image is re-created once from the plaintext still in memory; a second failure is an error.
  useEffect(() => {
    const onReload = (event: Event) => {
      const detail = (event as CustomEvent<ReloadImagePreviewDetail | undefined>).detail;
      const run = previewRun.current;
      if (!run || !run.blob || detail?.fileId !== run.fileId) return;
      if (run.reloaded) {
        setPreview((p) =>
          p && p.status === 'ready' && p.file.dto.id === run.fileId
            ? { status: 'error', file: p.file, message: ACCESS_MESSAGES.previewFailed }
            : p,
        );
        return;
      }
      run.reloaded = true;
      const url = URL.createObjectURL(run.blob);
      run.urls.add(url);
      setPreview((p) =>
        p && p.status === 'ready' && p.content.kind === 'image' && p.file.dto.id === run.fileId
          ? { ...p, content: { kind: 'image', url } }
          : p,
      );
    };
    window.addEventListener(RELOAD_IMAGE_PREVIEW_EVENT, onReload);
    return () => window.removeEventListener(RELOAD_IMAGE_PREVIEW_EVENT, onReload);
  }, []);

  // Leaving the File Vault frees the preview's decrypted bytes and object URLs.
  useEffect(
    () => () => {
      const run = previewRun.current;
      previewRun.current = null;
      if (run) {
        run.controller.abort();
        for (const url of run.urls) URL.revokeObjectURL(url);
      }
    },
    [],
  );

  return { preview, closePreview, showPreviewError, previewedBlob, runPreview };
}
