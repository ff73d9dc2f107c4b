import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { adminWith, queryOf, renderAdminTab, sessionRow, userRow } from '../testing/admin-tab-harness';
import { SessionsTab } from './sessions-tab';

const BOB = userRow(2, { username: 'bob' });
const first = sessionRow(1, BOB);
const second = sessionRow(2, BOB);
const third = sessionRow(3, userRow(4, { username: 'carol' }));

describe('SessionsTab', () => {
  it('lists sessions across accounts with the total and loads more with the cursor', async () => {
    const server = new FakeServer().on('GET /api/admin/sessions', () =>
      json(200, { sessions: [first, second], total: 3, nextCursor: 'n1' }),
    );
    const { user, requested } = renderAdminTab(<SessionsTab />, { server });
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    expect(screen.getByText('3 active sessions')).toBeTruthy();
    expect(within(table).getAllByText('Firefox 133 on Linux')).toHaveLength(2);
    expect(queryOf(requested('GET', '/api/admin/sessions')[0])).toEqual({ limit: '50' });

    server.on('GET /api/admin/sessions', () => json(200, { sessions: [third], total: 3, nextCursor: null }));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('carol')).toBeTruthy();
    expect(queryOf(requested('GET', '/api/admin/sessions').at(-1))).toEqual({ limit: '50', cursor: 'n1' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('revokes a session after the confirmation, and shows a failure in the dialog', async () => {
    let fail = true;
    const server = new FakeServer()
      .on('GET /api/admin/sessions', () =>
        json(200, { sessions: [first, second], total: 2, nextCursor: null }),
      )
      .on(`DELETE /api/admin/sessions/${first.sessionId}`, () =>
        fail ? json(404, { error: 'Session not found' }) : json(204),
      );
    const { user } = renderAdminTab(<SessionsTab />, { server });
    await user.click(
      await screen.findByRole('button', { name: /^Revoke session of bob: .*203\.0\.113\.1\)$/ }),
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Revoke session' });
    // Focus starts on Cancel: Enter alone never revokes.
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Failed to revoke session: Session not found',
    );

    fail = false;
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Session of bob revoked')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Active sessions' })).getAllByRole('row')).toHaveLength(
      2,
    );
    expect(screen.getByText('1 active session')).toBeTruthy();
    expect(server.calls(`DELETE /api/admin/sessions/${first.sessionId}`)).toHaveLength(2);
  });

  it('offers no Revoke without sessions:revoke', async () => {
    const server = new FakeServer().on('GET /api/admin/sessions', () =>
      json(200, { sessions: [first], total: 1, nextCursor: null }),
    );
    renderAdminTab(<SessionsTab />, { server, admin: adminWith('sessions:read') });
    await screen.findByRole('table', { name: 'Active sessions' });
    expect(screen.queryByRole('button', { name: /Revoke/ })).toBeNull();
  });
});
