// @vitest-environment node
import { bytesToHex, concatBytes, importVaultKey, randomBytes } from '@vault/crypto';
import { describe, expect, it } from 'vitest';
import {
  FetchDecryptError,
  FetchDecryptSinkError,
  WorkerFilesDownloadCrypto,
} from '../../../../workers/files-download-crypto';
import { channelWorker as apiWorker } from '../../../../testing/channel-worker';
import { sealFileContent } from '../../../../testing/file-bytes';
import { createFilesDownloadApi } from '../../../../workers/files-download-api';
import { FileAccessError, MemorySink, fetchDecrypted } from './fetch-decrypted';

const CHUNK = 65_536;
const URL_ = 'http://storage.test/api/files/blob/object?sig=x';

interface Served {
  status?: number;
  /** Fail the body after this many bytes (a dropped connection). */
  failAfter?: number;
  /**
   * Keep the connection open after the last byte until the fetch is aborted, whose pending read
   * then fails with an AbortError, as a real fetch's does.
   */
  holdOpen?: boolean;
}

/** A storage stand-in: the bytes in 10 000-byte pieces; records the request and whether it was cancelled. */
function storage(bytes: Uint8Array, served: Served = {}) {
  const state = { init: undefined as RequestInit | undefined, url: '', cancelled: false };
  const fetchImpl = (async (url: string, init?: RequestInit) => {
    state.url = url;
    state.init = init;
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (served.failAfter !== undefined && offset >= served.failAfter) {
          controller.error(new TypeError('network error'));
          return;
        }
        if (offset >= bytes.length) {
          if (!served.holdOpen) return controller.close();
          return new Promise<void>((resolve) => {
            const fail = () => {
              controller.error(new DOMException('The operation was aborted.', 'AbortError'));
              resolve();
            };
            if (init?.signal?.aborted) fail();
            else init?.signal?.addEventListener('abort', fail, { once: true });
          });
        }
        controller.enqueue(bytes.slice(offset, offset + 10_000));
        offset += 10_000;
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return new Response(body, { status: served.status ?? 200 });
  }) as typeof fetch;
  return { fetchImpl, state };
}

/** A Worker stand-in: the worker's real API behind a MessageChannel (buffers really are transferred). */
const channelWorker = (fetchImpl: typeof fetch) => apiWorker(createFilesDownloadApi(fetchImpl));

/** Collects the plaintext like a disk sink (buffers handed back) or a memory one (kept). */
function collector(options: { keep?: boolean; failAt?: number } = {}) {
  const parts: Uint8Array[] = [];
  const received: number[] = [];
  let sourceDone = false;
  return {
    parts,
    received,
    get sourceDone() {
      return sourceDone;
    },
    bytes: () => concatBytes(parts),
    handlers: {
      onReceived(bytes: number, done: boolean) {
        received.push(bytes);
        if (done) sourceDone = true;
      },
      async onPiece(piece: Uint8Array<ArrayBuffer>) {
        if (options.failAt !== undefined && parts.length === options.failAt) throw new Error('disk full');
        parts.push(options.keep ? piece : piece.slice());
        return !options.keep;
      },
    },
  };
}

const big = randomBytes(40 * CHUNK + 4321);

describe('fetchDecrypt: the worker fetches, decrypts, and transfers verified plaintext', () => {
  it('delivers the whole plaintext in order, in about 1 MiB pieces, and fetches without credentials', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(big);
    const store = storage(ciphertext);
    const crypto = new WorkerFilesDownloadCrypto(() => channelWorker(store.fetchImpl));
    const sink = collector();
    await crypto.fetchDecrypt(vaultKey, params, URL_, sink.handlers, new AbortController().signal);
    expect(bytesToHex(sink.bytes())).toBe(bytesToHex(big));
    expect(sink.parts.length).toBe(3);
    expect(sink.sourceDone).toBe(true);
    expect(sink.received.at(-1)).toBe(ciphertext.length);
    expect([...sink.received].sort((a, b) => a - b)).toEqual(sink.received);
    expect(store.state.url).toBe(URL_);
    expect(store.state.init).toMatchObject({ method: 'GET', credentials: 'omit', cache: 'no-store' });
    crypto.terminate();
  });

  it('works when the sink keeps its pieces (no buffer is reused under it), and for an empty file', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(big);
    const crypto = new WorkerFilesDownloadCrypto(() => channelWorker(storage(ciphertext).fetchImpl));
    const sink = collector({ keep: true });
    await crypto.fetchDecrypt(vaultKey, params, URL_, sink.handlers, new AbortController().signal);
    expect(bytesToHex(sink.bytes())).toBe(bytesToHex(big));

    const empty = await sealFileContent(new Uint8Array(0));
    const none = collector();
    const crypto2 = new WorkerFilesDownloadCrypto(() => channelWorker(storage(empty.ciphertext).fetchImpl));
    await crypto2.fetchDecrypt(
      empty.vaultKey,
      empty.params,
      URL_,
      none.handlers,
      new AbortController().signal,
    );
    expect(none.bytes().length).toBe(0);
  });

  it.each<[string, string, (c: Uint8Array) => Uint8Array]>([
    [
      'a tampered byte',
      'DECRYPT_FAILED',
      (c) => {
        const bad = c.slice();
        bad[20 * (CHUNK + 16) + 7]! ^= 1;
        return bad;
      },
    ],
    ['a truncated object', 'STREAM_TRUNCATED', (c) => c.slice(0, 17 * (CHUNK + 16))],
    [
      'an extended object',
      'STREAM_EXTENDED',
      (c) => {
        const long = new Uint8Array(c.length + 1);
        long.set(c);
        return long;
      },
    ],
  ])('%s fails the stream with %s', async (_what, code, damage) => {
    const { vaultKey, params, ciphertext } = await sealFileContent(big);
    const crypto = new WorkerFilesDownloadCrypto(() => channelWorker(storage(damage(ciphertext)).fetchImpl));
    const sink = collector();
    const run = crypto.fetchDecrypt(vaultKey, params, URL_, sink.handlers, new AbortController().signal);
    await expect(run).rejects.toBeInstanceOf(FetchDecryptError);
    await expect(run).rejects.toMatchObject({ phase: 'stream', code });
    // Only verified batches were released (all of them for an object that runs long: its excess
    // shows after the last chunk); the caller aborts its sink, so no file is presented as good.
    if (code === 'STREAM_EXTENDED') expect(sink.bytes().length).toBeLessThanOrEqual(big.length);
    else expect(sink.bytes().length).toBeLessThan(big.length);
  });

  it('bytes after the end on a connection still open are STREAM_EXTENDED, not a network failure', async () => {
    // The decryptor refuses the excess while the body has not ended; this job then aborts the
    // fetch, and the read that fails because of that abort must not be taken for the cause.
    const { vaultKey, params, ciphertext } = await sealFileContent(big);
    const served = storage(concatBytes([ciphertext, new Uint8Array(32)]), { holdOpen: true });
    const crypto = new WorkerFilesDownloadCrypto(() => channelWorker(served.fetchImpl));
    const run = crypto.fetchDecrypt(
      vaultKey,
      params,
      URL_,
      collector().handlers,
      new AbortController().signal,
    );
    await expect(run).rejects.toMatchObject({ phase: 'stream', code: 'STREAM_EXTENDED' });
    crypto.terminate();
  });

  it('reports the storage status, a dropped connection, and a key that does not open', async () => {
    const { vaultKey, params, ciphertext } = await sealFileContent(big);
    const signal = new AbortController().signal;
    const refused = new WorkerFilesDownloadCrypto(() =>
      channelWorker(storage(ciphertext, { status: 404 }).fetchImpl),
    );
    await expect(
      refused.fetchDecrypt(vaultKey, params, URL_, collector().handlers, signal),
    ).rejects.toMatchObject({ phase: 'http', status: 404 });

    const dropped = new WorkerFilesDownloadCrypto(() =>
      channelWorker(storage(ciphertext, { failAfter: 500_000 }).fetchImpl),
    );
    await expect(
      dropped.fetchDecrypt(vaultKey, params, URL_, collector().handlers, signal),
    ).rejects.toMatchObject({ phase: 'network' });

    const store = storage(ciphertext);
    const other = await importVaultKey(randomBytes(32));
    const foreign = new WorkerFilesDownloadCrypto(() => channelWorker(store.fetchImpl));
    await expect(
      foreign.fetchDecrypt(other, params, URL_, collector().handlers, signal),
    ).rejects.toMatchObject({ phase: 'key', code: 'KEY_UNAVAILABLE' });
    // The object is not even fetched without a key.
    expect(store.state.url).toBe('');
  });

  it('a failing sink cancels the fetch; an abort rejects with AbortError and stops it', async () => {
    // Large enough that the worker is still reading when the page gives up.
    const { vaultKey, params, ciphertext } = await sealFileContent(randomBytes(160 * CHUNK));
    const store = storage(ciphertext);
    const crypto = new WorkerFilesDownloadCrypto(() => channelWorker(store.fetchImpl));
    await expect(
      crypto.fetchDecrypt(
        vaultKey,
        params,
        URL_,
        collector({ failAt: 0 }).handlers,
        new AbortController().signal,
      ),
    ).rejects.toBeInstanceOf(FetchDecryptSinkError);
    await expect.poll(() => store.state.cancelled).toBe(true);

    const store2 = storage(ciphertext);
    const crypto2 = new WorkerFilesDownloadCrypto(() => channelWorker(store2.fetchImpl));
    const controller = new AbortController();
    const sink = collector();
    const run = crypto2.fetchDecrypt(
      vaultKey,
      params,
      URL_,
      {
        onReceived: sink.handlers.onReceived,
        onPiece: async (piece) => {
          controller.abort();
          return sink.handlers.onPiece(piece);
        },
      },
      controller.signal,
    );
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    await expect.poll(() => store2.state.cancelled).toBe(true);
  });
});

describe('fetchDecrypted through the worker (what the app does in Chromium)', () => {
  async function run(stored: (c: Uint8Array) => Uint8Array, served: Served = {}) {
    const { vaultKey, params, ciphertext } = await sealFileContent(big);
    const crypto = new WorkerFilesDownloadCrypto(() =>
      channelWorker(storage(stored(ciphertext), served).fetchImpl),
    );
    const sink = new MemorySink();
    const stages: string[] = [];
    const done = fetchDecrypted({
      url: new URL(URL_),
      file: params,
      encryptedSize: ciphertext.length,
      vaultKey,
      crypto,
      sink,
      signal: new AbortController().signal,
      onProgress: (stage) => stages.push(stage),
    });
    return { done, sink, stages };
  }

  it('saves the verified plaintext and reports downloading, then decrypting', async () => {
    const { done, sink, stages } = await run((c) => c);
    await done;
    expect(bytesToHex(sink.toBytes())).toBe(bytesToHex(big));
    expect(stages.filter((s, i) => stages[i - 1] !== s)).toEqual(['downloading', 'decrypting']);
  });

  it('a tampered object ends as an integrity failure with nothing kept; a refusal as its status', async () => {
    const tampered = await run((c) => {
      const bad = c.slice();
      bad[3 * (CHUNK + 16)]! ^= 1;
      return bad;
    });
    await expect(tampered.done).rejects.toMatchObject({ kind: 'integrity' });
    expect(tampered.sink.size).toBe(0);
    expect(() => tampered.sink.toBytes()).toThrow();

    const refused = await run((c) => c, { status: 403 });
    const error = await refused.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileAccessError);
    expect(error).toMatchObject({ kind: 'http', status: 403 });

    const dropped = await run((c) => c, { failAfter: 300_000 });
    await expect(dropped.done).rejects.toMatchObject({ kind: 'network' });
  });
});
