import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { useHasLegacyKeys } from '../../../lib/legacy-keys';
import { useNoteCounts, type NoteCounts } from '../../../lib/note-counts';
import { useSession, useSessionStore } from '../../../lib/session/session-context';
import { existingNotesStore, watchNotesStore } from './notes-registry';
import type { NotesSnapshot, NotesStore } from './notes-store';
import { useNotesSnapshot } from './use-notes';

/**
 * What every notes count on a screen shows (the list header 'Notes (n)', the tag panel's total,
 * the sidebar's All Notes and Trash, Load More's 'of n'): one rule, so they cannot disagree.
 */
export interface NoteTotals {
  /**
   * Notes in the vault, not in the trash: every note of the list, the locked and the undecryptable
   * ones included. Undefined while nothing is known.
   */
  active: number | undefined;
  /**
   * Of `active`, the notes this device has opened so far: readable, locked or undecryptable (every
   * card the list can show). The list header's count: it equals `active` once the list is loaded,
   * and grows to it while the rest is decrypted ('Decrypting n more...' beside it).
   */
  opened: number;
  /** Of `active`: sealed under a vault key from before an access reset (known once they are loaded here). */
  locked: number;
  /**
   * The account has a vault key from before an access reset, so a note whose key does not open is
   * locked. Without one nothing can be locked: such a note's key was changed or swapped on the
   * server, and it is shown as a note that failed to decrypt (docs/threat-model.md).
   */
  lockedPossible: boolean;
  /** Notes in the trash (the server's count); undefined while it is not known. */
  deleted: number | undefined;
  /** The words for `active`: '3 notes', '1 note, 1 locked'. */
  label: string | undefined;
}

const plural = (n: number) => `${n} ${n === 1 ? 'note' : 'notes'}`;

/** ', 1 locked' when some of the notes are locked, else ''. */
export function lockedSuffix(locked: number): string {
  return locked > 0 ? `, ${locked} locked` : '';
}

/**
 * The rule. Once this device has loaded the whole list, its notes are the count (what the list
 * shows, at once after a change here); before, the server's count (never less than what is
 * already loaded); without it, the notes loaded so far once some are shown. Locked notes (only
 * where `lockedPossible`) are counted like any other and said apart, everywhere.
 */
export function noteTotals(
  snapshot: NotesSnapshot,
  counts: NoteCounts | undefined,
  lockedPossible = false,
): NoteTotals {
  const loaded = snapshot.items.length;
  const active = snapshot.complete
    ? loaded
    : counts !== undefined
      ? Math.max(counts.active, loaded)
      : snapshot.status === 'ready'
        ? loaded
        : undefined;
  const locked = lockedPossible ? snapshot.lockedCount : 0;
  return {
    active,
    opened: snapshot.decryptedCount + snapshot.failedCount,
    locked,
    lockedPossible,
    deleted: counts?.deleted,
    label: active === undefined ? undefined : `${plural(active)}${lockedSuffix(locked)}`,
  };
}

/**
 * The session's notes store when one exists, without making one (the shell must not start the
 * notes list on /files), followed as it is made and dropped.
 */
function useExistingNotesStore(): NotesStore | null {
  const session = useSessionStore();
  const { vaultKey } = useSession();
  const subscribe = useCallback((listener: () => void) => watchNotesStore(session, listener), [session]);
  const get = useCallback(() => (vaultKey ? existingNotesStore(session) : null), [session, vaultKey]);
  return useSyncExternalStore(subscribe, get, get);
}

/**
 * The notes totals (noteTotals) from the notes store, GET /api/notes/counts and whether the
 * account has legacy keys (GET /api/auth/legacy-keys), and the counts query.
 */
export function useNoteTotals(enabled = true) {
  const store = useExistingNotesStore();
  const snapshot = useNotesSnapshot(store);
  const counts = useNoteCounts(enabled);
  const lockedPossible = useHasLegacyKeys(enabled);
  const totals = useMemo(
    () => noteTotals(snapshot, counts.data, lockedPossible),
    [snapshot, counts.data, lockedPossible],
  );
  return { ...totals, snapshot, counts };
}
