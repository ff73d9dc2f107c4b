import { Button } from '../../../components/button';
import { AlertIcon } from '../../../components/icons';
import type { TrashNote } from '../api/get-deleted-notes';
import { TRASH_PREVIEW_LENGTH } from '../utils/limits';
import { formatNoteDate, previewText } from '../utils/note-format';

export interface TrashNoteCardProps {
  note: TrashNote;
  busy: boolean;
  onRestore: () => void;
  onDelete: () => void;
}

/** Spec section 2: title (or 'Untitled'), the first 100 characters (or 'No content'), the deleted date. */
export function TrashNoteCard({ note, busy, onRestore, onDelete }: TrashNoteCardProps) {
  const titleId = `trash-${note.id}-title`;
  const title = note.failed ? 'Failed to decrypt note' : note.title || 'Untitled';
  const deletedOn = formatNoteDate(note.deletedAt ?? note.updatedAt);
  return (
    <article
      className={`note-card trash-card${note.failed ? ' note-card--failed' : ''}`}
      aria-labelledby={titleId}
      data-note-id={note.id}
    >
      <h3 className="note-card__title" id={titleId}>
        {note.failed ? <AlertIcon width={16} height={16} /> : null}
        <span className="trash-card__title">{title}</span>
      </h3>
      <p className={`note-card__preview${note.content ? '' : ' note-card__preview--empty'}`}>
        {note.failed
          ? 'This note could not be decrypted with your vault key.'
          : note.content
            ? previewText(note.content, TRASH_PREVIEW_LENGTH)
            : 'No content'}
      </p>
      <footer className="note-card__footer trash-card__footer">
        {deletedOn ? <time dateTime={note.deletedAt ?? undefined}>Deleted {deletedOn}</time> : <span />}
        <span className="trash-card__actions">
          <Button
            variant="secondary"
            size="sm"
            onClick={onRestore}
            loading={busy}
            loadingLabel="Restoring..."
            aria-label={`Restore ${title}`}
          >
            Restore
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="trash-card__delete"
            onClick={onDelete}
            disabled={busy}
            aria-label={`Delete ${title} permanently`}
          >
            Delete
          </Button>
        </span>
      </footer>
    </article>
  );
}
