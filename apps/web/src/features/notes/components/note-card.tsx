import { memo } from 'react';
import { CardTags } from '../../../components/card-tags';
import { AlertIcon, LockIcon } from '../../../components/icons';
import type { DecryptedNote, NoteItem } from '../state/notes-store';
import { isLockedNoteError } from '../utils/locked-note';
import { NOTE_PREVIEW_LENGTH } from '../utils/limits';
import { cardDate, cardTags, previewText } from '../utils/note-format';
import { NOTE_MESSAGES } from '../utils/note-rules';

export interface NoteCardProps {
  note: DecryptedNote;
  onOpen: (id: string) => void;
}

/**
 * A note in the grid (spec section 2): title or 'Untitled', a 150-character preview, up to 3
 * tags and '+N more', the updated (or created) date with hour and minute, and 'Encrypted'.
 * The title is the card's button; the whole card is its click target.
 */
export const NoteCard = memo(function NoteCard({ note, onOpen }: NoteCardProps) {
  const { shown, more } = cardTags(note.tags);
  const date = cardDate(note);
  const titleId = `note-${note.id}-title`;
  return (
    <article className="note-card" aria-labelledby={titleId} data-note-id={note.id}>
      <div className="note-card__head">
        <h3 className="note-card__title" id={titleId}>
          <button type="button" className="note-card__open" onClick={() => onOpen(note.id)}>
            {note.title || 'Untitled'}
          </button>
        </h3>
        <span className="note-card__encrypted" title="Encrypted on this device">
          <LockIcon width={13} height={13} />
          Encrypted
        </span>
      </div>
      {note.content ? (
        <p className="note-card__preview">{previewText(note.content, NOTE_PREVIEW_LENGTH)}</p>
      ) : (
        <p className="note-card__preview note-card__preview--empty">No content</p>
      )}
      <CardTags className="note-card__tags" shown={shown} more={more} />
      <footer className="note-card__footer">
        {date ? (
          <time dateTime={note.updatedAt || note.createdAt}>
            {note.updatedAt && note.updatedAt !== note.createdAt ? 'Updated ' : 'Created '}
            {date}
          </time>
        ) : null}
      </footer>
    </article>
  );
});

export interface FailedNoteCardProps {
  item: Extract<NoteItem, { kind: 'failed' }>;
  /** The account has a vault key from before an access reset (useNoteTotals' `lockedPossible`). */
  lockedPossible: boolean;
  onDelete: (id: string) => void;
}

/**
 * A note sealed under a vault key from before an access reset: locked rather than broken. Only
 * an account that has such a key can have one; otherwise a key that does not open was changed or
 * swapped on the server, and the note failed like any other.
 */
export function isLockedNote(item: Extract<NoteItem, { kind: 'failed' }>, lockedPossible: boolean): boolean {
  return lockedPossible && isLockedNoteError(item.error);
}

/** Why a note that is not locked is not shown. */
function failureText(item: Extract<NoteItem, { kind: 'failed' }>): string {
  if (item.rolledBack) {
    return 'The server sent an older version of this note than this page already showed, so it is not shown. The note may have been rolled back on the server.';
  }
  return 'This note could not be decrypted with your vault key. It may be damaged, or it was changed or sealed under another key.';
}

/** A note that could not be decrypted (or was refused): said plainly; it can still be moved to the trash. */
export const FailedNoteCard = memo(function FailedNoteCard({
  item,
  lockedPossible,
  onDelete,
}: FailedNoteCardProps) {
  const date = cardDate(item.sealed);
  const titleId = `note-${item.id}-title`;
  const locked = isLockedNote(item, lockedPossible);
  return (
    <article
      className="note-card note-card--failed"
      aria-labelledby={titleId}
      data-note-id={item.id}
      data-locked={locked || undefined}
    >
      <div className="note-card__head">
        <h3 className="note-card__title" id={titleId}>
          {locked ? (
            <>
              <LockIcon width={16} height={16} /> Locked note
            </>
          ) : (
            <>
              <AlertIcon width={16} height={16} />{' '}
              {item.rolledBack ? NOTE_MESSAGES.olderVersion : NOTE_MESSAGES.decryptFailed}
            </>
          )}
        </h3>
      </div>
      <p className="note-card__preview">
        {locked
          ? 'This note is sealed with your vault key from before your account reset. Enter your old password to unlock it.'
          : failureText(item)}
      </p>
      <footer className="note-card__footer">
        {date ? <time dateTime={item.sealed.updatedAt}>{date}</time> : <span />}
        <button type="button" className="link-btn note-card__action" onClick={() => onDelete(item.id)}>
          Move to trash
        </button>
      </footer>
    </article>
  );
});
