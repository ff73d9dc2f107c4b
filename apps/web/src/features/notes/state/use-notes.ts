import { useUnlockedValue } from '../../../lib/session/use-unlocked';
import { useStoreSnapshot } from '../../../lib/use-store-snapshot';
import { useNotesCrypto } from '../../../workers/notes-crypto-context';
import { notesStoreFor } from './notes-registry';
import { EMPTY_NOTES_SNAPSHOT, type NotesSnapshot, type NotesStore } from './notes-store';

/** The unlocked vault's notes store (null while the vault is locked). */
export function useNotesStore(): NotesStore | null {
  return useUnlockedValue(notesStoreFor, useNotesCrypto());
}

const emptySnapshot = () => EMPTY_NOTES_SNAPSHOT;

/** The store's current state; re-renders after every decrypted batch and filter change. */
export function useNotesSnapshot(store: NotesStore | null): NotesSnapshot {
  return useStoreSnapshot(store, emptySnapshot);
}
