import type { AdminUserDetails } from '@vault/contracts';
import type { ReactNode } from 'react';
import { Button } from '../../../components/button';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { securityEventLabel } from '../../../lib/security-event-text';
import { describeUserAgent } from '../../../lib/user-agent';
import { useAdminSession } from '../api/admin-api';
import { permissionLabel } from '../labels/admin-labels';
import { RevokeCell, sessionDevice } from '../sessions/session-cells';
import { AdminTable } from '../tables/admin-table';
import type { UserAction } from './user-action-pane';
import { LockedText, RoleText } from './users-table';

/** The details themselves: the account, what it stores (counts and sizes only), sessions, events, actions. */
export function UserDetailsView({
  details: { user, counts, sessions, events },
  onAction,
  onViewEvents,
}: {
  details: AdminUserDetails;
  onAction: (action: UserAction) => void;
  onViewEvents?: () => void;
}) {
  const { admin, can } = useAdminSession();
  const self = admin.id === user._id;
  const canRevoke = can('sessions:revoke');
  return (
    <div className="admin-stack">
      <dl className="admin-facts">
        <Fact term="Username">{user.username}</Fact>
        <Fact term="E-mail">{user.email}</Fact>
        <Fact term="Role">
          <RoleText user={user} />
        </Fact>
        {user.role === 'admin' ? (
          <Fact term="Permissions">{user.permissions.map(permissionLabel).join(', ') || 'None'}</Fact>
        ) : null}
        <Fact term="Two-step verification">{user.twoFactorEnabled ? 'On' : 'Off'}</Fact>
        <Fact term="Locked">
          <LockedText user={user} />
        </Fact>
        <Fact term="Created">{formatDateTime(user.createdAt)}</Fact>
        <Fact term="Last sign-in">{user.lastLoginAt ? formatDateTime(user.lastLoginAt) : 'Never'}</Fact>
        <Fact term="Failed attempts">{user.failedLoginAttempts}</Fact>
        <Fact term="Notes">
          {counts.notes} ({counts.deletedNotes} in trash)
        </Fact>
        <Fact term="Files">
          {counts.files} ({counts.deletedFiles} in trash)
        </Fact>
        <Fact term="Stored">{formatBytes(counts.bytes)}</Fact>
      </dl>

      <div className="admin-actions" role="group" aria-label="Account actions">
        {can('users:lock') && !self ? (
          user.accountLocked ? (
            <Button size="sm" onClick={() => onAction({ kind: 'unlock' })}>
              Unlock
            </Button>
          ) : (
            <Button size="sm" variant="danger" onClick={() => onAction({ kind: 'lock' })}>
              Lock
            </Button>
          )
        ) : null}
        {can('users:2fa') && user.twoFactorEnabled && !self ? (
          <Button size="sm" variant="danger" onClick={() => onAction({ kind: 'remove-2fa' })}>
            Remove 2FA
          </Button>
        ) : null}
        {canRevoke && sessions.length > 0 && !self ? (
          <Button size="sm" variant="secondary" onClick={() => onAction({ kind: 'end-sessions' })}>
            End all sessions
          </Button>
        ) : null}
        {onViewEvents ? (
          <Button size="sm" variant="secondary" onClick={onViewEvents}>
            View events
          </Button>
        ) : null}
      </div>

      <h3>Sessions ({sessions.length})</h3>
      {sessions.length === 0 ? (
        <p className="admin-table__muted">No active sessions.</p>
      ) : (
        <AdminTable
          label={`Sessions of ${user.username}`}
          head={
            <>
              <th scope="col">Device</th>
              <th scope="col">IP</th>
              <th scope="col">Last seen</th>
              <th scope="col">Expires</th>
              {canRevoke ? <th scope="col">Actions</th> : null}
            </>
          }
        >
          {sessions.map((s) => (
            <tr key={s.sessionId}>
              <td title={s.userAgent}>{describeUserAgent(s.userAgent)}</td>
              <td>{s.ipAddress || 'Unknown'}</td>
              <td className="admin-table__nowrap">{formatDateTime(s.lastSeenAt)}</td>
              <td className="admin-table__nowrap">{formatDateTime(s.expiresAt)}</td>
              {canRevoke ? (
                <RevokeCell
                  label={`Revoke session ${sessionDevice(s)}`}
                  onRevoke={() => onAction({ kind: 'revoke', session: s })}
                />
              ) : null}
            </tr>
          ))}
        </AdminTable>
      )}

      <h3>Recent events</h3>
      {events.length === 0 ? (
        <p className="admin-table__muted">No events.</p>
      ) : (
        <ul className="admin-stack" aria-label={`Recent events of ${user.username}`}>
          {events.map((e) => (
            <li key={e.id}>
              <time dateTime={e.event.timestamp}>{formatDateTime(e.event.timestamp)}</time>{' '}
              <strong>{securityEventLabel(e.event.eventType)}</strong>
              {e.event.ipAddress ? <span className="admin-table__muted"> · {e.event.ipAddress}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}
