import type { PlaintextSink } from './fetch-decrypted';

/** How long a Blob download's object URL lives: long enough for every browser to start the download. */
export const DOWNLOAD_URL_TTL_MS = 40_000;

interface SaveFilePickerOptions {
  suggestedName?: string;
}

/** The File System Access API (Chromium); not in TypeScript's DOM library. */
interface WindowWithSavePicker {
  showSaveFilePicker?: (options?: SaveFilePickerOptions) => Promise<FileSystemFileHandle>;
}

/** A name a file system accepts: no path separators, no control or reserved characters. */
export function safeFileName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const cleaned = name.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '');
  return cleaned.slice(0, 255) || 'download';
}

export type SaveTarget =
  { kind: 'disk'; writable: FileSystemWritableFileStream } | { kind: 'memory' } | { kind: 'cancelled' };

/**
 * Where a download goes. With the File System Access API (`showSaveFilePicker`) AND a user gesture
 * still active (the picker needs one; the password's KDF may have outlasted it), the user picks a
 * file and the plaintext streams to disk, so memory does not grow with the file. Otherwise (other
 * browsers, no gesture, any refusal) the plaintext is collected in memory and saved as a Blob.
 * Closing the picker cancels the download.
 */
export async function pickSaveTarget(name: string): Promise<SaveTarget> {
  const picker = (window as unknown as WindowWithSavePicker).showSaveFilePicker;
  if (typeof picker !== 'function') return { kind: 'memory' };
  const activation = (navigator as Navigator & { userActivation?: { isActive: boolean } }).userActivation;
  if (activation && !activation.isActive) return { kind: 'memory' };
  try {
    const handle = await picker.call(window, { suggestedName: safeFileName(name) });
    // Chromium writes to a swap file and moves it into place only on close(): abort() leaves nothing.
    const writable = await handle.createWritable({ keepExistingData: false });
    return { kind: 'disk', writable };
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return { kind: 'cancelled' };
    return { kind: 'memory' };
  }
}

/** Streams plaintext into a file the user picked; abort() discards it. */
export class DiskSink implements PlaintextSink {
  constructor(private readonly writable: FileSystemWritableFileStream) {}

  write(chunk: Uint8Array<ArrayBuffer>): Promise<void> {
    return this.writable.write(chunk);
  }

  close(): Promise<void> {
    return this.writable.close();
  }

  abort(reason: unknown): Promise<void> {
    return this.writable.abort(reason);
  }
}

/** The Blob path: an <a download> click on an object URL, revoked once the browser has it. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = safeFileName(name);
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_TTL_MS);
  }
}

/** Saves a Blob already in memory (the preview's Download button): to a picked file when possible. */
export async function saveBlobAs(blob: Blob, name: string): Promise<void> {
  const target = await pickSaveTarget(name);
  if (target.kind === 'cancelled') return;
  if (target.kind === 'memory') {
    saveBlob(blob, name);
    return;
  }
  try {
    await target.writable.write(blob);
    await target.writable.close();
  } catch (error) {
    await target.writable.abort(error).catch(() => undefined);
    throw error;
  }
}
