import type { ReactNode } from 'react';
import type { FileTransferProgress, FileView } from '../../types';
import { Button } from '../../../../components/button';
import { Dialog } from '../../../../components/dialog';
import { PREVIEW_TEXT } from '../utils/access-messages';
import { formatFileSize } from '../../utils/file-format';
import { ImagePreview } from './preview/image-preview';
import { MediaPreview } from './preview/media-preview';
import { MessagePanel } from './preview/message-panel';
import { PdfPreview } from './preview/pdf-preview';
import { TextPreview } from './preview/text-preview';
import { TransferProgress } from './transfer-progress';

/** Spec section 3, "Preview content (client)": what the modal shows once the file is decrypted. */
export type PreviewContent =
  | { kind: 'text' | 'code'; text: string; truncated?: { shownBytes: number; totalBytes: number } }
  | { kind: 'image' | 'video' | 'audio'; url: string }
  | { kind: 'pdf'; url: string; bytes: Uint8Array }
  | { kind: 'document' | 'unsupported' };

export type PreviewState =
  | { status: 'loading'; file: FileView; progress: FileTransferProgress }
  | { status: 'ready'; file: FileView; content: PreviewContent }
  | { status: 'error'; file: FileView; message: string };

export interface PreviewModalProps {
  preview: PreviewState | null;
  onClose: () => void;
  /** The header's Download button (and the document / unsupported panels'). */
  onDownload: () => void;
}

/**
 * The preview modal (spec section 2): the file's name, size (base 1024) and MIME type with
 * Download and Close; the content by kind; a footer saying the file was decrypted on this device,
 * and 'Press ESC to close'. Escape, Close and the backdrop close it.
 */
export function PreviewModal({ preview, onClose, onDownload }: PreviewModalProps) {
  if (!preview) return null;
  const { file } = preview;
  return (
    <Dialog
      open
      size="lg"
      className="preview-dialog"
      title={<span className="preview__name">{file.name}</span>}
      description={
        <span className="preview__meta">
          <span>{formatFileSize(file.dto.size)}</span>
          <span aria-hidden="true"> · </span>
          <span>{file.mimeType}</span>
        </span>
      }
      onClose={onClose}
      showCloseButton={false}
      footer={
        <div className="preview__footer">
          <p>{PREVIEW_TEXT.encryptedNotice}</p>
          <p className="preview__esc">{PREVIEW_TEXT.escHint}</p>
        </div>
      }
    >
      <div className="preview__actions">
        <Button variant="secondary" size="sm" onClick={onDownload}>
          Download
        </Button>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>
      </div>
      <div
        className="preview__body"
        data-kind={preview.status === 'ready' ? preview.content.kind : preview.status}
      >
        <PreviewBody preview={preview} onDownload={onDownload} />
      </div>
    </Dialog>
  );
}

function PreviewBody({ preview, onDownload }: { preview: PreviewState; onDownload: () => void }) {
  if (preview.status === 'loading') {
    return (
      <div className="preview__loading" aria-live="polite">
        <TransferProgress progress={preview.progress} label="Preview progress" />
        <p className="preview__loading-text">Downloading and decrypting on this device...</p>
      </div>
    );
  }
  if (preview.status === 'error') {
    return (
      <MessagePanel tone="danger" title={PREVIEW_TEXT.errorTitle}>
        {preview.message}
      </MessagePanel>
    );
  }
  const { content, file } = preview;
  switch (content.kind) {
    case 'text':
    case 'code':
      return <TextPreview text={content.text} kind={content.kind} truncated={content.truncated} />;
    case 'image':
      return <ImagePreview fileId={file.dto.id} url={content.url} name={file.name} />;
    case 'video':
    case 'audio':
      return <MediaPreview kind={content.kind} url={content.url} name={file.name} />;
    case 'pdf':
      return <PdfPreview bytes={content.bytes} url={content.url} name={file.name} onDownload={onDownload} />;
    case 'document':
      return (
        <DownloadInstead title="Download to view" onDownload={onDownload}>
          This document type cannot be shown in the browser. Download the file to open it.
        </DownloadInstead>
      );
    default:
      return (
        <DownloadInstead title="Preview not available" onDownload={onDownload}>
          This file type cannot be previewed. Download the file to view it.
        </DownloadInstead>
      );
  }
}

/** A file the browser cannot show: why, and its Download button. */
function DownloadInstead({
  title,
  onDownload,
  children,
}: {
  title: string;
  onDownload: () => void;
  children: ReactNode;
}) {
  return (
    <MessagePanel
      title={title}
      actions={
        <Button size="sm" onClick={onDownload}>
          Download
        </Button>
      }
    >
      {children}
    </MessagePanel>
  );
}
