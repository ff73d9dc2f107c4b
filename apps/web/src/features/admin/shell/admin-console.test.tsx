import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';
import { adminSession, withAdminConsole } from '../testing/admin-fixtures';
import { SUPER_ADMIN, adminWith } from '../testing/admin-tab-harness';

const consoleServer = (admin = SUPER_ADMIN) => withAdminConsole(new FakeServer().withSession(), admin);

describe('the /admin gate and shell', () => {
  it("shows 'Access Denied' and the Admin Login button without an admin session (401)", async () => {
    const srv = new FakeServer().on('GET /api/admin/session', () =>
      json(401, { error: 'Authentication required' }),
    );
    await renderApp({ path: '/admin', server: srv });
    await screen.findByRole('heading', { name: 'Access Denied' });
    expect(screen.getByText('You need admin privileges to access this page.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Admin Login' }).getAttribute('href')).toBe('/admin/login');
  });

  it("shows 'Insufficient Permissions' on 403, from the session or from the stats check", async () => {
    const srv = consoleServer().on('GET /api/admin/stats', () => json(403, { code: 'PERMISSION_DENIED' }));
    await renderApp({ path: '/admin', server: srv });
    await screen.findByRole('heading', { name: 'Insufficient Permissions' });
    expect(screen.getByText("You don't have permission to access this resource.")).toBeTruthy();
  });

  it("says 'Failed to load admin data' with the status, and Retry loads the console", async () => {
    let fail = true;
    const srv = consoleServer().on('GET /api/admin/session', () =>
      fail ? json(502, { error: 'Bad gateway' }) : json(200, adminSession()),
    );
    const app = await renderApp({ path: '/admin', server: srv });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load admin data');
    expect(alert.textContent).toContain('Admin API Error: 502');
    fail = false;
    await app.user.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('heading', { name: 'Admin Console' });
  });

  it('shows who is signed in, the role, the idle countdown and only the tabs the permissions allow', async () => {
    const admin = adminWith('stats:read', 'system:read');
    await renderApp({ path: '/admin', server: consoleServer(admin) });
    await screen.findByRole('heading', { name: 'Admin Console' });
    expect(screen.getByText('helper')).toBeTruthy();
    expect(screen.getByText('Admin')).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toMatch(/^1[45]:\d\d$/);
    const tabs = within(screen.getByRole('tablist', { name: 'Admin sections' })).getAllByRole('tab');
    expect(tabs.map((t) => t.textContent)).toEqual(['Overview', 'System Health']);
  });

  it('offers all six tabs to a super admin and moves between them with the arrow keys', async () => {
    const app = await renderApp({ path: '/admin', server: consoleServer() });
    await screen.findByRole('heading', { name: 'Admin Console' });
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent);
    expect(tabs).toEqual([
      'Overview',
      'User Management',
      'Security Events',
      'Active Sessions',
      'System Health',
      'Audit log',
    ]);
    screen.getByRole('tab', { name: 'Overview' }).focus();
    await app.user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Audit log' }).getAttribute('aria-selected')).toBe('true');
    await screen.findByRole('heading', { name: 'Audit log' });
    expect(app.router.state.location.search).toBe('?tab=audit');
  });

  it('warns in the last 2 minutes of the idle time, and Stay signed in asks the server again', async () => {
    let idleMs = 90_000;
    const srv = consoleServer().on('GET /api/admin/session', () =>
      json(200, adminSession(SUPER_ADMIN, idleMs)),
    );
    const app = await renderApp({ path: '/admin', server: srv });
    await screen.findByText('Your admin session is about to end');
    idleMs = 15 * 60_000;
    await app.user.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await waitFor(() => expect(screen.queryByText('Your admin session is about to end')).toBeNull());
    expect(srv.calls('GET /api/admin/session')).toHaveLength(2);
  });

  it('signs out: DELETE /api/admin/session, then the sign-in', async () => {
    const srv = consoleServer();
    const app = await renderApp({ path: '/admin', server: srv });
    await screen.findByRole('heading', { name: 'Admin Console' });
    await app.user.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Admin sign-in' });
    expect(srv.calls('DELETE /api/admin/session')).toHaveLength(1);
  });

  it('shows the sign-in again, with a notice, when an admin call answers 401', async () => {
    const srv = consoleServer();
    const app = await renderApp({ path: '/admin', server: srv });
    await screen.findByRole('heading', { name: 'Admin Console' });
    srv.on('GET /api/admin/stats', () => json(401, { error: 'Authentication required' }));
    await app.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await screen.findByRole('heading', { name: 'Admin sign-in' });
    expect(screen.getByText('Your admin session has ended. Please sign in again.')).toBeTruthy();
    // The vault's session is untouched: no bearer token or refresh for admin calls.
    expect(srv.calls('POST /api/auth/refresh')).toHaveLength(0);
  });
});
