import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { StorageType } from '@vault/contracts';

/**
 * What the worker needs of a storage driver: the stored size, and the bytes as a stream.
 * `@vault/storage`'s `StorageDriver` has this shape (`stat` answers null for a missing object).
 */
export interface ObjectReader {
  stat(key: string): Promise<{ size: number } | null>;
  get(key: string): Promise<Readable>;
}

/** The readers a deployment configures, by the job's `storageType`. */
export type ObjectReaders = Partial<Record<StorageType, ObjectReader>>;

const READ_CHUNK_BYTES = 256 * 1024;

/** Objects as files under `root/<key>`; a key can never climb out of `root`. */
export class LocalDiskReader implements ObjectReader {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  pathOf(key: string): string {
    const path = resolve(this.root, key);
    const rel = relative(this.root, path);
    if (key === '' || rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
      throw new Error('Invalid storage object key');
    }
    return path;
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const info = await stat(this.pathOf(key));
      return info.isFile() ? { size: info.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async get(key: string): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key), { highWaterMark: READ_CHUNK_BYTES });
    // Surface open errors (ENOENT, EACCES) here rather than on the first read.
    await new Promise<void>((resolveOpen, reject) => {
      stream.once('open', () => resolveOpen());
      stream.once('error', reject);
    });
    return stream;
  }
}

/** The readers of the configured storage. */
export function createObjectReaders(storage: { localRoot: string }): ObjectReaders {
  return { local: new LocalDiskReader(storage.localRoot) };
}
