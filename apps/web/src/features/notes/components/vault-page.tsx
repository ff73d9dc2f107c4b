import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Banner } from '../../../components/banner';
import { Button, ButtonLink } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { LockIcon, NotesIcon, SettingsIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Spinner } from '../../../components/spinner';
import { useQueryCache } from '../../../lib/query';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { notesChanged } from '../api/invalidate';
import type { DecryptedNote, NoteItem } from '../state/notes-store';
import { useNoteActions } from '../state/use-note-actions';
import { useNoteTotals } from '../state/use-note-totals';
import { useNotesSnapshot, useNotesStore } from '../state/use-notes';
import { collectTags, hasActiveFilters, visibleItems } from '../utils/filter-notes';
import { LOAD_MORE_THRESHOLD } from '../utils/limits';
import { NOTE_MESSAGES } from '../utils/note-rules';
import { FailedNoteCard, NoteCard } from './note-card';
import { NoteDialog } from './note-dialog';
import { TagPanel } from './tag-panel';
import '../../../styles/vault-pages.css';

type DialogState = null | { mode: 'create' } | { mode: 'edit'; id: string };

/**
 * /vault, the Personal Vault (spec section 2): search, New Note, settings, the tag panel, the
 * card grid (1 to 3 columns), 'Notes (count)', the empty state, the error banner with Retry,
 * 'Loading your vault...', and Load More Notes, which really shows the next 50 (and waits for
 * the next page when it is still on its way). `banner` goes under the header (the app gives the
 * notice about items locked since an access reset: app/routes/vault.tsx).
 */
export function VaultPage({ banner }: { banner?: ReactNode }) {
  useDocumentTitle('All Notes');
  const store = useNotesStore();
  const snapshot = useNotesSnapshot(store);
  const actions = useNoteActions(store);
  // The same totals as the sidebar: every note counted, locked ones said apart.
  const totals = useNoteTotals();
  const cache = useQueryCache();
  const [dialog, setDialog] = useState<DialogState>(null);
  const [failedToDelete, setFailedToDelete] = useState<string | null>(null);
  const [failedDeleteState, setFailedDeleteState] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  });
  const [visibleCount, setVisibleCount] = useState(LOAD_MORE_THRESHOLD);
  const [searchInput, setSearchInput] = useState(snapshot.searchQuery);
  const gridRef = useRef<HTMLDivElement>(null);
  const focusFrom = useRef<number | null>(null);

  useEffect(() => {
    void store?.load();
  }, [store]);

  // The search box updates at once; filtering 10,000 notes follows at a lower priority.
  const deferredQuery = useDeferredValue(snapshot.searchQuery);
  const selectedTags = snapshot.selectedTags;
  const filtersActive = hasActiveFilters(deferredQuery, selectedTags);
  const filterKey = `${deferredQuery}\u0000${selectedTags.join('\u0000')}`;
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  if (lastFilterKey !== filterKey) {
    setLastFilterKey(filterKey);
    setVisibleCount(LOAD_MORE_THRESHOLD);
  }

  const decryptedNotes = useMemo(
    () => snapshot.items.flatMap((i) => (i.kind === 'decrypted' ? [i.note] : [])),
    [snapshot.items],
  );
  const tags = useMemo(() => collectTags(decryptedNotes), [decryptedNotes]);
  const shown = useMemo(
    () => visibleItems(snapshot.items, { searchQuery: deferredQuery, selectedTags }),
    [snapshot.items, deferredQuery, selectedTags],
  );
  // The cards shown (without filters, the locked and undecryptable ones too; they match no filter).
  const filteredCount = shown.length;
  const page = shown.slice(0, visibleCount);

  const knownTotal = totals.active;
  const stillLoading = !snapshot.complete;
  const moreInMemory = shown.length > visibleCount;
  const moreOnTheWay =
    stillLoading && !filtersActive && (knownTotal === undefined || knownTotal > visibleCount);
  const showLoadMore = snapshot.status === 'ready' && (moreInMemory || moreOnTheWay);
  const waitingForMore = showLoadMore && !moreInMemory;

  // After Load More, move focus to the first newly shown card (keyboard users keep their place).
  useEffect(() => {
    const from = focusFrom.current;
    if (from === null || page.length <= from) return;
    focusFrom.current = null;
    const cards = gridRef.current?.querySelectorAll<HTMLElement>('.note-card');
    const target = cards?.[from]?.querySelector<HTMLElement>('button');
    target?.focus();
  }, [page.length]);

  const openNote = useCallback((id: string) => setDialog({ mode: 'edit', id }), []);
  const askDeleteFailed = useCallback((id: string) => {
    setFailedDeleteState({ busy: false, error: null });
    setFailedToDelete(id);
  }, []);

  const editing: DecryptedNote | null = useMemo(() => {
    if (dialog?.mode !== 'edit') return null;
    const item = store?.get(dialog.id);
    return item?.kind === 'decrypted' ? item.note : null;
  }, [dialog, store]);

  const onSearch = (value: string) => {
    setSearchInput(value);
    store?.setSearchQuery(value);
  };

  const clearFilters = () => {
    onSearch('');
    store?.clearTags();
  };

  const loadMore = () => {
    focusFrom.current = visibleCount;
    setVisibleCount((n) => n + LOAD_MORE_THRESHOLD);
    void store?.load();
  };

  const decryptingCount = snapshot.pendingCount;

  return (
    <div className="page vault-page">
      <PageHeader
        title="Personal Vault"
        description={
          <>
            <LockIcon width={14} height={14} /> Notes are encrypted on this device before they are saved.
          </>
        }
        actions={
          <>
            <ButtonLink to="/settings" variant="secondary" icon={<SettingsIcon width={18} height={18} />}>
              Settings
            </ButtonLink>
            <Button icon={<PlusGlyph />} onClick={() => setDialog({ mode: 'create' })}>
              New Note
            </Button>
          </>
        }
      />

      {banner}

      <div className="vault-search" role="search">
        <label htmlFor="vault-search-input" className="visually-hidden">
          Search notes
        </label>
        <SearchGlyph />
        <input
          id="vault-search-input"
          type="search"
          className="vault-search__input"
          placeholder="Search titles, content and tags..."
          value={searchInput}
          autoComplete="off"
          onChange={(e) => onSearch(e.target.value)}
        />
      </div>

      {snapshot.error && snapshot.status !== 'loading' ? (
        <Banner
          tone="danger"
          action={
            <Button
              variant="secondary"
              size="sm"
              onClick={() => {
                void store?.retry();
                // The counts may have failed with the list: asked again with it.
                notesChanged(cache, { trash: false });
              }}
            >
              Retry
            </Button>
          }
        >
          {snapshot.error}
          {snapshot.status === 'ready' && snapshot.items.length > 0
            ? ' Notes already loaded are shown below.'
            : null}
        </Banner>
      ) : null}

      {snapshot.status === 'loading' || snapshot.status === 'idle' ? (
        <div className="panel vault-loading" role="status" aria-live="polite">
          <Spinner size="lg" />
          <p>Loading your vault...</p>
        </div>
      ) : snapshot.status === 'error' ? null : (
        <div className="vault-body">
          <TagPanel
            tags={tags}
            selected={selectedTags}
            totalNotes={totals.opened}
            filteredNotes={filteredCount}
            onToggle={(tag) => store?.toggleTag(tag)}
            onClear={() => store?.clearTags()}
          />
          <section className="vault-notes" aria-labelledby="notes-heading">
            <div className="vault-notes__header">
              <h2 id="notes-heading" className="vault-notes__title">
                Notes ({totals.opened})
              </h2>
              <p className="vault-notes__status" aria-live="polite">
                {totals.locked > 0 ? (
                  <span className="vault-notes__locked">
                    <LockIcon width={14} height={14} /> {totals.locked} locked
                  </span>
                ) : null}
                {totals.locked > 0 && (filtersActive || decryptingCount > 0) ? ' · ' : null}
                {filtersActive ? `${filteredCount} matching` : null}
                {filtersActive && decryptingCount > 0 ? ' · ' : null}
                {decryptingCount > 0 || (stillLoading && snapshot.items.length > 0) ? (
                  <span className="vault-notes__progress">
                    <Spinner size="sm" /> Decrypting{decryptingCount > 0 ? ` ${decryptingCount}` : ''} more...
                  </span>
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
                      <Button variant="secondary" onClick={clearFilters}>
                        Clear filters
                      </Button>
                    ) : (
                      <Button onClick={() => setDialog({ mode: 'create' })}>Create Note</Button>
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
                      <NoteCard key={item.id} note={item.note} onOpen={openNote} />
                    ) : item.kind === 'failed' ? (
                      <FailedNoteCard key={item.id} item={item} onDelete={askDeleteFailed} />
                    ) : null,
                  )}
                </div>
              </div>
            )}

            {showLoadMore ? (
              <div className="vault-notes__more">
                <Button
                  variant="secondary"
                  onClick={loadMore}
                  loading={waitingForMore && page.length < visibleCount}
                  loadingLabel="Loading more notes..."
                >
                  Load More Notes
                </Button>
                <p className="vault-notes__count">
                  Showing {page.length} of{' '}
                  {filtersActive ? shown.length : Math.max(shown.length, knownTotal ?? 0)}
                </p>
              </div>
            ) : null}
          </section>
        </div>
      )}

      {dialog && (dialog.mode === 'create' || editing) ? (
        <NoteDialog
          key={dialog.mode === 'edit' ? dialog.id : 'new'}
          note={editing}
          onClose={() => setDialog(null)}
          onCreate={(draft, pending) => actions.create(draft, pending)}
          onUpdate={(note, draft) => {
            const item = store?.get(note.id);
            if (item?.kind !== 'decrypted') return Promise.reject(new Error(NOTE_MESSAGES.saveFailed));
            return actions.update(item, draft);
          }}
          onDelete={(note) => actions.remove(note.id)}
        />
      ) : null}

      <ConfirmDialog
        open={failedToDelete !== null}
        title="Move to trash"
        message={NOTE_MESSAGES.confirmDelete}
        confirmLabel="Move to trash"
        busy={failedDeleteState.busy}
        error={failedDeleteState.error}
        onCancel={() => setFailedToDelete(null)}
        onConfirm={() => {
          const id = failedToDelete;
          if (!id) return;
          setFailedDeleteState({ busy: true, error: null });
          actions.remove(id).then(
            () => setFailedToDelete(null),
            () => setFailedDeleteState({ busy: false, error: NOTE_MESSAGES.deleteFailed }),
          );
        }}
      />
    </div>
  );
}

function PlusGlyph() {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <path d="M12 5v14M5 12h14" strokeLinecap="round" />
    </svg>
  );
}

function SearchGlyph() {
  return (
    <svg
      className="vault-search__icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <circle cx="11" cy="11" r="6.5" />
      <path d="m16 16 4 4" strokeLinecap="round" />
    </svg>
  );
}
