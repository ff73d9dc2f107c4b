import type { FileView } from '../../types';
import type { PreviewContent } from '../components/preview-modal';
import type { MemorySink } from './fetch-decrypted';
import { pdfTitleUpdate } from './pdf/pdf-title';
import { objectUrlTypeFor, previewKindOf } from './preview-kind';

/** Text and code previews show at most this much of the file (the rest is a download away). */
export const TEXT_PREVIEW_MAX_BYTES = 1024 * 1024;

export interface BuiltPreview {
  content: PreviewContent;
  /** The whole plaintext, for the modal's Download button (no second password, no second transfer). */
  blob: Blob;
}

/** Decodes UTF-8 (invalid sequences become U+FFFD); a cut in the middle of a character is held back. */
export function decodeTextPreview(bytes: Uint8Array, maxBytes: number = TEXT_PREVIEW_MAX_BYTES) {
  const truncated = bytes.byteLength > maxBytes;
  const shown = truncated ? bytes.subarray(0, maxBytes) : bytes;
  const text = new TextDecoder('utf-8').decode(shown, { stream: truncated });
  return {
    text,
    truncated: truncated ? { shownBytes: maxBytes, totalBytes: bytes.byteLength } : undefined,
  };
}

/**
 * Turns a verified, complete plaintext into what the modal shows. Object URLs come from
 * `createUrl`, which records them so the modal can revoke every one when it closes.
 */
export function buildPreview(
  sink: MemorySink,
  file: FileView,
  createUrl: (blob: Blob) => string,
): BuiltPreview {
  const kind = previewKindOf(file.mimeType, file.name);
  try {
    switch (kind) {
      case 'text':
      case 'code': {
        const bytes = sink.toBytes();
        const { text, truncated } = decodeTextPreview(bytes);
        const content: PreviewContent = truncated ? { kind, text, truncated } : { kind, text };
        return { content, blob: new Blob([bytes], { type: 'application/octet-stream' }) };
      }
      case 'pdf': {
        const bytes = sink.toBytes();
        const type = objectUrlTypeFor(kind, file.mimeType);
        const blob = new Blob([bytes], { type });
        // The browser's viewer reads the PDF with the file's name as its /Title (its toolbar and
        // tab show it); Download keeps the exact bytes.
        const titled = pdfTitleUpdate(bytes, file.name);
        const viewed = titled ? new Blob([blob, titled], { type }) : blob;
        return { content: { kind, bytes, url: createUrl(viewed) }, blob };
      }
      case 'image':
      case 'video':
      case 'audio': {
        const blob = sink.toBlob(objectUrlTypeFor(kind, file.mimeType));
        return { content: { kind, url: createUrl(blob) }, blob };
      }
      default:
        return { content: { kind }, blob: sink.toBlob('application/octet-stream') };
    }
  } finally {
    sink.release();
  }
}
