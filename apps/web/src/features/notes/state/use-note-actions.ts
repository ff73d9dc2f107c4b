import { useCallback, useMemo } from 'react';
import { isApiError, messageOf } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { useSession } from '../../../lib/session/session-context';
import { useNotesCrypto } from '../../../workers/notes-crypto-context';
import type { NotePlain, SealedNoteFields } from '../../../workers/notes-messages';
import { createNote } from '../api/create-note';
import { deleteNote } from '../api/delete-note';
import { notesChanged } from '../api/invalidate';
import { updateNoteRequest } from '../api/update-note';
import { NOTE_MESSAGES } from '../utils/note-rules';
import type { DecryptedNote, NoteItem, NotesStore } from './notes-store';

/** A failed note action: which step failed (the spec's message) and the server's reason, if any. */
export class NoteActionError extends Error {
  constructor(
    readonly step: 'encrypt' | 'save' | 'delete',
    readonly reason: string | null,
    /** A create whose request failed: retrying sends exactly this body again (same id, idempotent). */
    readonly sealed?: SealedNoteFields,
  ) {
    super(
      step === 'encrypt'
        ? NOTE_MESSAGES.encryptFailed
        : step === 'save'
          ? NOTE_MESSAGES.saveFailed
          : NOTE_MESSAGES.deleteFailed,
    );
    this.name = 'NoteActionError';
  }
}

/** A create that reached the encryption step: kept so a retry reuses the same id and ciphertext. */
export interface PendingCreate {
  plain: NotePlain;
  sealed: SealedNoteFields;
}

const samePlain = (a: NotePlain, b: NotePlain) =>
  a.title === b.title &&
  a.content === b.content &&
  a.tags.length === b.tags.length &&
  a.tags.every((t, i) => t === b.tags[i]);

function reasonOf(error: unknown): string | null {
  const text = messageOf(error, '');
  return text || null;
}

/** One step of an action; its failure becomes the NoteActionError `fail` makes. */
async function step<T>(run: () => Promise<T>, fail: (error: unknown) => NoteActionError): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw fail(error);
  }
}

const encryptFailed = (error: unknown) =>
  new NoteActionError('encrypt', error instanceof Error ? error.message : null);

export interface NoteActions {
  /** Encrypts (in the worker) and creates a note; `pending` is the earlier failed attempt, if any. */
  create(plain: NotePlain, pending?: PendingCreate | null): Promise<DecryptedNote>;
  /** Re-seals every field of a loaded note and saves it. */
  update(item: Extract<NoteItem, { kind: 'decrypted' }>, plain: NotePlain): Promise<DecryptedNote>;
  /** Moves a note to the trash. */
  remove(id: string): Promise<void>;
}

/** Create, update and delete, keeping the notes store, the sidebar counts and the trash in step. */
export function useNoteActions(store: NotesStore | null): NoteActions {
  const api = useApiClient();
  const cache = useQueryCache();
  const crypto = useNotesCrypto();
  const { vaultKey } = useSession();

  const create = useCallback(
    async (plain: NotePlain, pending?: PendingCreate | null): Promise<DecryptedNote> => {
      if (!vaultKey || !store) throw new NoteActionError('encrypt', 'The vault is locked');
      const sealed =
        pending && samePlain(pending.plain, plain)
          ? pending.sealed
          : await step(() => crypto.encrypt(vaultKey, undefined, plain), encryptFailed);
      const saved = await step(
        () => createNote(api, sealed),
        (error) => new NoteActionError('save', reasonOf(error), sealed),
      );
      const note = store.upsert(saved, plain);
      notesChanged(cache, { trash: false });
      return note;
    },
    [api, cache, crypto, store, vaultKey],
  );

  const update = useCallback(
    async (item: Extract<NoteItem, { kind: 'decrypted' }>, plain: NotePlain): Promise<DecryptedNote> => {
      if (!vaultKey || !store) throw new NoteActionError('encrypt', 'The vault is locked');
      const sealed = await step(() => crypto.update(vaultKey, item.sealed, plain), encryptFailed);
      const saved = await step(
        () => updateNoteRequest(api, sealed),
        (error) => new NoteActionError('save', reasonOf(error)),
      );
      return store.upsert(saved, plain);
    },
    [api, crypto, store, vaultKey],
  );

  const remove = useCallback(
    async (id: string): Promise<void> => {
      try {
        await deleteNote(api, id);
      } catch (error) {
        // Already gone (removed for good in another tab): nothing left to delete here either.
        if (!isApiError(error, 404)) throw new NoteActionError('delete', reasonOf(error));
      }
      store?.remove(id);
      notesChanged(cache);
    },
    [api, cache, store],
  );

  return useMemo(() => ({ create, update, remove }), [create, update, remove]);
}
