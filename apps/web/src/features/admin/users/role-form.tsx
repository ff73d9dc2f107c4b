import { PERMISSIONS, ROLES, type AdminUser, type Permission, type Role } from '@vault/contracts';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { TextField } from '../../../components/input';
import { useAdminApi } from '../api/admin-api';
import { actionFailureText } from '../components/admin-load-error';
import { permissionLabel, ROLE_LABELS } from '../labels/admin-labels';
import { SelectField } from '../tables/admin-table';
import { setUserRole } from './users-api';

/** What a role grants: a super_admin every permission, an admin its list, a user none. */
const effective = (role: Role, permissions: readonly Permission[]): readonly Permission[] =>
  role === 'super_admin' ? PERMISSIONS : role === 'admin' ? permissions : [];

/** The change a save would make, for the confirm step. */
export function roleChange(user: AdminUser, role: Role, permissions: readonly Permission[]) {
  const before = effective(user.role, user.permissions);
  const after = effective(role, permissions);
  return {
    from: ROLE_LABELS[user.role],
    to: ROLE_LABELS[role],
    added: after.filter((p) => !before.includes(p)),
    removed: before.filter((p) => !after.includes(p)),
  };
}

/**
 * Role & permissions, for a super_admin only (PUT /api/admin/users/:id/role with a reason). Save
 * first shows the change (role from → to, permissions added and removed) and asks once more.
 */
export function RoleForm({ user, onSaved }: { user: AdminUser; onSaved: (message: string) => void }) {
  const api = useAdminApi();
  const [role, setRole] = useState<Role>(user.role);
  const [permissions, setPermissions] = useState<Permission[]>(user.permissions);
  const [reason, setReason] = useState('');
  const [reviewing, setReviewing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const change = roleChange(user, role, permissions);

  const toggle = (p: Permission) =>
    setPermissions((list) => (list.includes(p) ? list.filter((x) => x !== p) : [...list, p]));

  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      // A super_admin has every permission; only an admin's list means anything.
      await setUserRole(api, user._id, {
        role,
        permissions: role === 'admin' ? permissions : [],
        reason: reason.trim(),
      });
      setReason('');
      setReviewing(false);
      onSaved(`Role of ${user.username} saved`);
    } catch (e) {
      setError(actionFailureText(e, 'Failed to change role'));
    } finally {
      setBusy(false);
    }
  };

  if (reviewing) {
    return (
      <form
        className="admin-stack"
        aria-label="Confirm role change"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h3>Confirm role change</h3>
        <dl className="admin-facts">
          <div>
            <dt>Role</dt>
            <dd>{change.from === change.to ? change.to : `${change.from} → ${change.to}`}</dd>
          </div>
          <PermissionList term="Permissions added" list={change.added} />
          <PermissionList term="Permissions removed" list={change.removed} />
          <div>
            <dt>Reason</dt>
            <dd>{reason.trim()}</dd>
          </div>
        </dl>
        <ErrorBanner error={error} />
        <div className="admin-actions">
          <Button variant="secondary" onClick={() => setReviewing(false)} disabled={busy} autoFocus>
            Back
          </Button>
          <Button type="submit" loading={busy}>
            Confirm change
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form
      className="admin-stack"
      aria-label="Role and permissions"
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        setReviewing(true);
      }}
    >
      <h3>Role &amp; permissions</h3>
      <SelectField
        label="Role"
        value={role}
        options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
        onChange={setRole}
      />
      {role === 'admin' ? (
        <fieldset className="admin-checks">
          <legend>Permissions</legend>
          {PERMISSIONS.map((p) => (
            <Checkbox
              key={p}
              label={permissionLabel(p)}
              checked={permissions.includes(p)}
              onChange={() => toggle(p)}
            />
          ))}
        </fieldset>
      ) : null}
      <TextField
        label="Reason"
        value={reason}
        maxLength={500}
        required
        onChange={(e) => setReason(e.target.value)}
      />
      <div className="admin-actions">
        <Button type="submit" disabled={!reason.trim()}>
          Save role
        </Button>
      </div>
    </form>
  );
}

function PermissionList({ term, list }: { term: string; list: readonly Permission[] }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{list.length === 0 ? 'None' : list.map(permissionLabel).join(', ')}</dd>
    </div>
  );
}
