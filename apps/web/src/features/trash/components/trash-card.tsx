import { Button } from '../../../components/button';
import { AlertIcon } from '../../../components/icons';
import type { TrashCardContent } from '../../../lib/trash-section';

export interface TrashCardProps {
  card: TrashCardContent;
  busy: boolean;
  onRestore: () => void;
  onDelete: () => void;
}

/** Spec section 2: an item in the trash, its name (or why not), a preview, the deleted date, Restore and delete. */
export function TrashCard({ card, busy, onRestore, onDelete }: TrashCardProps) {
  const { name, failed, titleId } = card;
  return (
    <article
      className={`note-card trash-card${card.className ? ` ${card.className}` : ''}${failed ? ' note-card--failed' : ''}`}
      aria-labelledby={titleId}
      {...card.attributes}
    >
      <h3 className="note-card__title" id={titleId}>
        {failed ? <AlertIcon width={16} height={16} /> : (card.icon ?? null)}
        <span className="trash-card__title">{name}</span>
      </h3>
      <p className={`note-card__preview${card.previewClassName ? ` ${card.previewClassName}` : ''}`}>
        {card.preview}
      </p>
      <footer className="note-card__footer trash-card__footer">
        {card.deletedOn ? (
          <time dateTime={card.deletedAt ?? undefined}>Deleted {card.deletedOn}</time>
        ) : (
          <span />
        )}
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
