import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../testing/render-app';
import { FakeServer, json } from '../../testing/fake-server';

describe('route guards (spec section 2)', () => {
  it('shows the initialisation spinner until the session is ready', async () => {
    const app = await renderApp({ path: '/vault' });
    expect(screen.getByRole('status').textContent).toContain('Loading your vault...');
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
  });

  it.each(['/vault', '/files', '/trash', '/settings', '/testing'])(
    'sends a signed-out visitor of %s to /login',
    async (path) => {
      const app = await renderApp({ path });
      await screen.findByRole('heading', { name: 'Sign in to your vault' });
      expect(app.router.state.location.pathname).toBe('/login');
    },
  );

  it.each(['/login', '/register', '/recovery'])('sends a signed-in user on %s to /vault', async (path) => {
    const app = await renderApp({ path, signedIn: true, unlocked: true });
    await screen.findByRole('heading', { name: 'Personal Vault' });
    expect(app.router.state.location.pathname).toBe('/vault');
  });

  it.each(['/', '/no/such/page', '/vaults'])(
    'redirects %s to /vault (then /login when signed out)',
    async (path) => {
      const signedIn = await renderApp({ path, signedIn: true, unlocked: true });
      await screen.findByRole('heading', { name: 'Personal Vault' });
      expect(signedIn.router.state.location.pathname).toBe('/vault');
      signedIn.unmount();
      const signedOut = await renderApp({ path });
      await screen.findByRole('heading', { name: 'Sign in to your vault' });
      expect(signedOut.router.state.location.pathname).toBe('/login');
    },
  );

  it('shows the signed-out screens to visitors', async () => {
    await renderApp({ path: '/register' });
    await screen.findByRole('heading', { name: 'Create your vault' });
  });

  it('asks a signed-in user whose key is not on this device to unlock, on the page they asked for', async () => {
    const app = await renderApp({ path: '/settings', signedIn: true });
    await screen.findByRole('heading', { name: 'Unlock your vault' });
    expect(app.router.state.location.pathname).toBe('/settings');
  });

  it('opens /admin/login to anyone and gates /admin', async () => {
    const server = new FakeServer()
      .withSession()
      .on('GET /api/admin/session', () =>
        json(401, { error: 'Authentication required', code: 'UNAUTHENTICATED' }),
      );
    await renderApp({ path: '/admin', server });
    await screen.findByRole('heading', { name: 'Access Denied' });
    expect(screen.getByText('You need admin privileges to access this page.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Admin Login' }).getAttribute('href')).toBe('/admin/login');
  });
});
