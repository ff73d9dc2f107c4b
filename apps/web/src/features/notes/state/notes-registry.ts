import type { ApiClient } from '../../../lib/api-client';
import type { NotesCrypto } from '../../../workers/notes-crypto';
import type { SessionStore } from '../../auth/state/session-store';
import { getNotesPage } from '../api/get-notes';
import { withRateLimitRetry } from '../api/rate-limit';
import { NotesStore } from './notes-store';

interface Registration {
  store: NotesStore | null;
  unsubscribe: () => void;
}

const registrations = new WeakMap<SessionStore, Registration>();

/**
 * The notes store lives as long as the vault stays unlocked with the same key: it survives
 * moving between /vault, /trash and /settings (no reload, no second decryption), and is disposed
 * (every plaintext dropped) the moment the session loses its vault key: sign-out, inactivity
 * timeout, an authentication failure, or another user signing in.
 */
export function notesStoreFor(session: SessionStore, api: ApiClient, crypto: NotesCrypto): NotesStore | null {
  const { user, vaultKey } = session.getState();
  let reg = registrations.get(session);
  if (!reg) {
    const created: Registration = { store: null, unsubscribe: () => undefined };
    created.unsubscribe = session.subscribe(() => {
      const state = session.getState();
      if (created.store && (!state.user || state.vaultKey !== created.store.vaultKey)) {
        created.store.dispose();
        created.store = null;
      }
    });
    registrations.set(session, created);
    reg = created;
  }
  if (!user || !vaultKey) return null;
  if (reg.store && reg.store.vaultKey === vaultKey && !reg.store.isDisposed) return reg.store;
  reg.store?.dispose();
  reg.store = new NotesStore({
    vaultKey,
    crypto,
    fetchPage: (query) => withRateLimitRetry(() => getNotesPage(api, query)),
  });
  return reg.store;
}

/** The store if one exists for this session (the trash restores into it), without creating one. */
export function existingNotesStore(session: SessionStore): NotesStore | null {
  const store = registrations.get(session)?.store ?? null;
  return store && !store.isDisposed && store.vaultKey === session.getState().vaultKey ? store : null;
}
