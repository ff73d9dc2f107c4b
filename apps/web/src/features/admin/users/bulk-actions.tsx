import type { AdminBulkAction, AdminBulkResult, AdminUser } from '@vault/contracts';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { TextField } from '../../../components/input';
import { useAdminApi, useAdminSession } from '../api/admin-api';
import { actionFailureText } from '../components/admin-load-error';
import { LockFields, lockDefaults, lockReady } from './lock-fields';
import { bulkUsers } from './users-api';

const ACTIONS: Record<AdminBulkAction, { label: string; done: string; fail: string }> = {
  lock: { label: 'Lock', done: 'Locked', fail: 'Failed to lock user account' },
  unlock: { label: 'Unlock', done: 'Unlocked', fail: 'Failed to unlock user account' },
  'end-sessions': { label: 'End sessions', done: 'Sessions ended', fail: 'Failed to end sessions' },
};

/** The bar over the list while accounts are picked: Lock, Unlock, End sessions (each with its dialog). */
export function BulkBar({
  selected,
  onClear,
  onDone,
}: {
  selected: AdminUser[];
  onClear: () => void;
  /** After the action ran: the summary for the live region. */
  onDone: (summary: string) => void;
}) {
  const { can } = useAdminSession();
  const [action, setAction] = useState<AdminBulkAction | null>(null);
  return (
    <div className="admin-bulk" role="group" aria-label="Bulk actions">
      <span>{selected.length} selected</span>
      {can('users:lock') ? (
        <>
          <Button size="sm" variant="danger" onClick={() => setAction('lock')}>
            Lock
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setAction('unlock')}>
            Unlock
          </Button>
        </>
      ) : null}
      {can('sessions:revoke') ? (
        <Button size="sm" variant="secondary" onClick={() => setAction('end-sessions')}>
          End sessions
        </Button>
      ) : null}
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      {action ? (
        <BulkDialog action={action} users={selected} onClose={() => setAction(null)} onDone={onDone} />
      ) : null}
    </div>
  );
}

function BulkDialog({
  action,
  users,
  onClose,
  onDone,
}: {
  action: AdminBulkAction;
  users: AdminUser[];
  onClose: () => void;
  onDone: (summary: string) => void;
}) {
  const api = useAdminApi();
  const text = ACTIONS[action];
  const [lock, setLock] = useState(lockDefaults);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<AdminBulkResult['results'] | null>(null);

  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const ids = users.map((u) => u._id);
      const answer = await bulkUsers(
        api,
        action,
        action === 'lock' ? { ids, reason: lock.reason, duration: Number(lock.duration) } : { ids, reason },
      );
      setResults(answer);
      const ok = answer.filter((r) => r.ok).length;
      onDone(`${text.done}: ${ok} of ${answer.length} accounts`);
    } catch (e) {
      setError(actionFailureText(e, text.fail));
    } finally {
      setBusy(false);
    }
  };

  const nameOf = (id: string) => users.find((u) => u._id === id)?.username ?? id;
  const footer = results ? (
    <Button onClick={onClose}>Close</Button>
  ) : (
    <>
      <Button variant="secondary" onClick={onClose} disabled={busy}>
        Cancel
      </Button>
      <Button
        variant={action === 'lock' ? 'danger' : 'primary'}
        onClick={() => void run()}
        loading={busy}
        disabled={action === 'lock' && !lockReady(lock)}
      >
        {text.label} {users.length} {users.length === 1 ? 'account' : 'accounts'}
      </Button>
    </>
  );

  return (
    <Dialog
      open
      title={`${text.label}: ${users.length} ${users.length === 1 ? 'account' : 'accounts'}`}
      onClose={busy ? undefined : onClose}
      closeOnBackdrop={!busy}
      footer={footer}
    >
      {results ? (
        <ul aria-label="Results" className="admin-stack">
          {results.map((r) => (
            <li key={r.id}>
              {nameOf(r.id)}: {r.ok ? text.done : (r.error ?? text.fail)}
            </li>
          ))}
        </ul>
      ) : (
        <div className="admin-stack">
          <p>{users.map((u) => u.username).join(', ')}</p>
          {action === 'lock' ? (
            <LockFields values={lock} onChange={setLock} />
          ) : (
            <TextField
              label="Reason (optional)"
              value={reason}
              maxLength={500}
              onChange={(e) => setReason(e.target.value)}
            />
          )}
          <ErrorBanner error={error} />
        </div>
      )}
    </Dialog>
  );
}
