import { useMemo, useSyncExternalStore } from 'react';
import { useApiClient } from '../../../lib/api-context';
import { useRuntimeConfig } from '../../../lib/config-context';
import { useQueryCache } from '../../../lib/query';
import { useSession, useSessionStore } from '../../../lib/session/session-context';
import { useFilesCrypto } from '../../../workers/files-crypto-context';
import { filesStoreFor, uploadQueueFor } from './files-registry';
import { emptyFilesSnapshot, type FilesSnapshot, type FilesStore } from './files-store';
import type { UploadQueue, UploadSnapshot } from './upload-queue';
import { useUploadTransport } from './upload-transport-context';

const noop = () => () => undefined;

/** The unlocked vault's files store (null while the vault is locked). */
export function useFilesStore(): FilesStore | null {
  const session = useSessionStore();
  const { user, vaultKey } = useSession();
  const userId = user?.id ?? null;
  const api = useApiClient();
  const crypto = useFilesCrypto();
  return useMemo(
    () => (userId && vaultKey ? filesStoreFor(session, api, crypto) : null),
    [session, api, crypto, userId, vaultKey],
  );
}

/** The store's current state; re-renders after every decrypted batch, thumbnail and filter change. */
export function useFilesSnapshot(store: FilesStore | null): FilesSnapshot {
  return useSyncExternalStore(
    store ? store.subscribe : noop,
    store ? store.getSnapshot : emptyFilesSnapshot,
    store ? store.getSnapshot : emptyFilesSnapshot,
  );
}

/** The session's upload queue (null while the vault is locked). */
export function useUploadQueue(): UploadQueue | null {
  const session = useSessionStore();
  const { user, vaultKey } = useSession();
  const userId = user?.id ?? null;
  const api = useApiClient();
  const crypto = useFilesCrypto();
  const transport = useUploadTransport();
  const cache = useQueryCache();
  const { apiBaseUrl } = useRuntimeConfig();
  return useMemo(
    () =>
      userId && vaultKey ? uploadQueueFor(session, { api, crypto, transport, cache, apiBaseUrl }) : null,
    [session, api, crypto, transport, cache, apiBaseUrl, userId, vaultKey],
  );
}

const EMPTY_UPLOADS: UploadSnapshot = Object.freeze({
  items: [],
  busy: false,
  finished: false,
  failures: [],
});
const emptyUploads = () => EMPTY_UPLOADS;

export function useUploadSnapshot(queue: UploadQueue | null): UploadSnapshot {
  return useSyncExternalStore(
    queue ? queue.subscribe : noop,
    queue ? queue.getSnapshot : emptyUploads,
    queue ? queue.getSnapshot : emptyUploads,
  );
}
