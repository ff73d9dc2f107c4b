import { useState } from 'react';
import { Banner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { TrashIcon } from '../../../components/icons';
import { LoadingPanel } from '../../../components/loading-panel';
import { PageHeader } from '../../../components/page-header';
import { RetryBanner } from '../../../components/retry-banner';
import { isApiError, messageOf } from '../../../lib/api-client';
import type { TrashEntry, TrashSection } from '../../../lib/trash-section';
import { useDocumentTitle } from '../../../lib/use-document-title';
import '../../../styles/vault-pages.css';
import { TrashCard } from './trash-card';
import './trash.css';

/** Spec section 5 and 8 texts for the trash; `kind` is the item's noun ('note', 'file'). */
export const TRASH_MESSAGES = {
  loadFailed: 'Failed to load deleted items',
  restoreFailed: (kind: string) => `Failed to restore ${kind}`,
  deleteFailed: (kind: string) => `Failed to permanently delete ${kind}`,
  emptyFailed: 'Failed to empty trash',
  confirmPermanent: (kind: string) =>
    `Are you sure? This will permanently delete the ${kind} and cannot be undone.`,
  confirmEmpty: (n: number) =>
    `Are you sure? This will permanently delete all ${n} ${n === 1 ? 'item' : 'items'} in trash and cannot be undone.`,
} as const;

type Pending = null | { kind: 'delete'; section: TrashSection; entry: TrashEntry } | { kind: 'empty' };

/**
 * /trash (spec section 2): 'Trash (count)' over every section (the app gives the notes' and the
 * files': app/routes/trash.tsx), Empty Trash (all of them), each section ('Deleted Notes', 'Deleted
 * Files') with Restore and permanent delete (confirmed where they destroy), and 'Trash is empty'.
 */
export function TrashPage({ sections }: { sections: readonly TrashSection[] }) {
  useDocumentTitle('Trash');
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [actionError, setActionError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const [confirmBusy, setConfirmBusy] = useState(false);
  const [confirmError, setConfirmError] = useState<string | null>(null);

  const shown = sections.map((section) => ({
    section,
    entries: (section.entries ?? []).filter((e) => !gone.has(e.id)),
  }));
  const count = shown.reduce((n, s) => n + s.entries.length, 0);
  const loadingFirst = (s: TrashSection) =>
    s.entries === undefined && (s.status === 'loading' || s.status === 'idle');
  const firstLoad = sections.some(loadingFirst);
  const failedQueries = sections.filter((s) => s.status === 'error');
  const nothingLoaded = sections.every((s) => s.entries === undefined);

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

  const onRestore = async (section: TrashSection, entry: TrashEntry) => {
    setActionError(null);
    setStatus(null);
    mark(entry.id, true);
    try {
      const restored = await entry.restore();
      hide([entry.id]);
      setStatus(restored.message);
      await restored.after();
    } catch (error) {
      setActionError(detail(TRASH_MESSAGES.restoreFailed(section.kind), error));
    } finally {
      mark(entry.id, false);
    }
  };

  /**
   * Every section's trash endpoint, each only when the trash shows items of its kind: the
   * confirmation named a number of items, and a list that did not load is not emptied unseen.
   * Whatever one of them removed leaves the page even when another fails.
   */
  const empty = async (): Promise<number> => {
    const results = await Promise.allSettled(
      shown.map(({ section, entries }) => (entries.length > 0 ? section.empty() : Promise.resolve(0))),
    );
    let removed = 0;
    results.forEach((result, i) => {
      const { section, entries } = shown[i]!;
      if (result.status !== 'fulfilled') return;
      hide(entries.map((e) => e.id));
      removed += result.value ?? entries.length;
      section.changed();
    });
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    return removed;
  };

  const onConfirm = async () => {
    if (!pending) return;
    setConfirmBusy(true);
    setConfirmError(null);
    setActionError(null);
    setStatus(null);
    try {
      if (pending.kind === 'delete') {
        await ignore404(pending.entry.purge());
        hide([pending.entry.id]);
        setStatus(`The ${pending.section.kind} was permanently deleted.`);
        pending.section.changed();
      } else {
        const removed = await empty();
        setStatus(`Trash emptied: ${removed} ${removed === 1 ? 'item' : 'items'} permanently deleted.`);
      }
      setPending(null);
    } catch (error) {
      const message =
        pending.kind === 'delete'
          ? TRASH_MESSAGES.deleteFailed(pending.section.kind)
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
        <RetryBanner title={TRASH_MESSAGES.loadFailed} onRetry={retry}>
          {messageOf(failedQueries[0]!.error, '') || null}
        </RetryBanner>
      ) : null}
      {actionError ? <Banner tone="danger">{actionError}</Banner> : null}
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>

      {firstLoad ? (
        <LoadingPanel text="Loading trash..." polite={false} />
      ) : nothingLoaded && failedQueries.length > 0 ? null : count === 0 && failedQueries.length === 0 ? (
        <section className="panel">
          <EmptyState icon={<TrashIcon width={32} height={32} />} title="Trash is empty">
            <p>Notes and files you delete wait here until you restore them or delete them for good.</p>
          </EmptyState>
        </section>
      ) : (
        <div className="trash-page__sections">
          {shown.map(({ section, entries }) =>
            entries.length > 0 ? (
              <section key={section.kind} className="trash-section" aria-labelledby={section.headingId}>
                <h2 id={section.headingId} className="trash-section__title">
                  {section.title} <span className="trash-section__count">({entries.length})</span>
                </h2>
                <div className="note-grid-container">
                  <ul className="note-grid trash-grid">
                    {entries.map((entry) => (
                      <li key={entry.id}>
                        <TrashCard
                          card={entry.card}
                          busy={busy.has(entry.id)}
                          onRestore={() => void onRestore(section, entry)}
                          onDelete={() => {
                            setConfirmError(null);
                            setPending({ kind: 'delete', section, entry });
                          }}
                        />
                      </li>
                    ))}
                  </ul>
                </div>
              </section>
            ) : null,
          )}
        </div>
      )}

      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === 'empty' ? 'Empty trash' : 'Delete permanently'}
        message={
          pending?.kind === 'empty'
            ? TRASH_MESSAGES.confirmEmpty(count)
            : TRASH_MESSAGES.confirmPermanent(pending?.kind === 'delete' ? pending.section.kind : 'note')
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
