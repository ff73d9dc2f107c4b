import type { ApiClient } from '../../../lib/api-client';
import type { QueryCache } from '../../../lib/query';
import type { SessionStore } from '../../../lib/session/session-store';
import type { FilesCrypto } from '../../../workers/files-crypto';
import { getFiles } from '../api/get-files';
import { readFingerprintSetting } from '../api/get-fingerprint-setting';
import { getThumbnail } from '../api/get-thumbnail';
import { filesChanged } from '../api/invalidate';
import { FilesStore } from './files-store';
import { UploadQueue } from './upload-queue';
import type { UploadTransport } from './upload-transport';

interface Registration {
  store: FilesStore | null;
  uploads: UploadQueue | null;
}

const registrations = new WeakMap<SessionStore, Registration>();

/**
 * The files store and the upload queue live as long as the vault stays unlocked with the same
 * key (like notes-registry.ts): they survive moving between screens, and are disposed (every
 * decrypted name and thumbnail dropped, a running upload aborted) the moment the session loses
 * its vault key: sign-out, inactivity timeout, an authentication failure, another user.
 */
function registrationFor(session: SessionStore): Registration {
  let reg = registrations.get(session);
  if (!reg) {
    const created: Registration = { store: null, uploads: null };
    session.subscribe(() => {
      const state = session.getState();
      const lost = (key: CryptoKey) => !state.user || state.vaultKey !== key;
      if (created.store && lost(created.store.vaultKey)) {
        created.store.dispose();
        created.store = null;
      }
      if (created.uploads && lost(created.uploads.vaultKey)) {
        created.uploads.dispose();
        created.uploads = null;
      }
    });
    registrations.set(session, created);
    reg = created;
  }
  return reg;
}

export function filesStoreFor(session: SessionStore, api: ApiClient, crypto: FilesCrypto): FilesStore | null {
  const { user, vaultKey } = session.getState();
  const reg = registrationFor(session);
  if (!user || !vaultKey) return null;
  if (reg.store && reg.store.vaultKey === vaultKey && !reg.store.isDisposed) return reg.store;
  reg.store?.dispose();
  reg.store = new FilesStore({
    vaultKey,
    crypto,
    fetchFiles: () => getFiles(api),
    fetchThumbnail: (id) => getThumbnail(api, id),
  });
  return reg.store;
}

/** The store if one exists for this session (the trash restores into it), without creating one. */
export function existingFilesStore(session: SessionStore): FilesStore | null {
  const store = registrations.get(session)?.store ?? null;
  return store && !store.isDisposed && store.vaultKey === session.getState().vaultKey ? store : null;
}

export interface UploadQueueDeps {
  api: ApiClient;
  crypto: FilesCrypto;
  transport: UploadTransport;
  cache: QueryCache;
  apiBaseUrl: string;
}

/**
 * The session's upload queue. One second after each upload succeeds (spec section 4) the file
 * list is refreshed and the counts are marked stale.
 */
export function uploadQueueFor(session: SessionStore, deps: UploadQueueDeps): UploadQueue | null {
  const { user, vaultKey } = session.getState();
  const reg = registrationFor(session);
  if (!user || !vaultKey) return null;
  if (reg.uploads && reg.uploads.vaultKey === vaultKey && !reg.uploads.isDisposed) return reg.uploads;
  reg.uploads?.dispose();
  reg.uploads = new UploadQueue({
    api: deps.api,
    crypto: deps.crypto,
    transport: deps.transport,
    vaultKey,
    apiBaseUrl: deps.apiBaseUrl,
    fingerprintCheck: () => readFingerprintSetting(deps.api, deps.cache),
    onUploaded: () => {
      void existingFilesStore(session)?.refresh();
      filesChanged(deps.cache, { trash: false });
    },
  });
  return reg.uploads;
}
