import type { Readable } from 'node:stream';
import type { StorageType } from '@vault/contracts';
import { createStorageDrivers, type StorageOptions } from '@vault/storage';

/**
 * What the worker needs of a storage driver: the stored size (null when absent), and the bytes
 * as a stream. Every `StorageDriver` of @vault/storage has this shape.
 */
export interface ObjectReader {
  stat(key: string): Promise<{ size: number } | null>;
  get(key: string): Promise<Readable>;
}

/** The readers a deployment configures, by the job's `storageType`. */
export type ObjectReaders = Partial<Record<StorageType, ObjectReader>>;

/** The configured drivers of @vault/storage (the files service's), by storage type. */
export function createObjectReaders(storage: StorageOptions): ObjectReaders {
  const { drivers } = createStorageDrivers(storage);
  return Object.fromEntries(drivers) as ObjectReaders;
}
