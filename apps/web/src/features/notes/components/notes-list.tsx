import type { RefObject } from 'react';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { LockIcon, NotesIcon } from '../../../components/icons';
import { ProgressNote } from '../../../components/progress-note';
import type { NoteItem } from '../state/notes-store';
import { FailedNoteCard, NoteCard } from './note-card';
import type { NotesPage } from './use-notes-paging';

export interface NotesListProps {
  /** The notes counted in the heading, and the locked ones said apart (useNoteTotals). */
  opened: number;
  /** Notes in the vault (the server's count until the list is loaded), for the decrypting bar. */
  total: number | undefined;
  locked: number;
  /** The account has a vault key from before an access reset: a note whose key fails is locked. */
  lockedPossible: boolean;
  filtersActive: boolean;
  filteredCount: number;
  decryptingCount: number;
  /** Pages of notes are still arriving; `anyLoaded`: some have. */
  stillLoading: boolean;
  anyLoaded: boolean;
  paging: NotesPage;
  /** The grid (Load More moves the focus into it). */
  gridRef: RefObject<HTMLDivElement | null>;
  onOpen: (id: string) => void;
  onDeleteFailed: (id: string) => void;
  onClearFilters: () => void;
  onCreate: () => void;
}

/**
 * 'Notes (count)' with the locked, matching and decrypting counts, the card grid (or the empty
 * state), and Load More Notes with 'Showing n of m'.
 */
export function NotesList({
  opened,
  total,
  locked,
  lockedPossible,
  filtersActive,
  filteredCount,
  decryptingCount,
  stillLoading,
  anyLoaded,
  paging,
  gridRef,
  onOpen,
  onDeleteFailed,
  onClearFilters,
  onCreate,
}: NotesListProps) {
  const { page } = paging;
  return (
    <section className="vault-notes" aria-labelledby="notes-heading">
      <div className="vault-notes__header">
        <h2 id="notes-heading" className="vault-notes__title">
          Notes ({opened})
        </h2>
        <p className="vault-notes__status" aria-live="polite">
          {locked > 0 ? (
            <span className="vault-notes__locked">
              <LockIcon width={14} height={14} /> {locked} locked
            </span>
          ) : null}
          {locked > 0 && (filtersActive || decryptingCount > 0) ? ' · ' : null}
          {filtersActive ? `${filteredCount} matching` : null}
          {filtersActive && decryptingCount > 0 ? ' · ' : null}
          {decryptingCount > 0 || (stillLoading && anyLoaded) ? (
            <ProgressNote done={opened} total={total} label="Notes decrypted">
              Decrypting{decryptingCount > 0 ? ` ${decryptingCount}` : ''} more...
            </ProgressNote>
          ) : null}
        </p>
      </div>

      {page.length === 0 ? (
        <div className="panel">
          <EmptyState
            icon={<NotesIcon width={32} height={32} />}
            title="No notes found"
            action={
              filtersActive ? (
                <Button variant="secondary" onClick={onClearFilters}>
                  Clear filters
                </Button>
              ) : (
                <Button onClick={onCreate}>Create Note</Button>
              )
            }
          >
            <p>
              {filtersActive
                ? stillLoading
                  ? 'No loaded note matches your search or tags yet; the rest of your vault is still being decrypted.'
                  : 'Try a different search or fewer tags.'
                : 'Create your first note. It is encrypted on this device before it is saved.'}
            </p>
          </EmptyState>
        </div>
      ) : (
        <div className="note-grid-container">
          <div ref={gridRef} className="note-grid">
            {page.map((item: NoteItem) =>
              item.kind === 'decrypted' ? (
                <NoteCard key={item.id} note={item.note} onOpen={onOpen} />
              ) : item.kind === 'failed' ? (
                <FailedNoteCard
                  key={item.id}
                  item={item}
                  lockedPossible={lockedPossible}
                  onDelete={onDeleteFailed}
                />
              ) : null,
            )}
          </div>
        </div>
      )}

      {paging.showLoadMore ? (
        <div className="vault-notes__more">
          <Button
            variant="secondary"
            onClick={paging.loadMore}
            loading={paging.loadingMore}
            loadingLabel="Loading more notes..."
          >
            Load More Notes
          </Button>
          <p className="vault-notes__count">
            Showing {page.length} of {paging.outOf}
          </p>
        </div>
      ) : null}
    </section>
  );
}
