import type { AdminUser } from '@vault/contracts';
import { formatDateTime } from '../../../lib/format';
import { ROLE_LABELS } from '../labels/admin-labels';
import { AdminTable } from '../tables/admin-table';

/** The role in words; an admin's is the spec's 'Admin' badge (section 6), a super admin's its own. */
export function RoleText({ user }: { user: AdminUser }) {
  if (user.role === 'user') return <>{ROLE_LABELS.user}</>;
  const className = user.role === 'super_admin' ? 'tag admin-badge admin-badge--super' : 'tag admin-badge';
  return <span className={className}>{ROLE_LABELS[user.role]}</span>;
}

export function LockedText({ user }: { user: AdminUser }) {
  if (!user.accountLocked) return <>No</>;
  return (
    <>
      Locked{user.accountLockedReason ? `: ${user.accountLockedReason}` : ''}
      {user.lockedUntil ? (
        <span className="admin-table__muted"> (until {formatDateTime(user.lockedUntil)})</span>
      ) : null}
    </>
  );
}

/** The user list: a checkbox per row for the bulk actions, the username opens the details. */
export function UsersTable({
  users,
  selected,
  onToggle,
  onToggleAll,
  onOpen,
  selectable,
}: {
  users: AdminUser[];
  selected: ReadonlySet<string>;
  onToggle: (id: string) => void;
  onToggleAll: (all: boolean) => void;
  onOpen: (id: string) => void;
  selectable: boolean;
}) {
  const allSelected = users.length > 0 && users.every((u) => selected.has(u._id));
  return (
    <AdminTable
      label="Users"
      head={
        <>
          {selectable ? (
            <th scope="col">
              <input
                type="checkbox"
                aria-label="Select all users on this page"
                checked={allSelected}
                onChange={(e) => onToggleAll(e.target.checked)}
              />
            </th>
          ) : null}
          <th scope="col">Username</th>
          <th scope="col">E-mail</th>
          <th scope="col">Role</th>
          <th scope="col">2FA</th>
          <th scope="col">Locked</th>
          <th scope="col">Created</th>
          <th scope="col">Last sign-in</th>
          <th scope="col">Failed attempts</th>
        </>
      }
    >
      {users.map((user) => (
        <tr key={user._id}>
          {selectable ? (
            <td>
              <input
                type="checkbox"
                aria-label={`Select ${user.username}`}
                checked={selected.has(user._id)}
                onChange={() => onToggle(user._id)}
              />
            </td>
          ) : null}
          <th scope="row">
            <button type="button" className="btn btn--link btn--sm" onClick={() => onOpen(user._id)}>
              {user.username}
            </button>
          </th>
          <td>{user.email}</td>
          <td className="admin-table__nowrap">
            <RoleText user={user} />
          </td>
          <td>{user.twoFactorEnabled ? 'On' : 'Off'}</td>
          <td>
            <LockedText user={user} />
          </td>
          <td className="admin-table__nowrap">{formatDateTime(user.createdAt)}</td>
          <td className="admin-table__nowrap">
            {user.lastLoginAt ? formatDateTime(user.lastLoginAt) : 'Never'}
          </td>
          <td>{user.failedLoginAttempts}</td>
        </tr>
      ))}
    </AdminTable>
  );
}
