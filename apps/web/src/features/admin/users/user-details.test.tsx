import type { AdminUser } from '@vault/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { adminWith, renderAdminTab, SUPER_ADMIN, sessionRow, userRow } from '../testing/admin-tab-harness';
import { UsersTab } from './users-tab';

const ALICE = userRow(7, { username: 'alice', email: 'alice@example.org', twoFactorEnabled: true });
const base = `/api/admin/users/${ALICE._id}`;

const details = (user: AdminUser) => ({
  user,
  sessions: [sessionRow(1, user)],
  events: [
    {
      id: 'e1',
      userId: user._id,
      email: user.email,
      username: user.username,
      event: {
        eventType: 'admin_account_unlocked',
        ipAddress: '198.51.100.4',
        userAgent: 'curl/8',
        timestamp: '2026-11-21T08:00:00.000Z',
        details: {},
      },
    },
  ],
  counts: { notes: 12, deletedNotes: 2, files: 3, deletedFiles: 1, bytes: 1536 },
});

function detailsServer(user: AdminUser = ALICE): FakeServer {
  return new FakeServer()
    .on('GET /api/admin/users', () => json(200, { users: [user], total: 1 }))
    .on(`GET ${base}`, () => json(200, details(user)));
}

async function openAlice(
  server: FakeServer,
  admin = adminWith('users:read', 'users:lock', 'users:2fa', 'sessions:revoke'),
) {
  const view = renderAdminTab(<UsersTab />, { server, admin });
  await view.user.click(await screen.findByRole('button', { name: 'alice' }));
  const dialog = await screen.findByRole('dialog', { name: 'User: alice' });
  return { ...view, dialog };
}

describe('user details', () => {
  it('shows counts and sizes only, the sessions and the recent events as text', async () => {
    const { dialog } = await openAlice(detailsServer());
    expect(within(dialog).getByText('12 (2 in trash)')).toBeTruthy();
    expect(within(dialog).getByText('1.5 KB')).toBeTruthy();
    expect(within(dialog).getByRole('table', { name: 'Sessions of alice' })).toBeTruthy();
    expect(within(dialog).getByText('Unlocked by an administrator')).toBeTruthy();
    // Not a super_admin: no role form.
    expect(within(dialog).queryByRole('form', { name: 'Role and permissions' })).toBeNull();
  });

  it('locks with the spec defaults (Manual admin lock, 60 minutes) after asking', async () => {
    const server = detailsServer().on(`POST ${base}/lock`, () =>
      json(200, { user: { ...ALICE, accountLocked: true } }),
    );
    const { user, dialog } = await openAlice(server);
    await user.click(within(dialog).getByRole('button', { name: 'Lock' }));
    const form = within(dialog).getByRole('form', { name: 'Lock account' });
    expect((within(form).getByRole('textbox', { name: 'Reason' }) as HTMLInputElement).value).toBe(
      'Manual admin lock',
    );
    expect(
      (within(form).getByRole('spinbutton', { name: 'Duration (minutes)' }) as HTMLInputElement).value,
    ).toBe('60');
    await user.click(within(form).getByRole('button', { name: 'Lock account' }));
    expect(await within(dialog).findByText('alice is locked')).toBeTruthy();
    expect(server.calls(`POST ${base}/lock`)[0]!.body).toEqual({ reason: 'Manual admin lock', duration: 60 });
    // The details stay open after the action, and can be closed again.
    const close = within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!;
    expect((close as HTMLButtonElement).disabled).toBe(false);
    await user.click(close);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("says 'Failed to lock user account' with the server's reason, and keeps the form", async () => {
    const server = detailsServer().on(`POST ${base}/lock`, () =>
      json(403, { error: 'You cannot lock yourself', code: 'PERMISSION_DENIED' }),
    );
    const { user, dialog } = await openAlice(server);
    await user.click(within(dialog).getByRole('button', { name: 'Lock' }));
    await user.click(within(dialog).getByRole('button', { name: 'Lock account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to lock user account: You cannot lock yourself',
    );
  });

  it('removes 2FA only once the username is typed and a reason given', async () => {
    const server = detailsServer().on(`POST ${base}/remove-2fa`, () =>
      json(200, { user: { ...ALICE, twoFactorEnabled: false } }),
    );
    const { user, dialog } = await openAlice(server);
    await user.click(within(dialog).getByRole('button', { name: 'Remove 2FA' }));
    const form = within(dialog).getByRole('form', { name: 'Remove two-step verification' });
    const submit = within(form).getByRole('button', {
      name: 'Remove two-step verification',
    }) as HTMLButtonElement;
    await user.type(within(form).getByRole('textbox', { name: 'Type alice to confirm' }), 'alic');
    await user.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Lost phone');
    expect(submit.disabled).toBe(true);
    await user.type(within(form).getByRole('textbox', { name: 'Type alice to confirm' }), 'e');
    expect(submit.disabled).toBe(false);
    await user.click(submit);
    expect(await within(dialog).findByText('Two-step verification of alice removed')).toBeTruthy();
    expect(server.calls(`POST ${base}/remove-2fa`)[0]!.body).toEqual({
      confirm: 'alice',
      reason: 'Lost phone',
    });
  });

  it('revokes one session after asking, and says so when it fails', async () => {
    const session = sessionRow(1, ALICE);
    let ok = false;
    const server = detailsServer().on(`DELETE /api/admin/sessions/${session.sessionId}`, () =>
      ok ? json(204) : json(500, { error: 'down' }),
    );
    const { user, dialog } = await openAlice(server);
    await user.click(within(dialog).getByRole('button', { name: /^Revoke session/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Revoke session' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Failed to revoke session: down');
    ok = true;
    await user.click(within(dialog).getByRole('button', { name: 'Revoke session' }));
    expect(await within(dialog).findByText('Session revoked')).toBeTruthy();
  });

  it("says 'Failed to load user details' and loads again on Retry", async () => {
    let fail = true;
    const server = detailsServer().on(`GET ${base}`, () =>
      fail ? json(404, { error: 'User not found' }) : json(200, details(ALICE)),
    );
    const { user } = renderAdminTab(<UsersTab />, { server });
    await user.click(await screen.findByRole('button', { name: 'alice' }));
    expect(await screen.findByText('Failed to load user details')).toBeTruthy();
    expect(screen.getByText('User not found')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('dialog', { name: 'User: alice' })).toBeTruthy();
  });

  it('lets a super_admin set role and permissions with a reason', async () => {
    const server = detailsServer().on(`PUT ${base}/role`, () =>
      json(200, { user: { ...ALICE, role: 'admin' } }),
    );
    const { user, dialog } = await openAlice(server, SUPER_ADMIN);
    const form = within(dialog).getByRole('form', { name: 'Role and permissions' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'Admin');
    await user.click(
      within(form).getByRole('checkbox', { name: 'See accounts and their details (users:read)' }),
    );
    await user.type(within(form).getByRole('textbox', { name: 'Reason' }), 'Support duty');
    await user.click(within(form).getByRole('button', { name: 'Save role' }));
    await user.click(within(dialog).getByRole('button', { name: 'Confirm change' }));
    expect(await within(dialog).findByText('Role of alice saved')).toBeTruthy();
    expect(server.calls(`PUT ${base}/role`)[0]!.body).toEqual({
      role: 'admin',
      permissions: ['users:read'],
      reason: 'Support duty',
    });
  });

  it("opens Security Events on this account from 'View events'", async () => {
    const { user, dialog, router } = await openAlice(
      detailsServer(),
      adminWith('users:read', 'security:read'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'View events' }));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('tab')).toBe('events');
    expect(params.get('user')).toBe(ALICE._id);
  });
});
