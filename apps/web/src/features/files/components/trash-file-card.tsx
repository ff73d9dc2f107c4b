import { Button } from '../../../components/button';
import { AlertIcon } from '../../../components/icons';
import type { FileView } from '../types';
import { fileKind, formatFileDate, formatSizeKb } from '../utils/file-format';
import { FILE_MESSAGES } from '../utils/file-rules';
import { FileTypeIcon } from './file-icons';

export interface TrashFileCardProps {
  file: FileView;
  busy: boolean;
  onRestore: () => void;
  onDelete: () => void;
}

/** Spec section 2: the original (decrypted) name, the size in KB, the deleted date, Restore and delete. */
export function TrashFileCard({ file, busy, onRestore, onDelete }: TrashFileCardProps) {
  const titleId = `trash-file-${file.dto.id}-title`;
  const failed = file.status !== 'ready';
  const name = failed ? FILE_MESSAGES.encryptedFile : file.name;
  const deletedOn = formatFileDate(file.dto.deletedAt ?? file.dto.uploadedAt);
  return (
    <article
      className={`note-card trash-card trash-file-card${failed ? ' note-card--failed' : ''}`}
      aria-labelledby={titleId}
      data-file-id={file.dto.id}
    >
      <h3 className="note-card__title" id={titleId}>
        {failed ? (
          <AlertIcon width={16} height={16} />
        ) : (
          <span className="trash-file-card__icon">
            <FileTypeIcon kind={fileKind(file.mimeType)} width={18} height={18} />
          </span>
        )}
        <span className="trash-card__title">{name}</span>
      </h3>
      <p className="note-card__preview trash-file-card__size">
        {formatSizeKb(file.dto.size)}
        {failed ? ' · This file name could not be decrypted with your vault key.' : ''}
      </p>
      <footer className="note-card__footer trash-card__footer">
        {deletedOn ? <time dateTime={file.dto.deletedAt ?? undefined}>Deleted {deletedOn}</time> : <span />}
        <span className="trash-card__actions">
          <Button
            variant="secondary"
            size="sm"
            onClick={onRestore}
            loading={busy}
            loadingLabel="Restoring..."
            aria-label={`Restore ${name}`}
          >
            Restore
          </Button>
          <Button
            variant="ghost"
            size="sm"
            className="trash-card__delete"
            onClick={onDelete}
            disabled={busy}
            aria-label={`Delete ${name} permanently`}
          >
            Delete
          </Button>
        </span>
      </footer>
    </article>
  );
}
