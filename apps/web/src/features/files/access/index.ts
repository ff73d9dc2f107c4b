/**
 * File access (issue 4, items 5-7): the password prompt, streamed download and the preview modal.
 * The File Vault page wraps itself in FileAccessProvider and calls useFileAccess() from its cards.
 */
export { FileAccessProvider } from './state/file-access-provider';
export type { FileAccessProviderProps } from './state/file-access-provider';
export { useFileAccess } from './state/file-access-context';
export type { FileAccess } from './state/file-access-context';
export { TransferProgress, STAGE_LABELS } from './components/transfer-progress';
export { RELOAD_IMAGE_PREVIEW_EVENT } from './components/preview/image-preview';
export type { ReloadImagePreviewDetail } from './components/preview/image-preview';
export { ACCESS_MESSAGES, PROMPT_TEXT, PREVIEW_TEXT, PROGRESS_CLEAR_MS } from './utils/access-messages';
export type { FileTransferProgress, FileView } from '../types';
