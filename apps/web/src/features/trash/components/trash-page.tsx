import { useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { TrashIcon } from '../../../components/icons';
import { PageHeader } from '../../../components/page-header';
import { Spinner } from '../../../components/spinner';
import { useApiClient } from '../../../lib/api-context';
import { isApiError, messageOf } from '../../../lib/api-client';
import { useQueryCache } from '../../../lib/query';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSessionStore } from '../../auth/state/session-context';
import { notesChanged } from '../../notes/api/invalidate';
import { ConfirmDialog } from '../../notes/components/confirm-dialog';
import { existingNotesStore } from '../../notes/state/notes-registry';
import { deleteNotePermanently } from '../api/delete-note-permanently';
import { emptyTrash } from '../api/empty-trash';
import { useDeletedNotes, type TrashNote } from '../api/get-deleted-notes';
import { restoreNote } from '../api/restore-note';
import { TrashNoteCard } from './trash-note-card';
import '../../notes/components/notes.css';
import './trash.css';

/** Spec section 5 and 8 texts for the trash. */
export const TRASH_MESSAGES = {
  loadFailed: 'Failed to load deleted items',
  restoreFailed: 'Failed to restore note',
  deleteFailed: 'Failed to permanently delete note',
  emptyFailed: 'Failed to empty trash',
  confirmPermanent: 'Are you sure? This will permanently delete the note and cannot be undone.',
  confirmEmpty: (n: number) =>
    `Are you sure? This will permanently delete all ${n} ${n === 1 ? 'item' : 'items'} in trash and cannot be undone.`,
} as const;

type Pending = null | { kind: 'delete'; note: TrashNote } | { kind: 'empty' };

/**
 * /trash (spec section 2): 'Trash (count)', Empty Trash, the Deleted Notes section with Restore
 * and permanent delete (both confirmed where they destroy), and 'Trash is empty'. The Deleted
 * Files section arrives with the files milestone; until a files API exists it is not shown.
 */
export function TrashPage() {
  useDocumentTitle('Trash');
  const api = useApiClient();
  const cache = useQueryCache();
  const session = useSessionStore();
  const deleted = useDeletedNotes();
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [actionError, setActionError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  const notes = (deleted.data ?? []).filter((n) => !gone.has(n.id));
  const count = notes.length;
  const firstLoad = deleted.data === undefined && (deleted.status === 'loading' || deleted.status === 'idle');

  const hide = (ids: Iterable<string>) =>
    setGone((prev) => {
      const next = new Set(prev);
      for (const id of ids) next.add(id);
      return next;
    });
  const mark = (id: string, on: boolean) =>
    setBusy((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const onRestore = async (note: TrashNote) => {
    setActionError(null);
    setStatus(null);
    mark(note.id, true);
    try {
      const restored = await restoreNote(api, note.id);
      hide([note.id]);
      setStatus(`Restored "${note.failed ? 'encrypted note' : note.title || 'Untitled'}" to your vault.`);
      await existingNotesStore(session)?.insertSealed(restored);
      notesChanged(cache);
    } catch (error) {
      setActionError(detail(TRASH_MESSAGES.restoreFailed, error));
    } finally {
      mark(note.id, false);
    }
  };

  const onConfirm = async () => {
    if (!pending) return;
    setConfirmBusy(true);
    setConfirmError(null);
    setActionError(null);
    setStatus(null);
    try {
      if (pending.kind === 'delete') {
        try {
          await deleteNotePermanently(api, pending.note.id);
        } catch (error) {
          // Already gone (another tab): the goal is reached.
          if (!isApiError(error, 404)) throw error;
        }
        hide([pending.note.id]);
        setStatus('The note was permanently deleted.');
      } else {
        const removed = await emptyTrash(api);
        hide(notes.map((n) => n.id));
        setStatus(`Trash emptied: ${removed} ${removed === 1 ? 'item' : 'items'} permanently deleted.`);
      }
      setPending(null);
      notesChanged(cache);
    } catch (error) {
      setConfirmError(
        detail(pending.kind === 'delete' ? TRASH_MESSAGES.deleteFailed : TRASH_MESSAGES.emptyFailed, error),
      );
    } finally {
      setConfirmBusy(false);
    }
  };

  return (
    <div className="page trash-page">
      <PageHeader
        title={`Trash (${count})`}
        description="Deleted notes wait here until you restore them or delete them for good."
        actions={
          <Button
            variant="danger"
            icon={<TrashIcon width={18} height={18} />}
            disabled={count === 0 || firstLoad}
            onClick={() => {
              setConfirmError(null);
              setPending({ kind: 'empty' });
            }}
          >
            Empty Trash
          </Button>
        }
      />

      {deleted.status === 'error' ? (
        <Banner
          tone="danger"
          title={TRASH_MESSAGES.loadFailed}
          action={
            <Button variant="secondary" size="sm" onClick={() => void deleted.refetch()}>
              Retry
            </Button>
          }
        >
          {messageOf(deleted.error, '') || null}
        </Banner>
      ) : null}
      {actionError ? <Banner tone="danger">{actionError}</Banner> : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>

      {firstLoad ? (
        <div className="panel vault-loading" role="status">
          <Spinner size="lg" />
          <p>Loading trash...</p>
        </div>
      ) : deleted.status === 'error' && !deleted.data ? null : count === 0 ? (
        <section className="panel">
          <EmptyState icon={<TrashIcon width={32} height={32} />} title="Trash is empty">
            <p>Notes you delete wait here until you restore them or delete them for good.</p>
          </EmptyState>
        </section>
      ) : (
        <section className="trash-section" aria-labelledby="deleted-notes-heading">
          <h2 id="deleted-notes-heading" className="trash-section__title">
            Deleted Notes <span className="trash-section__count">({count})</span>
          </h2>
          <div className="note-grid-container">
            <ul className="note-grid trash-grid">
              {notes.map((note) => (
                <li key={note.id}>
                  <TrashNoteCard
                    note={note}
                    busy={busy.has(note.id)}
                    onRestore={() => void onRestore(note)}
                    onDelete={() => {
                      setConfirmError(null);
                      setPending({ kind: 'delete', note });
                    }}
                  />
                </li>
              ))}
            </ul>
          </div>
        </section>
      )}

      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'empty' ? 'Empty trash' : 'Delete permanently'}
        message={
          pending?.kind === 'empty' ? TRASH_MESSAGES.confirmEmpty(count) : TRASH_MESSAGES.confirmPermanent
        }
        confirmLabel={pending?.kind === 'empty' ? 'Empty Trash' : 'Delete permanently'}
        busy={confirmBusy}
        error={confirmError}
        onCancel={() => setPending(null)}
        onConfirm={() => void onConfirm()}
      />
    </div>
  );
}

function detail(message: string, error: unknown): string {
  const reason = messageOf(error, '');
  return reason ? `${message}: ${reason}` : message;
}
