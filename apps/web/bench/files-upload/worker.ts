/**
 * Benchmark worker (apps/web/bench/files-upload.bench.mjs): seals a file for upload with the web app's
 * real sealing and staging (apps/web/src/workers/files-ops.ts, both steps joined by
 * apps/web/src/testing/prepare-upload.ts) into one of three stagings.
 */
import { importVaultKey, randomBytes } from '@vault/crypto';
import { prepareUpload } from '../../src/testing/prepare-upload';
import {
  MemoryStaging,
  openOpfsStaging,
  releaseStaging,
  type StagingSink,
} from '../../src/workers/files-staging';
import type { PreparedUpload } from '../../src/workers/files-messages';

type Mode = 'opfs' | 'slabs' | 'naive';

/** What a naive implementation would do: every chunk kept in a JS array, one Blob at the end. */
class NaiveStaging implements StagingSink {
  private parts: Uint8Array[] = [];
  write(chunk: Uint8Array): void {
    this.parts.push(chunk);
  }
  async finish() {
    const blob = new Blob(this.parts as BlobPart[], { type: 'application/octet-stream' });
    this.parts = [];
    return { blob, staging: { kind: 'memory' as const } };
  }
  async abort() {
    this.parts = [];
  }
}

interface Scope {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(m: unknown): void;
}
const scope = self as unknown as Scope;
let last: PreparedUpload | null = null;

async function sourceFile(size: number): Promise<File> {
  const root = await navigator.storage.getDirectory();
  const handle = await root.getFileHandle('bench-source.bin', { create: true });
  const existing = await handle.getFile();
  if (existing.size === size) return existing;
  const access = await (
    handle as unknown as {
      createSyncAccessHandle(): Promise<{
        write(b: Uint8Array, o: { at: number }): number;
        truncate(n: number): void;
        flush(): void;
        close(): void;
      }>;
    }
  ).createSyncAccessHandle();
  access.truncate(0);
  const piece = 1024 * 1024;
  for (let at = 0; at < size; at += piece) {
    const n = Math.min(piece, size - at);
    const bytes = new Uint8Array(n);
    for (let i = 0; i < n; i += 65536) crypto.getRandomValues(bytes.subarray(i, Math.min(n, i + 65536)));
    access.write(bytes, { at });
  }
  access.flush();
  access.close();
  return handle.getFile();
}

/** With --gc: garbage collected every 100 ms, so RSS shows what is retained rather than what awaits collection. */
const forceGc = (globalThis as { gc?: () => void }).gc;
if (forceGc) setInterval(() => forceGc(), 100);

scope.onmessage = async (event) => {
  const { cmd, size, mode } = event.data as { cmd: string; size: number; mode: Mode };
  try {
    if (cmd === 'source') {
      const file = await sourceFile(size);
      scope.postMessage({ ok: true, size: file.size });
      return;
    }
    if (cmd === 'prepare') {
      const file = await sourceFile(size);
      const key = await importVaultKey(randomBytes(32));
      let slabs: MemoryStaging | null = null;
      const started = performance.now();
      const prepared = await prepareUpload(
        key,
        { file, name: 'bench.bin', mimeType: 'application/zip', tags: [], thumbnail: false },
        () => undefined,
        {
          makeThumbnail: async () => null,
          openStaging: async (fileId, encryptedSize) => {
            if (mode === 'opfs') {
              const sink = await openOpfsStaging(fileId, encryptedSize);
              if (!sink) throw new Error('OPFS staging is not available here');
              return sink;
            }
            if (mode === 'slabs') return (slabs = new MemoryStaging());
            return new NaiveStaging();
          },
        },
      );
      last = prepared;
      scope.postMessage({
        ok: true,
        ms: performance.now() - started,
        staging: prepared.staging.kind,
        ciphertext: prepared.ciphertext,
        encryptedSize: prepared.fields.encryptedSize,
        maxHeldBytes: slabs ? (slabs as MemoryStaging).maxHeldBytes : null,
      });
      return;
    }
    if (cmd === 'release') {
      if (last) await releaseStaging(last.staging);
      last = null;
      scope.postMessage({ ok: true });
    }
  } catch (error) {
    scope.postMessage({ ok: false, error: String(error) });
  }
};
