import { useCallback, useDeferredValue, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Button, ButtonLink } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LockIcon, SettingsIcon } from '../../../components/icons';
import { LoadingPanel } from '../../../components/loading-panel';
import { PageHeader } from '../../../components/page-header';
import { RetryBanner } from '../../../components/retry-banner';
import { SearchField } from '../../../components/search-field';
import { useConfirmAction } from '../../../lib/use-confirm-action';
import { useQueryCache } from '../../../lib/query';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { notesChanged } from '../api/invalidate';
import type { DecryptedNote } from '../state/notes-store';
import { useNoteActions } from '../state/use-note-actions';
import { useNoteTotals } from '../state/use-note-totals';
import { useNotesSnapshot, useNotesStore } from '../state/use-notes';
import { collectTags, hasActiveFilters, visibleItems } from '../utils/filter-notes';
import { NOTE_MESSAGES } from '../utils/note-rules';
import { NoteDialog } from './note-dialog';
import { PlusGlyph, SearchGlyph } from './note-icons';
import { NotesList } from './notes-list';
import { TagPanel } from './tag-panel';
import { useNotesPaging } from './use-notes-paging';
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
  const failedDeletion = useConfirmAction<string>();
  const [searchInput, setSearchInput] = useState(snapshot.searchQuery);

  useEffect(() => {
    void store?.load();
  }, [store]);

  // The search box updates at once; filtering 10,000 notes follows at a lower priority.
  const deferredQuery = useDeferredValue(snapshot.searchQuery);
  const selectedTags = snapshot.selectedTags;
  const filtersActive = hasActiveFilters(deferredQuery, selectedTags);

  const decryptedNotes = useMemo(
    () => snapshot.items.flatMap((i) => (i.kind === 'decrypted' ? [i.note] : [])),
    [snapshot.items],
  );
  const tags = useMemo(() => collectTags(decryptedNotes), [decryptedNotes]);
  const shown = useMemo(
    () => visibleItems(snapshot.items, { searchQuery: deferredQuery, selectedTags }),
    [snapshot.items, deferredQuery, selectedTags],
  );
  const { gridRef, view: paging } = useNotesPaging({
    shown,
    filterKey: `${deferredQuery}\u0000${selectedTags.join('\u0000')}`,
    filtersActive,
    complete: snapshot.complete,
    ready: snapshot.status === 'ready',
    knownTotal: totals.active,
    loadMore: () => void store?.load(),
  });

  const openNote = useCallback((id: string) => setDialog({ mode: 'edit', id }), []);

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

  const retry = () => {
    void store?.retry();
    // The counts may have failed with the list: asked again with it.
    notesChanged(cache, { trash: false });
  };

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

      <SearchField
        id="vault-search-input"
        label="Search notes"
        placeholder="Search titles, content and tags..."
        icon={<SearchGlyph />}
        value={searchInput}
        onChange={onSearch}
      />

      {snapshot.error && snapshot.status !== 'loading' ? (
        <RetryBanner onRetry={retry}>
          {snapshot.error}
          {snapshot.status === 'ready' && snapshot.items.length > 0
            ? ' Notes already loaded are shown below.'
            : null}
        </RetryBanner>
      ) : null}

      {snapshot.status === 'loading' || snapshot.status === 'idle' ? (
        <LoadingPanel text="Loading your vault..." />
      ) : snapshot.status === 'error' ? null : (
        <div className="vault-body">
          <TagPanel
            tags={tags}
            selected={selectedTags}
            totalNotes={totals.opened}
            filteredNotes={shown.length}
            onToggle={(tag) => store?.toggleTag(tag)}
            onClear={() => store?.clearTags()}
          />
          <NotesList
            opened={totals.opened}
            total={totals.active}
            locked={totals.locked}
            lockedPossible={totals.lockedPossible}
            filtersActive={filtersActive}
            filteredCount={shown.length}
            decryptingCount={snapshot.pendingCount}
            stillLoading={!snapshot.complete}
            anyLoaded={snapshot.items.length > 0}
            paging={paging}
            gridRef={gridRef}
            onOpen={openNote}
            onDeleteFailed={failedDeletion.ask}
            onClearFilters={clearFilters}
            onCreate={() => setDialog({ mode: 'create' })}
          />
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
        open={failedDeletion.open}
        title="Move to trash"
        message={NOTE_MESSAGES.confirmDelete}
        confirmLabel="Move to trash"
        busy={failedDeletion.busy}
        error={failedDeletion.error}
        onCancel={failedDeletion.cancel}
        onConfirm={() => void failedDeletion.confirm(actions.remove, () => NOTE_MESSAGES.deleteFailed)}
      />
    </div>
  );
}
