import { deletedNoteListResponseSchema, type NoteDto } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';
import { useUnlockedQuery } from '../../../lib/session/use-unlocked';
import type { NotesCrypto } from '../../../workers/notes-crypto';
import { useNotesCrypto } from '../../../workers/notes-crypto-context';
import type { NoteFields } from '../types';
import { deletedNotesQueryKey } from './invalidate';

/** Spec section 3, "Trash note" (plus the tags and when it was deleted); `failed` when it could not be decrypted. */
export interface TrashNote extends NoteFields {
  deletedAt: string | null;
  failed: boolean;
}

/** GET /api/notes/deleted → {notes}: the trash, sealed, newest `deletedAt` first. */
export async function getDeletedNotes(api: ApiClient): Promise<NoteDto[]> {
  return parseResponse(deletedNoteListResponseSchema, await api.get<unknown>('/notes/deleted')).notes;
}

/** The trash, decrypted in the notes worker (one failed note does not hide the others). */
export async function loadTrash(
  api: ApiClient,
  crypto: NotesCrypto,
  vaultKey: CryptoKey,
): Promise<TrashNote[]> {
  const sealed = await getDeletedNotes(api);
  const outcomes = sealed.length > 0 ? await crypto.decryptBatch(vaultKey, sealed) : [];
  return sealed.map((n, i) => {
    const outcome = outcomes[i];
    const ok = outcome && outcome.id === n.id && outcome.ok ? outcome.note : null;
    return {
      id: n.id,
      title: ok?.title ?? '',
      content: ok?.content ?? '',
      tags: ok?.tags ?? [],
      createdAt: n.createdAt,
      updatedAt: n.updatedAt,
      deletedAt: n.deletedAt,
      failed: ok === null,
    };
  });
}

export { deletedNotesQueryKey };

export function useDeletedNotes() {
  const crypto = useNotesCrypto();
  return useUnlockedQuery(deletedNotesQueryKey, (api, vaultKey) => loadTrash(api, crypto, vaultKey));
}
