import { useMemo, useSyncExternalStore } from 'react';
import { useApiClient } from '../../../lib/api-context';
import { useSession, useSessionStore } from '../../../lib/session/session-context';
import { useNotesCrypto } from '../../../workers/notes-crypto-context';
import { notesStoreFor } from './notes-registry';
import type { NotesSnapshot, NotesStore } from './notes-store';

const noop = () => () => undefined;

/** The unlocked vault's notes store (null while the vault is locked). */
export function useNotesStore(): NotesStore | null {
  const session = useSessionStore();
  const { user, vaultKey } = useSession();
  const userId = user?.id ?? null;
  const api = useApiClient();
  const crypto = useNotesCrypto();
  // The store follows the user and the vault key (a new key, or none, means a new store).
  return useMemo(
    () => (userId && vaultKey ? notesStoreFor(session, api, crypto) : null),
    [session, api, crypto, userId, vaultKey],
  );
}

const EMPTY = (): NotesSnapshot => ({
  status: 'idle',
  error: null,
  complete: false,
  items: [],
  decrypted: new Map(),
  decryptedCount: 0,
  failedCount: 0,
  lockedCount: 0,
  pendingCount: 0,
  selectedTags: [],
  searchQuery: '',
});
const emptySnapshot = EMPTY();

/** The store's current state; re-renders after every decrypted batch and filter change. */
export function useNotesSnapshot(store: NotesStore | null): NotesSnapshot {
  return useSyncExternalStore(
    store ? store.subscribe : noop,
    store ? store.getSnapshot : () => emptySnapshot,
    store ? store.getSnapshot : () => emptySnapshot,
  );
}
