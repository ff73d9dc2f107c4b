import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, TEST_USER, json } from '../../testing/fake-server';
import { renderApp } from '../../testing/render-app';
import { trashCount } from './vault-layout';

describe('app shell and sidebar (spec section 2)', () => {
  it('has the spec items, the email and "Client-side encrypted"; counts hidden while /notes/counts does not answer', async () => {
    const app = await renderApp({ path: '/vault', signedIn: true, unlocked: true });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['All Notes', 'File Vault', 'Trash', 'Testing Dashboard', 'Settings']);
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
    expect(screen.getByText(TEST_USER.email)).toBeTruthy();
    expect(screen.getByText('Client-side encrypted')).toBeTruthy();
    await waitFor(() => expect(app.server.calls('GET /api/notes/counts')).toHaveLength(1));
    expect(within(nav).getByRole('link', { name: 'All Notes' }).getAttribute('aria-current')).toBe('page');
  });

  it('shows the All Notes count when /notes/counts answers; no Trash count without the files', async () => {
    const server = new FakeServer()
      .withSession()
      .on('GET /api/notes/counts', () => json(200, { active: 12, deleted: 3 }));
    const app = await renderApp({ path: '/vault', signedIn: true, unlocked: true, server });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect((await within(nav).findByLabelText('12 notes')).textContent).toBe('12');
    await waitFor(() => expect(app.server.calls('GET /api/files/counts')).toHaveLength(1));
    // 3 would count only the deleted notes under the badge of notes and files.
    expect(within(nav).getByRole('link', { name: /Trash/ }).querySelector('.sidebar__count')).toBeNull();
  });

  it('trashCount: deleted notes plus deleted files, only when both are known', () => {
    expect(trashCount(3, 2)).toEqual({ count: 5, label: '5 deleted items' });
    expect(trashCount(1, 0)).toEqual({ count: 1, label: '1 deleted item' });
    expect(trashCount(3, undefined)).toBeUndefined();
    expect(trashCount(undefined, 2)).toBeUndefined();
  });

  it('the Trash count includes the deleted files when /files/counts answers', async () => {
    const server = new FakeServer()
      .withSession()
      .on('GET /api/notes/counts', () => json(200, { active: 12, deleted: 3 }))
      .on('GET /api/files/counts', () => json(200, { active: 4, deleted: 2, bytes: 1024 }));
    await renderApp({ path: '/vault', signedIn: true, unlocked: true, server });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect((await within(nav).findByLabelText('5 deleted items')).textContent).toBe('5');
    expect(within(nav).getByLabelText('12 notes').textContent).toBe('12');
  });

  it('has a toggle for the sidebar, open by default on wide screens', async () => {
    const app = await renderApp({ path: '/vault', signedIn: true, unlocked: true });
    const toggle = await screen.findByRole('button', { name: 'Hide navigation' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-controls')).toBe('app-sidebar');
    await app.user.click(toggle);
    expect(screen.getByRole('button', { name: 'Show navigation' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
  });

  it('signs out: clears the session and the stored key and lands on /login, even when the call fails', async () => {
    const server = new FakeServer()
      .withSession()
      .on('POST /api/auth/logout', () => json(503, { error: 'down' }));
    const app = await renderApp({ path: '/settings', signedIn: true, unlocked: true, server });
    await app.user.click(await screen.findByRole('button', { name: 'Sign Out' }));
    await screen.findByRole('heading', { name: 'Sign in to your vault' });
    expect(app.router.state.location.pathname).toBe('/login');
    expect(app.services.session.getState()).toMatchObject({ user: null, vaultKey: null });
    expect(app.keyStore.keys.size).toBe(0);
    expect(app.storage.dump()).not.toHaveProperty('vault.user');
    expect(app.server.calls('POST /api/auth/logout')).toHaveLength(1);
  });
});
