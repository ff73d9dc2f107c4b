import type { AdminUser } from '@vault/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { adminWith, queryOf, renderAdminTab, userRow } from '../testing/admin-tab-harness';
import { UsersTab } from './users-tab';

const USERS = Array.from({ length: 25 }, (_, i) => userRow(i + 1));

/** GET /api/admin/users answering pages of USERS (the server's paging is not the point here). */
function usersServer(users: AdminUser[] = USERS): FakeServer {
  return new FakeServer().on('GET /api/admin/users', () =>
    json(200, { users: users.slice(0, 10), total: users.length }),
  );
}

describe('UsersTab', () => {
  it('asks for 10 users a page, pages with Previous/Next, and searches after typing stops', async () => {
    const { user, requested } = renderAdminTab(<UsersTab />, { server: usersServer() });
    expect(await screen.findByText('Page 1 of 3 (25 users)')).toBeTruthy();
    expect(queryOf(requested('GET', '/api/admin/users')[0])).toEqual({ limit: '10', offset: '0' });
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3 (25 users)')).toBeTruthy();
    expect(queryOf(requested('GET', '/api/admin/users').at(-1))).toEqual({ limit: '10', offset: '10' });

    await user.type(screen.getByRole('searchbox', { name: 'Search users by username or e-mail' }), 'ali');
    await waitFor(() =>
      expect(queryOf(requested('GET', '/api/admin/users').at(-1))).toEqual({
        limit: '10',
        offset: '0',
        search: 'ali',
      }),
    );
    // Debounced: no call for the letters typed on the way.
    expect(requested('GET', '/api/admin/users').filter((u) => /search=(a|al)(&|$)/.test(u))).toEqual([]);
    expect(await screen.findByText('Page 1 of 3 (25 users)')).toBeTruthy();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Without 2FA');
    await waitFor(() =>
      expect(queryOf(requested('GET', '/api/admin/users').at(-1))).toEqual({
        limit: '10',
        offset: '0',
        search: 'ali',
        status: 'no-2fa',
      }),
    );
  });

  it('shows the row facts: the Admin badge, 2FA, the lock with reason and end', async () => {
    const rows = [
      userRow(1, { role: 'admin', twoFactorEnabled: true }),
      userRow(2, {
        accountLocked: true,
        accountLockedReason: 'Abuse',
        lockedUntil: '2026-12-01T08:00:00.000Z',
      }),
    ];
    renderAdminTab(<UsersTab />, { server: usersServer(rows) });
    const table = await screen.findByRole('table', { name: 'Users' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first!).getByText('Admin')).toBeTruthy();
    expect(within(first!).getByText('On')).toBeTruthy();
    expect(within(second!).getByText(/Locked: Abuse/)).toBeTruthy();
    expect(within(second!).getByText(/until/)).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Users' }).tabIndex).toBe(0);
  });

  it('runs a bulk lock with the spec defaults and shows the result of each account', async () => {
    const server = usersServer().on('POST /api/admin/users/bulk/lock', (req) => {
      const { ids } = req.body as { ids: string[] };
      return json(200, {
        results: [
          { id: ids[0], ok: true },
          { id: ids[1], ok: false, error: 'Cannot lock an admin' },
        ],
      });
    });
    const { user } = renderAdminTab(<UsersTab />, { server });
    await user.click(await screen.findByRole('checkbox', { name: 'Select user1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select user2' }));
    const bar = screen.getByRole('group', { name: 'Bulk actions' });
    expect(within(bar).getByText('2 selected')).toBeTruthy();
    await user.click(within(bar).getByRole('button', { name: 'Lock' }));

    const dialog = screen.getByRole('dialog', { name: 'Lock: 2 accounts' });
    expect((within(dialog).getByRole('textbox', { name: 'Reason' }) as HTMLInputElement).value).toBe(
      'Manual admin lock',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Lock 2 accounts' }));

    const results = await within(dialog).findByRole('list', { name: 'Results' });
    expect(within(results).getByText('user1: Locked')).toBeTruthy();
    expect(within(results).getByText('user2: Cannot lock an admin')).toBeTruthy();
    expect(server.calls('POST /api/admin/users/bulk/lock')[0]!.body).toEqual({
      ids: [USERS[0]!._id, USERS[1]!._id],
      reason: 'Manual admin lock',
      duration: 60,
    });
    expect((await screen.findByText('Locked: 1 of 2 accounts')).getAttribute('aria-live')).toBe('polite');
  });

  it('offers no selection or bulk actions to an admin who may only read', async () => {
    renderAdminTab(<UsersTab />, { server: usersServer(), admin: adminWith('users:read') });
    await screen.findByRole('table', { name: 'Users' });
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('says why the list failed and asks again on Retry', async () => {
    let fail = true;
    const server = new FakeServer().on('GET /api/admin/users', () =>
      fail ? json(500, { error: 'boom' }) : json(200, { users: [userRow(1)], total: 1 }),
    );
    const { user } = renderAdminTab(<UsersTab />, { server });
    expect(await screen.findByText('Failed to load admin data')).toBeTruthy();
    expect(screen.getByText('Admin API Error: 500')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: 'user1' })).toBeTruthy();
  });

  it("reads the role as words: 'User', the 'Admin' badge, a 'Super admin' badge, nothing twice", async () => {
    const rows = [userRow(1), userRow(2, { role: 'admin' }), userRow(3, { role: 'super_admin' })];
    renderAdminTab(<UsersTab />, { server: usersServer(rows) });
    const table = await screen.findByRole('table', { name: 'Users' });
    const [head, ...body] = within(table).getAllByRole('row');
    const column = [...head!.children].findIndex((cell) => cell.textContent === 'Role');
    const roleCells = body.map((row) => row.children[column]!);
    expect(roleCells.map((cell) => cell.textContent)).toEqual(['User', 'Admin', 'Super admin']);
    expect(roleCells[1]!.querySelector('.admin-badge')?.textContent).toBe('Admin');
    expect(roleCells[2]!.querySelector('.admin-badge--super')?.textContent).toBe('Super admin');
  });

  it("keeps the spec's text before the server's reason when a bulk action fails", async () => {
    const server = usersServer().on('POST /api/admin/users/bulk/lock', () =>
      json(400, { error: 'At most 100 accounts at once', code: 'VALIDATION_ERROR' }),
    );
    const { user } = renderAdminTab(<UsersTab />, { server });
    await user.click(await screen.findByRole('checkbox', { name: 'Select user1' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Bulk actions' })).getByRole('button', { name: 'Lock' }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Lock: 1 account' });
    await user.click(within(dialog).getByRole('button', { name: 'Lock 1 account' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to lock user account: At most 100 accounts at once',
    );
  });

  it("shows the pager over a loaded list only, and 'No users match' when there is none", async () => {
    let answer: () => Response | Promise<Response> = () => new Promise(() => undefined);
    const server = new FakeServer().on('GET /api/admin/users', () => answer());
    const { user } = renderAdminTab(<UsersTab />, { server });
    expect(await screen.findByRole('heading', { level: 2, name: 'User Management' })).toBeTruthy();
    expect(screen.getByText('Loading users')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'User pages' })).toBeNull();

    answer = () => json(200, { users: [], total: 0 });
    await user.type(screen.getByRole('searchbox', { name: 'Search users by username or e-mail' }), 'zz');
    expect(await screen.findByText('No users match')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'User pages' })).toBeNull();

    answer = () => json(503, { error: 'down' });
    await user.type(screen.getByRole('searchbox', { name: 'Search users by username or e-mail' }), 'z');
    expect(await screen.findByText('Admin API Error: 503')).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'User pages' })).toBeNull();
    expect(screen.queryByText(/^Page /)).toBeNull();
  });
});
