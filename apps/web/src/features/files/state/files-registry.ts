import type { ApiClient } from '../../../lib/api-client';
import type { QueryCache } from '../../../lib/query';
import type { SessionStore } from '../../../lib/session/session-store';
import { liveFor, lostBy, renewFor } from '../../../lib/session/vault-bound';
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
      if (created.store && lostBy(created.store, state)) {
        created.store.dispose();
        created.store = null;
      }
      if (created.uploads && lostBy(created.uploads, state)) {
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
  const reg = registrationFor(session);
  const store = renewFor(
    session,
    reg.store,
    (vaultKey) =>
      new FilesStore({
        vaultKey,
        crypto,
        fetchFiles: () => getFiles(api),
        fetchThumbnail: (id) => getThumbnail(api, id),
      }),
  );
  if (store) reg.store = store;
  return store;
}

/** The store if one exists for this session (the trash restores into it), without creating one. */
export function existingFilesStore(session: SessionStore): FilesStore | null {
  return liveFor(registrations.get(session)?.store ?? null, session);
}

export interface UploadQueueDeps {
  crypto: FilesCrypto;
  transport: UploadTransport;
  cache: QueryCache;
  apiBaseUrl: string;
}

/**
 * The session's upload queue. One second after each upload succeeds (spec section 4) the file
 * list is refreshed and the counts are marked stale.
 */
export function uploadQueueFor(
  session: SessionStore,
  api: ApiClient,
  deps: UploadQueueDeps,
): UploadQueue | null {
  const reg = registrationFor(session);
  const uploads = renewFor(
    session,
    reg.uploads,
    (vaultKey) =>
      new UploadQueue({
        api,
        crypto: deps.crypto,
        transport: deps.transport,
        vaultKey,
        apiBaseUrl: deps.apiBaseUrl,
        fingerprintCheck: () => readFingerprintSetting(api, deps.cache),
        onUploaded: () => {
          void existingFilesStore(session)?.refresh();
          filesChanged(deps.cache, { trash: false });
        },
      }),
  );
  if (uploads) reg.uploads = uploads;
  return uploads;
}
