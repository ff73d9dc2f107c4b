import {
  bytesToHex,
  encryptFileBytes,
  encryptFileMetadata,
  concatBytes,
  importVaultKey,
  newItemId,
  randomBytes,
} from '@vault/crypto';
import type { FileDecryptParams } from '../workers/files-download-messages';

/** Everything a stream yields, as one array. */
export async function readAllBytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  return concatBytes(parts);
}

/** `bytes` as a stream cut into uneven pieces (as a network delivers them); `state` records a cancel. */
export function piecewiseStream(bytes: Uint8Array, piece = 10_000) {
  const state = { cancelled: false, offset: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (state.offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.slice(state.offset, state.offset + piece));
      state.offset += piece;
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

/** A file's content sealed with the real protocol (64 KiB chunks) under a fresh vault key. */
export async function sealFileContent(plaintext: Uint8Array, chunkSize = 65_536) {
  const vaultKey = await importVaultKey(randomBytes(32));
  const fileId = newItemId();
  const meta = await encryptFileMetadata(vaultKey, fileId, {
    name: 'report.bin',
    mimeType: 'application/octet-stream',
    tags: [],
  });
  const iv = bytesToHex(randomBytes(12));
  const ciphertext = await encryptFileBytes({ fileKey: meta.fileKey, fileId, iv }, plaintext);
  const params: FileDecryptParams = {
    fileId,
    wrappedKey: meta.wrappedKey,
    iv,
    chunkSize,
    size: plaintext.length,
  };
  return { vaultKey, params, ciphertext };
}
