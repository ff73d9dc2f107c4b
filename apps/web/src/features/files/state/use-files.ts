import { useMemo } from 'react';
import { useRuntimeConfig } from '../../../lib/config-context';
import { useQueryCache } from '../../../lib/query';
import { useUnlockedValue } from '../../../lib/session/use-unlocked';
import { useStoreSnapshot } from '../../../lib/use-store-snapshot';
import { useFilesCrypto } from '../../../workers/files-crypto-context';
import { filesStoreFor, uploadQueueFor } from './files-registry';
import { emptyFilesSnapshot, type FilesSnapshot, type FilesStore } from './files-store';
import { NO_UPLOADS, type UploadQueue, type UploadSnapshot } from './upload-queue';
import { useUploadTransport } from './upload-transport-context';

/** The unlocked vault's files store (null while the vault is locked). */
export function useFilesStore(): FilesStore | null {
  return useUnlockedValue(filesStoreFor, useFilesCrypto());
}

/** The store's current state; re-renders after every decrypted batch, thumbnail and filter change. */
export function useFilesSnapshot(store: FilesStore | null): FilesSnapshot {
  return useStoreSnapshot(store, emptyFilesSnapshot);
}

/** The session's upload queue (null while the vault is locked). */
export function useUploadQueue(): UploadQueue | null {
  const crypto = useFilesCrypto();
  const transport = useUploadTransport();
  const cache = useQueryCache();
  const { apiBaseUrl } = useRuntimeConfig();
  const deps = useMemo(
    () => ({ crypto, transport, cache, apiBaseUrl }),
    [crypto, transport, cache, apiBaseUrl],
  );
  return useUnlockedValue(uploadQueueFor, deps);
}

const emptyUploads = () => NO_UPLOADS;

export function useUploadSnapshot(queue: UploadQueue | null): UploadSnapshot {
  return useStoreSnapshot(queue, emptyUploads);
}
