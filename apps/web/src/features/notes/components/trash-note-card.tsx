import type { TrashCardContent } from '../../../lib/trash-section';
import type { TrashNote } from '../api/get-deleted-notes';
import { TRASH_PREVIEW_LENGTH } from '../utils/limits';
import { formatNoteDate, previewText } from '../utils/note-format';

/** Spec section 2: a note's trash card shows the title (or 'Untitled'), the first 100 characters (or 'No content'), the deleted date. */
export function trashNoteCard(note: TrashNote): TrashCardContent {
  return {
    name: note.failed ? 'Failed to decrypt note' : note.title || 'Untitled',
    failed: note.failed,
    titleId: `trash-${note.id}-title`,
    attributes: { 'data-note-id': note.id },
    preview: note.failed
      ? 'This note could not be decrypted with your vault key.'
      : note.content
        ? previewText(note.content, TRASH_PREVIEW_LENGTH)
        : 'No content',
    ...(note.content ? {} : { previewClassName: 'note-card__preview--empty' }),
    deletedAt: note.deletedAt,
    deletedOn: formatNoteDate(note.deletedAt ?? note.updatedAt),
  };
}
