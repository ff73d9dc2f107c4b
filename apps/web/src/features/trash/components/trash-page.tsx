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
import { emptyFilesTrash } from '../../files/api/empty-files-trash';
import { filesChanged } from '../../files/api/invalidate';
import { purgeFile } from '../../files/api/purge-file';
import { restoreFile } from '../../files/api/restore-file';
import { existingFilesStore } from '../../files/state/files-registry';
import type { FileView } from '../../files/types';
import { FILE_MESSAGES } from '../../files/utils/file-rules';
import { notesChanged } from '../../notes/api/invalidate';
import { ConfirmDialog } from '../../notes/components/confirm-dialog';
import { existingNotesStore } from '../../notes/state/notes-registry';
import { deleteNotePermanently } from '../api/delete-note-permanently';
import { emptyTrash } from '../api/empty-trash';
import { useDeletedFiles } from '../api/get-deleted-files';
import { useDeletedNotes, type TrashNote } from '../api/get-deleted-notes';
import { restoreNote } from '../api/restore-note';
import { TrashFileCard } from './trash-file-card';
import { TrashNoteCard } from './trash-note-card';
import '../../notes/components/notes.css';
import './trash.css';

type Kind = 'note' | 'file';

/** Spec section 5 and 8 texts for the trash. */
export const TRASH_MESSAGES = {
  loadFailed: 'Failed to load deleted items',
  restoreFailed: (kind: Kind) => `Failed to restore ${kind}`,
  deleteFailed: (kind: Kind) => `Failed to permanently delete ${kind}`,
  emptyFailed: 'Failed to empty trash',
  confirmPermanent: (kind: Kind) =>
    `Are you sure? This will permanently delete the ${kind} and cannot be undone.`,
  confirmEmpty: (n: number) =>
    `Are you sure? This will permanently delete all ${n} ${n === 1 ? 'item' : 'items'} in trash and cannot be undone.`,
} as const;

type Pending =
  | null
  | { kind: 'delete-note'; note: TrashNote }
  | { kind: 'delete-file'; file: FileView }
  | { kind: 'empty' };

/**
 * /trash (spec section 2): 'Trash (count)' over notes and files, Empty Trash (both), the
 * Deleted Notes and Deleted Files sections with Restore and permanent delete (confirmed where
 * they destroy), and 'Trash is empty'.
 */
export function TrashPage() {
  useDocumentTitle('Trash');
  const api = useApiClient();
  const cache = useQueryCache();
  const session = useSessionStore();
  const deletedNotes = useDeletedNotes();
  const deletedFiles = useDeletedFiles();
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [actionError, setActionError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  const notes = (deletedNotes.data ?? []).filter((n) => !gone.has(n.id));
  const files = (deletedFiles.data ?? []).filter((f) => !gone.has(f.dto.id));
  const count = notes.length + files.length;
  const loadingFirst = (q: { data: unknown; status: string }) =>
    q.data === undefined && (q.status === 'loading' || q.status === 'idle');
  const firstLoad = loadingFirst(deletedNotes) || loadingFirst(deletedFiles);
  const failedQueries = [deletedNotes, deletedFiles].filter((q) => q.status === 'error');
  const nothingLoaded = deletedNotes.data === undefined && deletedFiles.data === undefined;

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

  const onRestoreNote = async (note: TrashNote) => {
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
      setActionError(detail(TRASH_MESSAGES.restoreFailed('note'), error));
    } finally {
      mark(note.id, false);
    }
  };

  const onRestoreFile = async (file: FileView) => {
    setActionError(null);
    setStatus(null);
    mark(file.dto.id, true);
    try {
      const restored = await restoreFile(api, file.dto.id);
      hide([file.dto.id]);
      const name = file.status === 'ready' ? file.name : FILE_MESSAGES.encryptedFile;
      setStatus(`Restored "${name}" to your File Vault.`);
      filesChanged(cache);
      await existingFilesStore(session)?.insert(restored);
    } catch (error) {
      setActionError(detail(TRASH_MESSAGES.restoreFailed('file'), error));
    } finally {
      mark(file.dto.id, false);
    }
  };

  /**
   * Both trash endpoints (notes and files), each only when the trash shows items of its kind: the
   * confirmation named a number of items, and a list that did not load is not emptied unseen.
   * Whatever one of them removed leaves the page even when the other fails.
   */
  const empty = async (): Promise<number> => {
    const [n, f] = await Promise.allSettled([
      notes.length > 0 ? emptyTrash(api) : Promise.resolve(0),
      files.length > 0 ? emptyFilesTrash(api) : Promise.resolve(0),
    ]);
    let removed = 0;
    if (n.status === 'fulfilled') {
      hide(notes.map((x) => x.id));
      removed += n.value;
      notesChanged(cache);
    }
    if (f.status === 'fulfilled') {
      hide(files.map((x) => x.dto.id));
      removed += f.value ?? files.length;
      filesChanged(cache);
    }
    if (n.status === 'rejected') throw n.reason;
    if (f.status === 'rejected') throw f.reason;
    return removed;
  };

  const onConfirm = async () => {
    if (!pending) return;
    setConfirmBusy(true);
    setConfirmError(null);
    setActionError(null);
    setStatus(null);
    try {
      if (pending.kind === 'delete-note') {
        await ignore404(deleteNotePermanently(api, pending.note.id));
        hide([pending.note.id]);
        setStatus('The note was permanently deleted.');
        notesChanged(cache);
      } else if (pending.kind === 'delete-file') {
        await ignore404(purgeFile(api, pending.file.dto.id));
        hide([pending.file.dto.id]);
        setStatus('The file was permanently deleted.');
        filesChanged(cache);
      } else {
        const removed = await empty();
        setStatus(`Trash emptied: ${removed} ${removed === 1 ? 'item' : 'items'} permanently deleted.`);
      }
      setPending(null);
    } catch (error) {
      const message =
        pending.kind === 'delete-note'
          ? TRASH_MESSAGES.deleteFailed('note')
          : pending.kind === 'delete-file'
            ? TRASH_MESSAGES.deleteFailed('file')
            : TRASH_MESSAGES.emptyFailed;
      setConfirmError(detail(message, error));
    } finally {
      setConfirmBusy(false);
    }
  };

  const retry = () => {
    for (const q of failedQueries) void q.refetch();
  };

  return (
    <div className="page trash-page">
      <PageHeader
        title={`Trash (${count})`}
        description="Deleted notes and files wait here until you restore them or delete them for good."
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

      {failedQueries.length > 0 ? (
        <Banner
          tone="danger"
          title={TRASH_MESSAGES.loadFailed}
          action={
            <Button variant="secondary" size="sm" onClick={retry}>
              Retry
            </Button>
          }
        >
          {messageOf(failedQueries[0]!.error, '') || null}
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
      ) : nothingLoaded && failedQueries.length > 0 ? null : count === 0 && failedQueries.length === 0 ? (
        <section className="panel">
          <EmptyState icon={<TrashIcon width={32} height={32} />} title="Trash is empty">
            <p>Notes and files you delete wait here until you restore them or delete them for good.</p>
          </EmptyState>
        </section>
      ) : (
        <div className="trash-page__sections">
          {notes.length > 0 ? (
            <section className="trash-section" aria-labelledby="deleted-notes-heading">
              <h2 id="deleted-notes-heading" className="trash-section__title">
                Deleted Notes <span className="trash-section__count">({notes.length})</span>
              </h2>
              <div className="note-grid-container">
                <ul className="note-grid trash-grid">
                  {notes.map((note) => (
                    <li key={note.id}>
                      <TrashNoteCard
                        note={note}
                        busy={busy.has(note.id)}
                        onRestore={() => void onRestoreNote(note)}
                        onDelete={() => {
                          setConfirmError(null);
                          setPending({ kind: 'delete-note', note });
                        }}
                      />
                    </li>
                  ))}
                </ul>
              </div>
            </section>
          ) : null}
          {files.length > 0 ? (
            <section className="trash-section" aria-labelledby="deleted-files-heading">
              <h2 id="deleted-files-heading" className="trash-section__title">
                Deleted Files <span className="trash-section__count">({files.length})</span>
              </h2>
              <div className="note-grid-container">
                <ul className="note-grid trash-grid">
                  {files.map((file) => (
                    <li key={file.dto.id}>
                      <TrashFileCard
                        file={file}
                        busy={busy.has(file.dto.id)}
                        onRestore={() => void onRestoreFile(file)}
                        onDelete={() => {
                          setConfirmError(null);
                          setPending({ kind: 'delete-file', file });
                        }}
                      />
                    </li>
                  ))}
                </ul>
              </div>
            </section>
          ) : null}
        </div>
      )}

      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'empty' ? 'Empty trash' : 'Delete permanently'}
        message={
          pending?.kind === 'empty'
            ? TRASH_MESSAGES.confirmEmpty(count)
            : TRASH_MESSAGES.confirmPermanent(pending?.kind === 'delete-file' ? 'file' : 'note')
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

/** Already gone (another tab): the goal is reached. */
async function ignore404(call: Promise<void>): Promise<void> {
  try {
    await call;
  } catch (error) {
    if (!isApiError(error, 404)) throw error;
  }
}

function detail(message: string, error: unknown): string {
  const reason = messageOf(error, '');
  return reason ? `${message}: ${reason}` : message;
}
