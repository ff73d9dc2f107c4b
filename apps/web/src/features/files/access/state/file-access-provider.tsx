import { FILE_MAX_BYTES } from '@vault/contracts';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useApiClient } from '../../../../lib/api-context';
import { useRuntimeConfig } from '../../../../lib/config-context';
import { deriveAuthKey } from '../../../../lib/session/derive-auth-key';
import { useSessionStore } from '../../../../lib/session/session-context';
import { useCrypto } from '../../../../workers/crypto-context';
import {
  defaultFilesDownloadCrypto,
  type FilesDownloadCrypto,
} from '../../../../workers/files-download-crypto';
import type { FileView } from '../../types';
import { getDownloadUrl } from '../../../../lib/files-api';
import { getPreviewUrl } from '../api/get-preview-url';
import { PasswordPrompt } from '../../../../components/password-prompt';
import { PreviewModal } from '../components/preview-modal';
import { TransferNotices } from '../components/transfer-notices';
import { promptErrorFor } from '../utils/access-errors';
import { ACCESS_MESSAGES, PROMPT_TEXT } from '../utils/access-messages';
import { saveBlobAs } from '../utils/save-file';
import { FileAccessContext, type FileAccess } from './file-access-context';
import { useDownloads } from './use-downloads';
import { usePreviewRun } from './use-preview-run';
import { useTransferStatus } from './use-transfer-status';
import '../components/file-access.css';

type Mode = 'download' | 'preview';

interface PromptState {
  mode: Mode;
  file: FileView;
  loading: boolean;
  error: string | null;
}

export interface FileAccessProviderProps {
  children: ReactNode;
  /** File decryption; by default the shared files-download worker client. */
  downloadCrypto?: FilesDownloadCrypto;
  /** The fetch used for the signed storage URLs (tests pass their fake server's). */
  fetch?: typeof fetch;
  /** Least time between two shown percents of a transfer (default PROGRESS_INTERVAL_MS). */
  progressIntervalMs?: number;
}

/**
 * File access for the File Vault (spec sections 2, 4, 8): the password prompt before every
 * download and preview, the streamed download with its progress (use-downloads), and the preview
 * modal (use-preview-run); the progress and notices of both come from use-transfer-status.
 *
 * The password becomes `authKey` on this device (prelogin + KDF in the crypto worker) and buys a
 * signed URL of the stored object, valid 5 minutes. The object is fetched and decrypted as it
 * streams (files-download worker); nothing is saved or shown until every chunk verified.
 */
export function FileAccessProvider({
  children,
  downloadCrypto,
  fetch: fetchImpl,
  progressIntervalMs,
}: FileAccessProviderProps) {
  const api = useApiClient();
  const crypto = useCrypto();
  const session = useSessionStore();
  const { apiBaseUrl } = useRuntimeConfig();
  const [filesCrypto] = useState<FilesDownloadCrypto>(() => downloadCrypto ?? defaultFilesDownloadCrypto());
  const deps = { filesCrypto, fetchImpl, apiBaseUrl };

  const status = useTransferStatus(progressIntervalMs);
  const { progress, notices, setFileProgress, notify, dismissNotice } = status;
  const { isDownloading, runDownload } = useDownloads(deps, status);
  const { preview, closePreview, showPreviewError, previewedBlob, runPreview } = usePreviewRun(deps, status);
  const [prompt, setPrompt] = useState<PromptState | null>(null);
  const mounted = useRef(true);

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

  const requestDownload = useCallback(
    (file: FileView) => {
      if (refuseInfected(file)) return;
      if (isDownloading(file.dto.id)) return;
      // The decryption worker starts while the password is typed and its KDF runs, not after.
      filesCrypto.warm?.();
      setPrompt({ mode: 'download', file, loading: false, error: null });
    },
    [filesCrypto, isDownloading, refuseInfected],
  );

  const requestPreview = useCallback(
    (file: FileView) => {
      if (refuseInfected(file)) return;
      if (file.dto.size > FILE_MAX_BYTES) {
        // The preview holds the whole plaintext in memory: nothing over the 100 MB file limit.
        showPreviewError(file, ACCESS_MESSAGES.previewTooLarge);
        return;
      }
      filesCrypto.warm?.();
      setPrompt({ mode: 'preview', file, loading: false, error: null });
    },
    [filesCrypto, refuseInfected, showPreviewError],
  );

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
    const blob = previewedBlob();
    const file = preview?.file;
    if (!file) return;
    if (blob) {
      // Already decrypted and verified: saved from memory, without a second password or transfer.
      saveBlobAs(blob, file.name).catch((error: unknown) =>
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

  // A password answered after leaving the File Vault starts nothing.
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const value = useMemo<FileAccess>(
    () => ({ requestDownload, requestPreview, progress }),
    [requestDownload, requestPreview, progress],
  );

  // A loading preview shows the file's progress as the cards do (throttled, see use-transfer-status).
  const loading = preview?.status === 'loading' ? progress.get(preview.file.dto.id) : undefined;
  const shownPreview = preview?.status === 'loading' && loading ? { ...preview, progress: loading } : preview;

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
      <PreviewModal preview={shownPreview} onClose={closePreview} onDownload={downloadFromPreview} />
      <TransferNotices notices={notices} onDismiss={dismissNotice} />
    </FileAccessContext.Provider>
  );
}
