import { useApiClient } from '../../../lib/api-context';
import { useQueryCache } from '../../../lib/query';
import { useSessionStore } from '../../../lib/session/session-context';
import type { TrashSection } from '../../../lib/trash-section';
import { deleteNotePermanently } from '../api/delete-note-permanently';
import { emptyTrash } from '../api/empty-trash';
import { useDeletedNotes } from '../api/get-deleted-notes';
import { notesChanged } from '../api/invalidate';
import { restoreNote } from '../api/restore-note';
import { existingNotesStore } from '../state/notes-registry';
import { trashNoteCard } from './trash-note-card';

/** The trash's Deleted Notes: the notes in the trash, decrypted, with Restore and permanent delete. */
export function useNotesTrash(): TrashSection {
  const api = useApiClient();
  const cache = useQueryCache();
  const session = useSessionStore();
  const deleted = useDeletedNotes();
  return {
    kind: 'note',
    title: 'Deleted Notes',
    headingId: 'deleted-notes-heading',
    entries: deleted.data?.map((note) => ({
      id: note.id,
      card: trashNoteCard(note),
      restore: async () => {
        const restored = await restoreNote(api, note.id);
        return {
          message: `Restored "${note.failed ? 'encrypted note' : note.title || 'Untitled'}" to your vault.`,
          after: async () => {
            await existingNotesStore(session)?.insertSealed(restored);
            notesChanged(cache);
          },
        };
      },
      purge: () => deleteNotePermanently(api, note.id),
    })),
    status: deleted.status,
    error: deleted.error,
    refetch: deleted.refetch,
    empty: () => emptyTrash(api),
    changed: () => notesChanged(cache),
  };
}
