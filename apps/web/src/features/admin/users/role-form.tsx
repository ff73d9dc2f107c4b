import { PERMISSIONS, ROLES, type AdminUser, type Permission, type Role } from '@vault/contracts';
import { useState } from 'react';
import { ErrorBanner } from '../../../components/banner';
import { Button } from '../../../components/button';
import { Checkbox } from '../../../components/checkbox';
import { TextField } from '../../../components/input';
import { messageOf } from '../../../lib/api-client';
import { useAdminApi } from '../api/admin-api';
import { SelectField } from '../tables/admin-table';
import { setUserRole } from './users-api';

const ROLE_LABELS: Record<Role, string> = { user: 'User', admin: 'Admin', super_admin: 'Super admin' };

/** Role & permissions, for a super_admin only (PUT /api/admin/users/:id/role with a reason). */
export function RoleForm({ user, onSaved }: { user: AdminUser; onSaved: (message: string) => void }) {
  const api = useAdminApi();
  const [role, setRole] = useState<Role>(user.role);
  const [permissions, setPermissions] = useState<Permission[]>(user.permissions);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

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
      onSaved(`Role of ${user.username} saved`);
    } catch (e) {
      setError(messageOf(e, 'Failed to change role'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="admin-stack"
      aria-label="Role and permissions"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
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
            <Checkbox key={p} label={p} checked={permissions.includes(p)} onChange={() => toggle(p)} />
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
      <ErrorBanner error={error} />
      <div className="admin-actions">
        <Button type="submit" loading={busy} disabled={!reason.trim()}>
          Save role
        </Button>
      </div>
    </form>
  );
}
