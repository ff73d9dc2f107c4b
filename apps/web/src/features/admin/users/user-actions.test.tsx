import { ADMIN_LIMITS, ADMIN_MESSAGES, type AdminUser } from '@vault/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { adminWith, renderAdminTab, SUPER_ADMIN, userRow } from '../testing/admin-tab-harness';
import { LOCK_REASON_HINT } from './lock-fields';
import { UsersTab } from './users-tab';

const ALICE = userRow(7, { username: 'alice', twoFactorEnabled: true });
const MANAGER = adminWith('users:read', 'users:lock', 'users:2fa', 'sessions:revoke');

function server(user: AdminUser = ALICE): FakeServer {
  const details = {
    user,
    sessions: [],
    events: [],
    counts: { notes: 0, deletedNotes: 0, files: 0, deletedFiles: 0, bytes: 0 },
  };
  return new FakeServer()
    .on('GET /api/admin/users', () => json(200, { users: [user], total: 1 }))
    .on(`GET /api/admin/users/${user._id}`, () => json(200, details));
}

async function open(srv: FakeServer, name = 'alice', admin = MANAGER) {
  const view = renderAdminTab(<UsersTab />, { server: srv, admin });
  await view.user.click(await screen.findByRole('button', { name }));
  const dialog = await screen.findByRole('dialog', { name: `User: ${name}` });
  return { ...view, dialog };
}

describe('user actions', () => {
  it("offers no 'Remove 2FA' (nor Lock or End sessions) on the admin's own account", async () => {
    const self = userRow(1, { _id: MANAGER.id, username: 'helper', role: 'admin', twoFactorEnabled: true });
    const { dialog } = await open(server(self), 'helper');
    const actions = within(dialog).getByRole('group', { name: 'Account actions' });
    expect(within(actions).queryByRole('button', { name: 'Remove 2FA' })).toBeNull();
    expect(within(actions).queryByRole('button', { name: 'Lock' })).toBeNull();
  });

  it('shows the role change (from → to, permissions added and removed) before saving it', async () => {
    const bob = userRow(8, { username: 'bob', role: 'admin', permissions: ['users:read', 'users:lock'] });
    const srv = server(bob).on(`PUT /api/admin/users/${bob._id}/role`, () => json(200, { user: bob }));
    const { user, dialog } = await open(srv, 'bob', SUPER_ADMIN);
    const form = within(dialog).getByRole('form', { name: 'Role and permissions' });
    await user.click(within(form).getByRole('checkbox', { name: 'Lock and unlock accounts (users:lock)' }));
    await user.click(within(form).getByRole('checkbox', { name: 'See security events (security:read)' }));
    await user.type(within(form).getByRole('textbox', { name: 'Reason' }), 'New duties');
    await user.click(within(form).getByRole('button', { name: 'Save role' }));

    const review = within(dialog).getByRole('form', { name: 'Confirm role change' });
    const fact = (term: string) => within(review).getByText(term).nextElementSibling?.textContent;
    expect(fact('Role')).toBe('Admin');
    expect(fact('Permissions added')).toBe('See security events (security:read)');
    expect(fact('Permissions removed')).toBe('Lock and unlock accounts (users:lock)');
    expect(srv.calls(`PUT /api/admin/users/${bob._id}/role`)).toHaveLength(0);

    // Back keeps what was chosen; a role change reads from → to.
    await user.click(within(review).getByRole('button', { name: 'Back' }));
    const again = within(dialog).getByRole('form', { name: 'Role and permissions' });
    await user.selectOptions(within(again).getByRole('combobox', { name: 'Role' }), 'User');
    await user.click(within(again).getByRole('button', { name: 'Save role' }));
    const second = within(dialog).getByRole('form', { name: 'Confirm role change' });
    expect(within(second).getByText('Admin → User')).toBeTruthy();
    expect(within(second).getByText('Permissions removed').nextElementSibling?.textContent).toBe(
      'See accounts and their details (users:read), Lock and unlock accounts (users:lock)',
    );
    await user.click(within(second).getByRole('button', { name: 'Confirm change' }));
    expect(await within(dialog).findByText('Role of bob saved')).toBeTruthy();
    expect(srv.calls(`PUT /api/admin/users/${bob._id}/role`)[0]!.body).toEqual({
      role: 'user',
      permissions: [],
      reason: 'New duties',
    });
  });

  it('checks the lock duration here (blank is not 0), caps it, and says when the lock would end', async () => {
    const { user, dialog } = await open(server());
    await user.click(within(dialog).getByRole('button', { name: 'Lock' }));
    const form = within(dialog).getByRole('form', { name: 'Lock account' });
    expect(within(form).getByText(LOCK_REASON_HINT)).toBeTruthy();
    const duration = within(form).getByRole('spinbutton', { name: 'Duration (minutes)' }) as HTMLInputElement;
    const submit = within(form).getByRole('button', { name: 'Lock account' }) as HTMLButtonElement;
    expect(duration.max).toBe(String(ADMIN_LIMITS.lockMinutesMax));
    expect(within(form).getByText(/^The lock ends /)).toBeTruthy();
    expect(submit.disabled).toBe(false);

    for (const bad of ['', '0', String(ADMIN_LIMITS.lockMinutesMax + 1)]) {
      await user.clear(duration);
      if (bad) await user.type(duration, bad);
      expect(within(form).getByText(ADMIN_MESSAGES.duration)).toBeTruthy();
      expect(duration.getAttribute('aria-invalid')).toBe('true');
      expect(within(form).queryByText(/^The lock ends /)).toBeNull();
      expect(submit.disabled).toBe(true);
    }
    await user.clear(duration);
    await user.type(duration, String(ADMIN_LIMITS.lockMinutesMax));
    expect(within(form).queryByText(ADMIN_MESSAGES.duration)).toBeNull();
    expect(submit.disabled).toBe(false);
  });

  it('returns focus to the opening button on Cancel, and to the success note after an action', async () => {
    const srv = server().on(`POST /api/admin/users/${ALICE._id}/remove-2fa`, () =>
      json(200, { user: { ...ALICE, twoFactorEnabled: false } }),
    );
    const { user, dialog } = await open(srv);
    await user.click(within(dialog).getByRole('button', { name: 'Remove 2FA' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Remove 2FA'));

    await user.click(within(dialog).getByRole('button', { name: 'Remove 2FA' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Type alice to confirm' }), 'alice');
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Lost phone');
    await user.click(within(dialog).getByRole('button', { name: 'Remove two-step verification' }));
    const note = await within(dialog).findByText('Two-step verification of alice removed');
    await waitFor(() => expect(document.activeElement).toBe(note));
  });
});
