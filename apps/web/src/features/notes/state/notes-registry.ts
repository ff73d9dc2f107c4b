import type { ApiClient } from '../../../lib/api-client';
import type { SessionStore } from '../../../lib/session/session-store';
import { liveFor, lostBy, renewFor } from '../../../lib/session/vault-bound';
import type { NotesCrypto } from '../../../workers/notes-crypto';
import { getNotesPage, type NotesPageQuery } from '../api/get-notes';
import { withRateLimitRetry } from '../api/rate-limit';
import { noteFreshnessFor } from './note-freshness';
import { NotesPrefetch } from './notes-prefetch';
import { NotesStore } from './notes-store';

interface Registration {
  store: NotesStore | null;
  /** Pages being fetched while the vault is unlocked (see prefetchNotes). */
  prefetch: NotesPrefetch | null;
  unsubscribe: () => void;
  /** Told (in a microtask: the store is made during a render) when the store is made or dropped. */
  watchers: Set<() => void>;
}

function storeChanged(reg: Registration): void {
  queueMicrotask(() => reg.watchers.forEach((watcher) => watcher()));
}

const registrations = new WeakMap<SessionStore, Registration>();

/**
 * The notes store lives as long as the vault stays unlocked with the same key: it survives
 * moving between /vault, /trash and /settings (no reload, no second decryption), and is disposed
 * (every plaintext dropped) the moment the session loses its vault key: sign-out, inactivity
 * timeout, an authentication failure, or another user signing in.
 */
function registrationFor(session: SessionStore): Registration {
  let reg = registrations.get(session);
  if (!reg) {
    const created: Registration = {
      store: null,
      prefetch: null,
      unsubscribe: () => undefined,
      watchers: new Set(),
    };
    created.unsubscribe = session.subscribe(() => {
      const state = session.getState();
      if (created.store && lostBy(created.store, state)) {
        created.store.dispose();
        created.store = null;
        storeChanged(created);
      }
      if (created.prefetch && state.user?.id !== created.prefetch.userId) {
        created.prefetch.stop();
        created.prefetch = null;
      }
    });
    registrations.set(session, created);
    reg = created;
  }
  return reg;
}

export function notesStoreFor(session: SessionStore, api: ApiClient, crypto: NotesCrypto): NotesStore | null {
  const reg = registrationFor(session);
  const store = renewFor(session, reg.store, (vaultKey, user) => {
    const fetchPage = (query: NotesPageQuery) => withRateLimitRetry(() => getNotesPage(api, query));
    // Pages fetched while the unlock KDF ran are used first; a failed one is fetched again.
    const prefetch = reg.prefetch?.userId === user.id ? reg.prefetch : null;
    reg.prefetch = null;
    const made = new NotesStore({
      vaultKey,
      crypto,
      fetchPage: (query) => prefetch?.take(query)?.catch(() => fetchPage(query)) ?? fetchPage(query),
      // Outlives this store: the next unlock's list is checked against what this one showed.
      freshness: noteFreshnessFor(user.id),
    });
    if (prefetch) made.onDispose(() => prefetch.stop());
    return made;
  });
  if (store && store !== reg.store) {
    reg.store = store;
    storeChanged(reg);
  }
  return store;
}

/**
 * Starts fetching the signed-in user's sealed notes while the vault is being unlocked (the app's
 * unlock step calls this as the password is submitted, app/routes/guards.tsx): the key derivation and the first requests then
 * run side by side instead of one after the other. Harmless when the unlock fails: the pages are
 * ciphertext the session may read anyway, and they are dropped on sign-out or after a minute.
 */
export function prefetchNotes(session: SessionStore, api: ApiClient): void {
  const { user, vaultKey } = session.getState();
  if (!user || vaultKey) return;
  const reg = registrationFor(session);
  if (reg.prefetch && reg.prefetch.userId === user.id && Date.now() - reg.prefetch.startedAt < 10_000) return;
  reg.prefetch?.stop();
  reg.prefetch = new NotesPrefetch(user.id, (query) => withRateLimitRetry(() => getNotesPage(api, query)));
}

/**
 * Calls `listener` whenever this session's notes store is made or dropped (for readers that must
 * not make one, such as the shell's counts: see existingNotesStore). Returns the unsubscribe.
 */
export function watchNotesStore(session: SessionStore, listener: () => void): () => void {
  const reg = registrationFor(session);
  reg.watchers.add(listener);
  return () => reg.watchers.delete(listener);
}

/** The store if one exists for this session (the trash restores into it), without creating one. */
export function existingNotesStore(session: SessionStore): NotesStore | null {
  return liveFor(registrations.get(session)?.store ?? null, session);
}
