/**
 * Where an upload's ciphertext waits between encryption and the PUT, without ever being one big
 * JS buffer. Decided by measurement (apps/web/README.md "Files: listing and upload",
 * apps/web/bench/files-upload.bench.mjs), with these constraints:
 *
 * - fetch() with a streaming request body would need no staging at all, but Chromium sends one
 *   only with `duplex: 'half'` over HTTP/2 (never over HTTP/1.1, which is how local mode and
 *   most reverse proxies talk), other engines not at all, and fetch reports no upload progress.
 *   So the upload is an XMLHttpRequest of a Blob (real progress events, every engine), and the
 *   ciphertext has to exist as a Blob first.
 * - 1. OPFS (origin-private file system) staging file, written through a sync access handle in
 *   this worker: the ciphertext goes to disk chunk by chunk and the Blob handed to XHR is a
 *   disk-backed File. Memory stays flat however large the file (Chromium 156: browser process
 *   +2 MiB, renderer about +60-75 MiB of uncollected chunk garbage, the same for 25, 100 and
 *   300 MiB files).
 *   The file is removed after the upload (releaseStaging), and stale ones (a tab closed
 *   mid-upload) are swept at the next upload.
 * - 2. Fallback (no OPFS: private windows in some engines, quota, tests): a Blob assembled from
 *   4 MiB slabs. Each slab becomes its own Blob as soon as it is full, so the worker's heap holds
 *   at most one slab; the bytes move to the browser's blob store (one copy of the ciphertext in
 *   the browser process, +100 MiB for a 100 MiB file, paged to disk under memory pressure), and the
 *   final Blob only references the slabs (no copy). Keeping every chunk in an array instead costs
 *   the renderer the whole file on top (measured +194 MiB for 100 MiB, +633 MiB for 300 MiB).
 */
import type { PreparedUpload } from './files-messages';

export interface StagingSink {
  write(chunk: Uint8Array): void;
  finish(): Promise<{ blob: Blob; staging: PreparedUpload['staging'] }>;
  abort(): Promise<void>;
}

export const STAGING_DIR = 'vault-upload-staging';
/** Slab size of the in-memory fallback. */
export const SLAB_BYTES = 4 * 1024 * 1024;
/** A staging file older than this belongs to an upload that was abandoned (closed tab, crash). */
const STALE_MS = 2 * 60 * 60 * 1000;

/** The in-memory fallback: slabs of at most SLAB_BYTES turned into Blobs as they fill. */
export class MemoryStaging implements StagingSink {
  private slab: Uint8Array[] = [];
  private slabBytes = 0;
  private parts: Blob[] = [];
  /** Most bytes held in the worker's own heap at once (tests and the benchmark read it). */
  maxHeldBytes = 0;

  constructor(private readonly slabSize = SLAB_BYTES) {}

  write(chunk: Uint8Array): void {
    this.slab.push(chunk);
    this.slabBytes += chunk.length;
    if (this.slabBytes > this.maxHeldBytes) this.maxHeldBytes = this.slabBytes;
    if (this.slabBytes >= this.slabSize) this.seal();
  }

  private seal(): void {
    if (this.slab.length === 0) return;
    this.parts.push(new Blob(this.slab as BlobPart[]));
    this.slab = [];
    this.slabBytes = 0;
  }

  async finish(): Promise<{ blob: Blob; staging: PreparedUpload['staging'] }> {
    this.seal();
    const blob = new Blob(this.parts, { type: 'application/octet-stream' });
    this.parts = [];
    return { blob, staging: { kind: 'memory' } };
  }

  async abort(): Promise<void> {
    this.slab = [];
    this.parts = [];
  }
}

/** The parts of the OPFS API used here (lib.dom of TypeScript 5.9 lacks the worker-only sync handle). */
interface SyncAccessHandle {
  write(buffer: Uint8Array, options?: { at?: number }): number;
  flush(): void;
  close(): void;
}
interface StagingFileHandle {
  getFile(): Promise<File>;
  createSyncAccessHandle?: () => Promise<SyncAccessHandle>;
}
interface StagingDirectory {
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<StagingDirectory>;
  getFileHandle(name: string, options?: { create?: boolean }): Promise<StagingFileHandle>;
  removeEntry(name: string): Promise<void>;
  keys?: () => AsyncIterable<string>;
}

async function stagingDirectory(): Promise<StagingDirectory | null> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  if (!storage || typeof storage.getDirectory !== 'function') return null;
  const root = (await storage.getDirectory()) as unknown as StagingDirectory;
  return root.getDirectoryHandle(STAGING_DIR, { create: true });
}

/** Removes staging files of abandoned uploads (names start with their creation time). */
async function sweepStale(dir: StagingDirectory, now: number): Promise<void> {
  if (typeof dir.keys !== 'function') return;
  const stale: string[] = [];
  for await (const name of dir.keys()) {
    const created = Number(name.split('-')[0]);
    if (Number.isFinite(created) && now - created > STALE_MS) stale.push(name);
  }
  // A file still open elsewhere refuses removal: that is fine, it is someone's live upload.
  await Promise.all(stale.map((name) => dir.removeEntry(name).catch(() => undefined)));
}

/**
 * A staging file in OPFS for `encryptedSize` bytes, or null when OPFS (or its sync access
 * handle, which only dedicated workers have) is missing or the origin's quota is too small.
 */
export async function openOpfsStaging(fileId: string, encryptedSize: number): Promise<StagingSink | null> {
  try {
    const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
    if (storage && typeof storage.estimate === 'function') {
      const { quota, usage } = await storage.estimate();
      if (quota !== undefined && quota - (usage ?? 0) < encryptedSize * 1.1 + SLAB_BYTES) return null;
    }
    const dir = await stagingDirectory();
    if (!dir) return null;
    const now = Date.now();
    await sweepStale(dir, now);
    const name = `${now}-${fileId}.bin`;
    const handle = await dir.getFileHandle(name, { create: true });
    if (typeof handle.createSyncAccessHandle !== 'function') {
      await dir.removeEntry(name).catch(() => undefined);
      return null;
    }
    const access = await handle.createSyncAccessHandle();
    let offset = 0;
    let open = true;
    const close = () => {
      if (!open) return;
      open = false;
      access.close();
    };
    return {
      write(chunk) {
        const written = access.write(chunk, { at: offset });
        if (written !== chunk.length)
          throw new Error('Could not write the encrypted file to temporary storage');
        offset += written;
      },
      async finish() {
        access.flush();
        close();
        return { blob: await handle.getFile(), staging: { kind: 'opfs', name } };
      },
      async abort() {
        try {
          close();
        } catch {
          // already closed
        }
        await dir.removeEntry(name).catch(() => undefined);
      },
    };
  } catch {
    return null;
  }
}

/** OPFS when it can be used, else the in-memory slabs. */
export async function openStaging(fileId: string, encryptedSize: number): Promise<StagingSink> {
  return (await openOpfsStaging(fileId, encryptedSize)) ?? new MemoryStaging();
}

/** Drops an upload's staged ciphertext (after the upload, or when it is given up). */
export async function releaseStaging(staging: PreparedUpload['staging']): Promise<void> {
  if (staging.kind !== 'opfs') return;
  try {
    const dir = await stagingDirectory();
    await dir?.removeEntry(staging.name);
  } catch {
    // Gone already, or still open: the next upload's sweep removes it once it is stale.
  }
}
