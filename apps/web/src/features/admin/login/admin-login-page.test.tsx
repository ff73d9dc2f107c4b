import { ERROR_INFO } from '@vault/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, TEST_VAULT, json, type FakeHandler } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';
import { adminSession, withAdminConsole } from '../testing/admin-fixtures';

const PRELOGIN = { salt: TEST_VAULT.salt, kdfParams: TEST_VAULT.kdfParams };

function server(signIn: FakeHandler) {
  return withAdminConsole(new FakeServer().withSession())
    .on('POST /api/auth/prelogin', () => json(200, PRELOGIN))
    .on('POST /api/admin/session', signIn);
}

async function signIn(app: Awaited<ReturnType<typeof renderApp>>, password = 'Correct-horse-1') {
  await screen.findByRole('heading', { name: 'Admin sign-in' });
  await app.user.type(screen.getByLabelText('Email or username'), 'root@example.org');
  await app.user.type(screen.getByLabelText('Password'), password);
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('admin sign-in (/admin/login)', () => {
  it('shows the monitoring notice, a back link and a password with show/hide, and no code field yet', async () => {
    await renderApp({ path: '/admin/login', server: server(() => json(401, {})) });
    await screen.findByRole('heading', { name: 'Admin sign-in' });
    expect(screen.getByText(/monitored/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to the app' }).getAttribute('href')).toBe('/vault');
    expect(screen.getByRole('button', { name: 'Show password' })).toBeTruthy();
    expect(screen.queryByLabelText('2FA code')).toBeNull();
  });

  it('reveals the 2FA code on requires2FA, insists on it, then signs in with authKey and code and opens /admin', async () => {
    const srv = server((req) => {
      const body = req.body as { totpCode?: string };
      return body.totpCode === '123456' ? json(200, adminSession()) : json(200, { requires2FA: true });
    });
    const app = await renderApp({ path: '/admin/login', server: srv });
    await signIn(app);
    const code = await screen.findByLabelText('2FA code');
    expect(code.getAttribute('maxlength')).toBe('6');
    expect(code.getAttribute('inputmode')).toBe('numeric');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(screen.getByText('Please enter your 2FA code')).toBeTruthy();

    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please enter your 2FA code');
    expect(srv.calls('POST /api/admin/session')).toHaveLength(1);

    await app.user.type(code, '12ab3456');
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Admin Console' });
    expect(app.router.state.location.pathname).toBe('/admin');
    const calls = srv.calls('POST /api/admin/session');
    expect(calls[1]?.body).toEqual({
      identifier: 'root@example.org',
      authKey: app.crypto.authKeyFor('Correct-horse-1'),
      totpCode: '123456',
    });
    // The key is derived once for both steps; the password never reaches the server; nothing is stored.
    expect(srv.calls('POST /api/auth/prelogin')).toHaveLength(1);
    expect(JSON.stringify(srv.requests)).not.toContain('Correct-horse-1');
    expect(srv.requests.some((r) => r.headers['authorization'])).toBe(false);
    expect(app.storage.dump()).toEqual({});
    expect(window.localStorage.length + window.sessionStorage.length).toBe(0);
    expect(srv.calls('GET /api/admin/stats').length).toBeGreaterThanOrEqual(1);
  });

  it.each([
    [
      '401 bad credentials',
      () => json(401, { error: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }),
      'Login failed',
    ],
    ['a network failure', () => Promise.reject(new TypeError('offline')), 'Login failed'],
    [
      '403 ADMIN_REQUIRED',
      () => json(403, { error: 'x', code: 'ADMIN_REQUIRED' }),
      'Admin privileges required',
    ],
    ['500', () => json(500, { error: 'Internal server error' }), 'Admin login failed'],
  ] as const)('says the spec message on %s', async (_name, handler, message) => {
    const app = await renderApp({ path: '/admin/login', server: server(handler) });
    await signIn(app);
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(app.router.state.location.pathname).toBe('/admin/login');
  });

  it('links an admin without 2FA to the security settings', async () => {
    const handler = () =>
      json(403, { error: ERROR_INFO.ADMIN_2FA_REQUIRED.message, code: 'ADMIN_2FA_REQUIRED' });
    const app = await renderApp({ path: '/admin/login', server: server(handler) });
    await signIn(app);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(ERROR_INFO.ADMIN_2FA_REQUIRED.message);
    const link = screen.getByRole('link', { name: /two-factor authentication/ });
    expect(link.getAttribute('href')).toBe('/settings?tab=security');
  });

  it('shows the lockout with its retry time and pauses the form', async () => {
    const handler = () => json(423, { error: 'Account locked', code: 'ACCOUNT_LOCKED', retryAfter: 300 });
    const app = await renderApp({ path: '/admin/login', server: server(handler) });
    await signIn(app);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Account Temporarily Locked');
    expect(alert.textContent).toMatch(/Try again after \d{1,2}:\d{2}/);
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("says 'Admin privileges required' and ends the session when the stats check fails", async () => {
    const srv = server(() => json(200, adminSession())).on('GET /api/admin/stats', () =>
      json(403, { error: 'Forbidden', code: 'PERMISSION_DENIED' }),
    );
    const app = await renderApp({ path: '/admin/login', server: srv });
    await signIn(app);
    expect((await screen.findByRole('alert')).textContent).toBe('Admin privileges required');
    await waitFor(() => expect(srv.calls('DELETE /api/admin/session')).toHaveLength(1));
    expect(app.router.state.location.pathname).toBe('/admin/login');
  });

  it.each([
    ['a 500', () => json(500, { error: 'Internal server error' }), 'Admin login failedAdmin API Error: 500'],
    ['a 503', () => json(503, { error: 'Unavailable' }), 'Admin login failedAdmin API Error: 503'],
    [
      'a network failure',
      () => Promise.reject(new TypeError('offline')),
      'Admin login failedFailed to load admin data',
    ],
  ] as const)(
    'does not claim missing privileges when the stats check meets %s',
    async (_name, stats, text) => {
      const srv = server(() => json(200, adminSession())).on('GET /api/admin/stats', stats);
      const app = await renderApp({ path: '/admin/login', server: srv });
      await signIn(app);
      const alert = await screen.findByRole('alert');
      expect(alert.textContent).toBe(text);
      expect(alert.textContent).not.toContain('Admin privileges required');
      await waitFor(() => expect(srv.calls('DELETE /api/admin/session')).toHaveLength(1));
      expect(app.router.state.location.pathname).toBe('/admin/login');
    },
  );
});
