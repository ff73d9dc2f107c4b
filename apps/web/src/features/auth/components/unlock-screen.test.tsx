import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, TEST_USER, json } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';

describe('unlock step (after a reload)', () => {
  it("says 'Invalid password' for a wrong password, sending nothing about it to the server", async () => {
    const app = await renderApp({ path: '/vault', signedIn: true });
    await screen.findByRole('heading', { name: 'Unlock your vault' });
    // The address, with its break points (EmailAddress) between its parts.
    expect(
      screen.getByText((_, el) => el?.tagName === 'STRONG' && el.textContent === TEST_USER.email),
    ).toBeTruthy();
    await waitFor(() => expect(app.server.calls('GET /api/auth/me')).toHaveLength(1));
    const before = app.server.requests.length;
    await app.user.type(screen.getByLabelText('Password'), 'Wrong-horse-1');
    await app.user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid password');
    // The only calls are the sealed notes fetched ahead while the KDF ran: bodiless reads.
    const after = app.server.requests.slice(before);
    expect(after.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/notes']);
    expect(after.every((r) => r.body === undefined || r.body === null)).toBe(true);
    expect(app.services.session.getState().vaultKey).toBeNull();
  });

  it("asks to 'Please enter your password'", async () => {
    const app = await renderApp({ path: '/vault', signedIn: true });
    await screen.findByRole('heading', { name: 'Unlock your vault' });
    await app.user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(screen.getByRole('alert').textContent).toBe('Please enter your password');
  });

  it('unlocks with the right password and shows the page', async () => {
    const app = await renderApp({ path: '/vault', signedIn: true });
    await screen.findByRole('heading', { name: 'Unlock your vault' });
    await app.user.type(screen.getByLabelText('Password'), app.crypto.correctPassword);
    await app.user.click(screen.getByRole('button', { name: 'Unlock' }));
    await screen.findByRole('heading', { name: 'Personal Vault' });
    expect(app.services.session.getState().vaultKey).toBe(app.crypto.vaultKey);
    expect(app.keyStore.keys.size).toBe(0);
    // The account details from /me fill in the session user.
    expect(app.services.session.getState().user).toMatchObject({
      username: 'alice',
      createdAt: TEST_USER.createdAt,
    });
  });

  it('keeps the key on this device when asked', async () => {
    const app = await renderApp({ path: '/vault', signedIn: true });
    await screen.findByRole('heading', { name: 'Unlock your vault' });
    await app.user.click(screen.getByRole('checkbox', { name: 'Stay unlocked on this device' }));
    await app.user.type(screen.getByLabelText('Password'), app.crypto.correctPassword);
    await app.user.click(screen.getByRole('button', { name: 'Unlock' }));
    await screen.findByRole('heading', { name: 'Personal Vault' });
    expect(app.keyStore.keys.get(TEST_USER.id)).toBe(app.crypto.vaultKey);
  });

  it('signs out from the unlock screen', async () => {
    const app = await renderApp({ path: '/vault', signedIn: true });
    await screen.findByRole('heading', { name: 'Unlock your vault' });
    await app.user.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('heading', { name: 'Sign in to your vault' });
    expect(app.server.calls('POST /api/auth/logout')).toHaveLength(1);
  });

  it("goes to /login with 'Authentication failed' when the session cannot be renewed", async () => {
    const server = new FakeServer()
      .on('GET /api/auth/me', () => json(401, { error: 'Session has ended', code: 'SESSION_REVOKED' }))
      .on('POST /api/auth/refresh', () => json(401, { error: 'Invalid refresh token' }));
    const app = await renderApp({ path: '/vault', signedIn: true, server });
    await screen.findByRole('heading', { name: 'Sign in to your vault' });
    expect(screen.getByText('Authentication failed')).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/login');
    expect(app.services.session.getState().user).toBeNull();
  });
});
