import {
  encryptFileBytes,
  encryptFileMetadata,
  importVaultKey,
  newItemId,
  randomBytes,
  bytesToHex,
} from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import { handleFilesDownloadRequest } from './files-download-dispatch';
import {
  InlineFilesDownloadCrypto,
  WorkerFilesDownloadCrypto,
  canTransferStreams,
  type FileDecryptParams,
  type FilesDownloadCrypto,
} from './files-download-crypto';
import type { FilesDownloadRequest } from './files-download-messages';

const CHUNK = 65_536;

async function sealFile(plaintext: Uint8Array) {
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
    chunkSize: CHUNK,
    size: plaintext.length,
  };
  return { vaultKey, params, ciphertext };
}

/** The bytes as a stream cut into uneven pieces (as a network delivers them); records a cancel. */
function streamOf(bytes: Uint8Array, piece = 10_000) {
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

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A Worker stand-in: the real dispatcher behind a MessageChannel, so streams really are transferred. */
function channelWorker(): Worker {
  const channel = new MessageChannel();
  channel.port2.onmessage = (event: MessageEvent<FilesDownloadRequest>) => {
    void handleFilesDownloadRequest(event.data, (message, transfer) =>
      channel.port2.postMessage(message, transfer ?? []),
    );
  };
  const port = channel.port1;
  port.start();
  return {
    postMessage: (message: unknown, transfer: Transferable[]) => port.postMessage(message, transfer),
    addEventListener: (type: string, listener: EventListener) => {
      if (type === 'message') port.addEventListener('message', listener);
    },
    terminate: () => {
      port.close();
      channel.port2.close();
    },
  } as unknown as Worker;
}

const plaintext = randomBytes(3 * CHUNK + 1234);

describe.each<[string, () => FilesDownloadCrypto]>([
  ['InlineFilesDownloadCrypto', () => new InlineFilesDownloadCrypto()],
  ['WorkerFilesDownloadCrypto (streams transferred)', () => new WorkerFilesDownloadCrypto(channelWorker)],
])('%s', (_name, make) => {
  it('decrypts a stored object streamed in uneven pieces, and verifies it', async () => {
    const { vaultKey, params, ciphertext } = await sealFile(plaintext);
    const crypto = make();
    const { plaintext: out, verified } = await crypto.decrypt(vaultKey, params, streamOf(ciphertext).stream);
    // Hex, not toEqual: deep equality over 200 KB of array elements is slow.
    expect(bytesToHex(await readAll(out))).toBe(bytesToHex(plaintext));
    await expect(verified).resolves.toBeUndefined();
  });

  it('decrypts an empty file (one empty chunk)', async () => {
    const { vaultKey, params, ciphertext } = await sealFile(new Uint8Array(0));
    const { plaintext: out, verified } = await make().decrypt(vaultKey, params, streamOf(ciphertext).stream);
    expect(await readAll(out)).toEqual(new Uint8Array(0));
    await expect(verified).resolves.toBeUndefined();
  });

  it('fails a tampered byte with DECRYPT_FAILED and never closes the plaintext cleanly', async () => {
    const { vaultKey, params, ciphertext } = await sealFile(plaintext);
    const bad = ciphertext.slice();
    bad[2 * CHUNK + 7] = (bad[2 * CHUNK + 7] ?? 0) ^ 0x01;
    const { plaintext: out, verified } = await make().decrypt(vaultKey, params, streamOf(bad).stream);
    await expect(readAll(out)).rejects.toBeDefined();
    await expect(verified).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
  });

  it('fails a truncated object with STREAM_TRUNCATED (even at a chunk boundary)', async () => {
    const { vaultKey, params, ciphertext } = await sealFile(plaintext);
    const cut = ciphertext.slice(0, 2 * (CHUNK + 16));
    const { plaintext: out, verified } = await make().decrypt(vaultKey, params, streamOf(cut).stream);
    await expect(readAll(out)).rejects.toBeDefined();
    await expect(verified).rejects.toMatchObject({ code: 'STREAM_TRUNCATED' });
  });

  it('fails an extended object with STREAM_EXTENDED', async () => {
    const { vaultKey, params, ciphertext } = await sealFile(plaintext);
    const long = new Uint8Array(ciphertext.length + 16);
    long.set(ciphertext);
    const { plaintext: out, verified } = await make().decrypt(vaultKey, params, streamOf(long).stream);
    await expect(readAll(out)).rejects.toBeDefined();
    await expect(verified).rejects.toMatchObject({ code: 'STREAM_EXTENDED' });
  });

  it('refuses a file key that does not open under this vault key (KEY_UNAVAILABLE) and stops the download', async () => {
    const { params, ciphertext } = await sealFile(plaintext);
    const otherVault = await importVaultKey(randomBytes(32));
    const source = streamOf(ciphertext);
    await expect(make().decrypt(otherVault, params, source.stream)).rejects.toMatchObject({
      code: 'KEY_UNAVAILABLE',
    });
    await expect.poll(() => source.state.cancelled).toBe(true);
  });
});

describe('canTransferStreams', () => {
  it('detects transferable streams (Node and Chromium have them)', () => {
    expect(canTransferStreams()).toBe(true);
  });
});
