import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, TEST_USER, TEST_VAULT, json } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';

describe('settings', () => {
  it('opens the tab named in ?tab= and writes the tab into the URL', async () => {
    const app = await renderApp({ path: '/settings?tab=data', signedIn: true, unlocked: true });
    const tab = await screen.findByRole('tab', { name: 'Data & Privacy' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('heading', { name: 'Export notes' })).toBeTruthy();
    await app.user.click(screen.getByRole('tab', { name: 'Account' }));
    expect(app.router.state.location.search).toBe('?tab=account');
  });

  it('defaults to Security and shows the recovery notice with recovery=true', async () => {
    await renderApp({ path: '/settings?tab=security&recovery=true', signedIn: true, unlocked: true });
    expect((await screen.findByRole('tab', { name: 'Security' })).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('You recovered access to your account')).toBeTruthy();
  });

  it('Account shows the email, the real creation date and the 2FA status from /auth/me', async () => {
    const server = new FakeServer()
      .withSession()
      .on('GET /api/auth/me', () =>
        json(200, { user: { ...TEST_USER, twoFactorEnabled: true }, vault: TEST_VAULT }),
      );
    await renderApp({ path: '/settings?tab=account', signedIn: true, unlocked: true, server });
    const date = new Date(TEST_USER.createdAt).toLocaleDateString(undefined, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    });
    expect((await screen.findByText(date)).tagName).toBe('TIME');
    expect(screen.getAllByText(TEST_USER.email).length).toBeGreaterThan(0);
    expect(screen.getByText('Enabled')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Manage' }).getAttribute('href')).toBe('/settings?tab=security');
  });

  it('Account shows the total of notes and no placeholder date', async () => {
    const server = new FakeServer()
      .withSession()
      .on('GET /api/notes/counts', () => json(200, { active: 12, deleted: 3 }));
    await renderApp({ path: '/settings?tab=account', signedIn: true, unlocked: true, server });
    const row = (await screen.findByText('Total notes')).closest('div');
    expect(row?.textContent).toBe('Total notes12');
    expect(screen.queryByText(/Demo/)).toBeNull();
    expect(screen.getByText('Disabled')).toBeTruthy();
  });

  it('Account offers Retry when /auth/me fails', async () => {
    const server = new FakeServer()
      .withSession()
      .on('GET /api/auth/me', () => json(503, { error: 'Service unavailable' }));
    await renderApp({ path: '/settings?tab=account', signedIn: true, unlocked: true, server });
    expect(await screen.findByText('Service unavailable')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
