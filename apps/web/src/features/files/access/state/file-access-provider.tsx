import { FILE_MAX_BYTES } from '@vault/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApiClient } from '../../../../lib/api-context';
import { useRuntimeConfig } from '../../../../lib/config-context';
import { useCrypto } from '../../../../workers/crypto-context';
import {
  defaultFilesDownloadCrypto,
  type FileDecryptParams,
  type FilesDownloadCrypto,
} from '../../../../workers/files-download-crypto';
import { useSessionStore } from '../../../auth/state/session-context';
import type { FileTransferProgress, FileView } from '../../types';
import { getDownloadUrl } from '../api/get-download-url';
import { getPreviewUrl } from '../api/get-preview-url';
import { PasswordPrompt } from '../components/password-prompt';
import { PreviewModal, type PreviewState } from '../components/preview-modal';
import {
  RELOAD_IMAGE_PREVIEW_EVENT,
  type ReloadImagePreviewDetail,
} from '../components/preview/image-preview';
import { TransferNotices, type TransferNotice } from '../components/transfer-notices';
import { promptErrorFor, previewErrorFor } from '../utils/access-errors';
import { ACCESS_MESSAGES, PROGRESS_CLEAR_MS, PROMPT_TEXT } from '../utils/access-messages';
import { buildPreview } from '../utils/build-preview';
import { deriveAuthKey } from '../utils/derive-auth-key';
import {
  FileAccessError,
  MemorySink,
  fetchDecrypted,
  isCancelled,
  resolveStorageUrl,
} from '../utils/fetch-decrypted';
import { DiskSink, pickSaveTarget, saveBlob, saveBlobAs } from '../utils/save-file';
import { FileAccessContext, type FileAccess } from './file-access-context';
import '../components/file-access.css';

type Mode = 'download' | 'preview';

interface PromptState {
  mode: Mode;
  file: FileView;
  loading: boolean;
  error: string | null;
}

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

export interface FileAccessProviderProps {
  children: ReactNode;
  /** File decryption; by default the shared files-download worker client. */
  downloadCrypto?: FilesDownloadCrypto;
  /** The fetch used for the signed storage URLs (tests pass their fake server's). */
  fetch?: typeof fetch;
}

const paramsOf = (file: FileView): FileDecryptParams => ({
  fileId: file.dto.id,
  wrappedKey: file.dto.wrappedKey,
  iv: file.dto.iv,
  chunkSize: file.dto.chunkSize,
  size: file.dto.size,
});

/**
 * File access for the File Vault (spec sections 2, 4, 8): the password prompt before every
 * download and preview, the streamed download with its progress, and the preview modal.
 *
 * The password becomes `authKey` on this device (prelogin + KDF in the crypto worker) and buys a
 * signed URL of the stored object, valid 5 minutes. The object is fetched and decrypted as it
 * streams (files-download worker); nothing is saved or shown until every chunk verified.
 */
export function FileAccessProvider({ children, downloadCrypto, fetch: fetchImpl }: FileAccessProviderProps) {
  const api = useApiClient();
  const crypto = useCrypto();
  const session = useSessionStore();
  const { apiBaseUrl } = useRuntimeConfig();
  const [filesCrypto] = useState<FilesDownloadCrypto>(() => downloadCrypto ?? defaultFilesDownloadCrypto());

  const [progress, setProgress] = useState<ReadonlyMap<string, FileTransferProgress>>(() => new Map());
  const [prompt, setPrompt] = useState<PromptState | null>(null);
  const [preview, setPreview] = useState<PreviewState | null>(null);
  const [notices, setNotices] = useState<TransferNotice[]>([]);

  const clearTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const transfers = useRef(new Map<string, AbortController>());
  const previewRun = useRef<PreviewRun | null>(null);
  const noticeId = useRef(0);
  const mounted = useRef(true);

  const setFileProgress = useCallback((fileId: string, next: FileTransferProgress | null) => {
    const timer = clearTimers.current.get(fileId);
    if (timer !== undefined) {
      clearTimeout(timer);
      clearTimers.current.delete(fileId);
    }
    setProgress((prev) => {
      if (!next && !prev.has(fileId)) return prev;
      const map = new Map(prev);
      if (next) map.set(fileId, next);
      else map.delete(fileId);
      return map;
    });
    if (next?.stage === 'completed') {
      clearTimers.current.set(
        fileId,
        setTimeout(() => {
          clearTimers.current.delete(fileId);
          setProgress((prev) => {
            if (prev.get(fileId)?.stage !== 'completed') return prev;
            const map = new Map(prev);
            map.delete(fileId);
            return map;
          });
        }, PROGRESS_CLEAR_MS),
      );
    }
  }, []);

  const notify = useCallback((file: FileView, text: string) => {
    noticeId.current += 1;
    const notice: TransferNotice = {
      id: noticeId.current,
      fileId: file.dto.id,
      title: `"${file.name}"`,
      text,
    };
    setNotices((prev) => [...prev.filter((n) => n.fileId !== file.dto.id), notice]);
  }, []);

  const dismissNotice = useCallback((id: number) => {
    setNotices((prev) => {
      const notice = prev.find((n) => n.id === id);
      if (notice) {
        // The card's error goes with it (unless a new transfer of that file already started).
        setProgress((p) => {
          if (p.get(notice.fileId)?.stage !== 'error') return p;
          const map = new Map(p);
          map.delete(notice.fileId);
          return map;
        });
      }
      return prev.filter((n) => n.id !== id);
    });
  }, []);

  const clearNoticeFor = useCallback((fileId: string) => {
    setNotices((prev) =>
      prev.some((n) => n.fileId === fileId) ? prev.filter((n) => n.fileId !== fileId) : prev,
    );
  }, []);

  /** Spec section 4: infected files cannot be downloaded or previewed. */
  const refuseInfected = useCallback(
    (file: FileView): boolean => {
      if (file.dto.virusScanResult !== 'infected') return false;
      setFileProgress(file.dto.id, { stage: 'error', percent: 0, error: ACCESS_MESSAGES.infected });
      notify(file, ACCESS_MESSAGES.infected);
      return true;
    },
    [notify, setFileProgress],
  );

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

  const requestDownload = useCallback(
    (file: FileView) => {
      if (refuseInfected(file)) return;
      if (transfers.current.has(file.dto.id)) return;
      // The decryption worker starts while the password is typed and its KDF runs, not after.
      filesCrypto.warm?.();
      setPrompt({ mode: 'download', file, loading: false, error: null });
    },
    [filesCrypto, refuseInfected],
  );

  const requestPreview = useCallback(
    (file: FileView) => {
      if (refuseInfected(file)) return;
      if (file.dto.size > FILE_MAX_BYTES) {
        // The preview holds the whole plaintext in memory: nothing over the 100 MB file limit.
        closePreview();
        setPreview({ status: 'error', file, message: ACCESS_MESSAGES.previewTooLarge });
        return;
      }
      filesCrypto.warm?.();
      setPrompt({ mode: 'preview', file, loading: false, error: null });
    },
    [closePreview, filesCrypto, refuseInfected],
  );

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
    const show = (p: FileTransferProgress) => {
      if (previewRun.current !== run) return;
      setPreview({ status: 'loading', file, progress: p });
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

  const submitPassword = async (password: string) => {
    const current = prompt;
    if (!current || current.loading) return;
    const { user, vaultKey } = session.getState();
    if (!user) {
      setPrompt({ ...current, error: ACCESS_MESSAGES.notAuthenticated });
      return;
    }
    if (!vaultKey) {
      setPrompt({ ...current, error: ACCESS_MESSAGES.keyMissing });
      return;
    }
    setPrompt({ ...current, loading: true, error: null });
    const { file, mode } = current;
    let rawUrl: string;
    let encryptedSize = file.dto.encryptedSize;
    try {
      const authKey = await deriveAuthKey(api, crypto, user.email, password);
      if (mode === 'download') {
        const answer = await getDownloadUrl(api, file.dto.id, { authKey });
        rawUrl = answer.downloadUrl;
        encryptedSize = answer.encryptedSize;
      } else {
        rawUrl = (await getPreviewUrl(api, file.dto.id, { authKey })).content;
      }
    } catch (error) {
      if (!mounted.current) return;
      setPrompt((p) =>
        p && p.file === file ? { ...p, loading: false, error: promptErrorFor(error, mode) } : p,
      );
      return;
    }
    if (!mounted.current) return;
    setPrompt(null);
    if (mode === 'download') void runDownload(file, rawUrl, encryptedSize, vaultKey);
    else void runPreview(file, rawUrl, vaultKey);
  };

  const downloadFromPreview = () => {
    const run = previewRun.current;
    const file = preview?.file;
    if (!file) return;
    if (run?.blob) {
      // Already decrypted and verified: saved from memory, without a second password or transfer.
      saveBlobAs(run.blob, file.name).catch((error: unknown) =>
        notify(
          file,
          error instanceof Error && error.message ? error.message : ACCESS_MESSAGES.downloadFailed,
        ),
      );
      return;
    }
    closePreview();
    requestDownload(file);
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

  // Leaving the File Vault stops every transfer and frees every decrypted byte and object URL.
  useEffect(() => {
    mounted.current = true;
    const timers = clearTimers.current;
    const running = transfers.current;
    return () => {
      mounted.current = false;
      for (const controller of running.values()) controller.abort();
      running.clear();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      const run = previewRun.current;
      previewRun.current = null;
      if (run) {
        run.controller.abort();
        for (const url of run.urls) URL.revokeObjectURL(url);
      }
    };
  }, []);

  const value = useMemo<FileAccess>(
    () => ({ requestDownload, requestPreview, progress }),
    [requestDownload, requestPreview, progress],
  );

  const text = prompt ? PROMPT_TEXT[prompt.mode] : PROMPT_TEXT.download;
  return (
    <FileAccessContext.Provider value={value}>
      {children}
      <PasswordPrompt
        open={prompt !== null}
        title={text.title}
        description={prompt ? text.description(prompt.file.name) : ''}
        actionText={text.action}
        loading={prompt?.loading ?? false}
        error={prompt?.error ?? null}
        onSubmit={(password) => void submitPassword(password)}
        onClose={() => setPrompt((p) => (p?.loading ? p : null))}
      />
      <PreviewModal preview={preview} onClose={closePreview} onDownload={downloadFromPreview} />
      <TransferNotices notices={notices} onDismiss={dismissNotice} />
    </FileAccessContext.Provider>
  );
}
