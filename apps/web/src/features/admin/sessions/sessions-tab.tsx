import type { AdminSessionRow } from '@vault/contracts';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { LoadMore } from '../../../components/load-more';
import { Spinner } from '../../../components/spinner';
import { formatDateTime } from '../../../lib/format';
import { useConfirmAction } from '../../../lib/use-confirm-action';
import { useCursorList } from '../../../lib/use-cursor-list';
import { describeUserAgent } from '../../../lib/user-agent';
import { useAdminApi, useAdminSession } from '../api/admin-api';
import { actionFailureText, AdminLoadError } from '../components/admin-load-error';
import { AdminSection } from '../components/admin-section';
import { AdminTable, SuccessNote } from '../tables/admin-table';
import { RevokeCell, sessionDevice } from './session-cells';
import { listAdminSessions, revokeAdminSession } from './sessions-api';

const REVOKE_FAILED = 'Failed to revoke session';

/** Active Sessions across accounts, 'Load more', and Revoke (after a confirmation). */
export function SessionsTab() {
  const api = useAdminApi();
  const { can } = useAdminSession();
  const canRevoke = can('sessions:revoke');
  const [total, setTotal] = useState<number | null>(null);
  const list = useCursorList('sessions', async (cursor) => {
    const page = await listAdminSessions(api, { cursor });
    setTotal(page.total);
    return { items: page.sessions, nextCursor: page.nextCursor };
  });
  const revoke = useConfirmAction<AdminSessionRow>();
  const [success, setSuccess] = useState<string | null>(null);

  const confirmRevoke = () =>
    revoke.confirm(
      async (session) => {
        await revokeAdminSession(api, session.sessionId);
        list.remove((s) => s.sessionId === session.sessionId);
        setTotal((n) => (n === null ? n : Math.max(0, n - 1)));
        setSuccess(`Session of ${session.username} revoked`);
      },
      (e) => actionFailureText(e, REVOKE_FAILED),
    );

  let content;
  if (list.status === 'error') {
    content = <AdminLoadError error={list.error} onRetry={list.reload} />;
  } else if (list.status === 'loading') {
    content = <Spinner label="Loading sessions" />;
  } else if (list.items.length === 0) {
    content = <p className="admin-table__muted">No active sessions.</p>;
  } else {
    content = (
      <AdminTable
        label="Active sessions"
        head={
          <>
            <th scope="col">User</th>
            <th scope="col">IP</th>
            <th scope="col">User agent</th>
            <th scope="col">Created</th>
            <th scope="col">Last seen</th>
            <th scope="col">Expires</th>
            {canRevoke ? <th scope="col">Actions</th> : null}
          </>
        }
      >
        {list.items.map((s) => (
          <tr key={s.sessionId}>
            <td>
              {s.username}
              <br />
              <span className="admin-table__muted">{s.email}</span>
            </td>
            <td>{s.ipAddress || 'Unknown'}</td>
            <td title={s.userAgent}>{describeUserAgent(s.userAgent)}</td>
            <td className="admin-table__nowrap">{formatDateTime(s.createdAt)}</td>
            <td className="admin-table__nowrap">{formatDateTime(s.lastSeenAt)}</td>
            <td className="admin-table__nowrap">{formatDateTime(s.expiresAt)}</td>
            {canRevoke ? (
              <RevokeCell
                label={`Revoke session of ${s.username}: ${sessionDevice(s)}`}
                onRevoke={() => {
                  setSuccess(null);
                  revoke.ask(s);
                }}
              />
            ) : null}
          </tr>
        ))}
      </AdminTable>
    );
  }

  return (
    <AdminSection
      id="admin-sessions"
      title="Active Sessions"
      actions={
        <>
          <p className="admin-muted">
            {total === null ? null : `${total} active ${total === 1 ? 'session' : 'sessions'}`}
          </p>
          <Button variant="secondary" size="sm" onClick={list.reload}>
            Refresh
          </Button>
        </>
      }
    >
      <SuccessNote message={success} />
      {content}
      {list.status === 'ready' ? (
        <LoadMore list={list} failText="Failed to load more sessions" className="admin-pager" />
      ) : null}
      <ConfirmDialog
        open={revoke.open}
        title="Revoke session"
        message={
          revoke.target
            ? `Are you sure? ${revoke.target.username} is signed out on ${sessionDevice(revoke.target)}.`
            : ''
        }
        confirmLabel="Revoke"
        busy={revoke.busy}
        error={revoke.error}
        onConfirm={() => void confirmRevoke()}
        onCancel={revoke.cancel}
      />
    </AdminSection>
  );
}
