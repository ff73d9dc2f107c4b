import { bytesToHex, importVaultKey, randomBytes } from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import { channelWorker } from '../testing/channel-worker';
import { piecewiseStream, readAllBytes, sealFileContent } from '../testing/file-bytes';
import { createFilesDownloadApi } from './files-download-api';
import {
  InlineFilesDownloadCrypto,
  WorkerFilesDownloadCrypto,
  canTransferStreams,
  type FilesDownloadCrypto,
} from './files-download-crypto';

const CHUNK = 65_536;

const plaintext = randomBytes(3 * CHUNK + 1234);

describe.each<[string, () => FilesDownloadCrypto]>([
  ['InlineFilesDownloadCrypto', () => new InlineFilesDownloadCrypto()],
  [
    'WorkerFilesDownloadCrypto (streams transferred)',
    () => new WorkerFilesDownloadCrypto(() => channelWorker(createFilesDownloadApi())),
  ],
])('%s', (_name, make) => {
  it('decrypts a stored object streamed in uneven pieces, and verifies it', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(plaintext);
    const crypto = make();
    const { plaintext: out, verified } = await crypto.decrypt(
      vaultKey,
      params,
      piecewiseStream(ciphertext).stream,
    );
    // Hex, not toEqual: deep equality over 200 KB of array elements is slow.
    expect(bytesToHex(await readAllBytes(out))).toBe(bytesToHex(plaintext));
    await expect(verified).resolves.toBeUndefined();
  });

  it('decrypts an empty file (one empty chunk)', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(new Uint8Array(0));
    const { plaintext: out, verified } = await make().decrypt(
      vaultKey,
      params,
      piecewiseStream(ciphertext).stream,
    );
    expect(await readAllBytes(out)).toEqual(new Uint8Array(0));
    await expect(verified).resolves.toBeUndefined();
  });

  it('fails a tampered byte with DECRYPT_FAILED and never closes the plaintext cleanly', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(plaintext);
    const bad = ciphertext.slice();
    bad[2 * CHUNK + 7] = (bad[2 * CHUNK + 7] ?? 0) ^ 0x01;
    const { plaintext: out, verified } = await make().decrypt(vaultKey, params, piecewiseStream(bad).stream);
    await expect(readAllBytes(out)).rejects.toBeDefined();
    await expect(verified).rejects.toMatchObject({ code: 'DECRYPT_FAILED' });
  });

  it('fails a truncated object with STREAM_TRUNCATED (even at a chunk boundary)', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(plaintext);
    const cut = ciphertext.slice(0, 2 * (CHUNK + 16));
    const { plaintext: out, verified } = await make().decrypt(vaultKey, params, piecewiseStream(cut).stream);
    await expect(readAllBytes(out)).rejects.toBeDefined();
    await expect(verified).rejects.toMatchObject({ code: 'STREAM_TRUNCATED' });
  });

  it('fails an extended object with STREAM_EXTENDED', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(plaintext);
    const long = new Uint8Array(ciphertext.length + 16);
    long.set(ciphertext);
    const { plaintext: out, verified } = await make().decrypt(vaultKey, params, piecewiseStream(long).stream);
    await expect(readAllBytes(out)).rejects.toBeDefined();
    await expect(verified).rejects.toMatchObject({ code: 'STREAM_EXTENDED' });
  });

  it('refuses a file key that does not open under this vault key (KEY_UNAVAILABLE) and stops the download', async () => {
    const { params, ciphertext } = await sealFileContent(plaintext);
    const otherVault = await importVaultKey(randomBytes(32));
    const source = piecewiseStream(ciphertext);
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
