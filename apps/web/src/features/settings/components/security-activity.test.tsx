import type { OwnSecurityEvent } from '@vault/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { json } from '../../../testing/fake-server';
import { renderSettings, settingsServer } from '../testing/settings-harness';

const own = (n: number, eventType: string, details: OwnSecurityEvent['details'] = {}): OwnSecurityEvent => ({
  id: `own-${n}`,
  eventType,
  ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  timestamp: new Date(Date.UTC(2026, 10, 22, 9, 0) - n * 60_000).toISOString(),
  details,
});

/** The Settings server, recording each security-events URL (the fake keeps only paths). */
function activityServer(pages: { events: OwnSecurityEvent[]; nextCursor: string | null }[]) {
  const urls: string[] = [];
  const server = settingsServer().on('GET /api/auth/security-events', () => json(200, pages.shift()));
  const fetch = server.fetch;
  server.fetch = (input, init) => {
    const url = String(input);
    if (url.includes('/auth/security-events')) urls.push(url.slice(url.indexOf('/api/')));
    return fetch(input, init);
  };
  return { server, urls };
}

describe('Recent security activity', () => {
  it("lists the user's events as sentences, an administrator's reason beside, and loads more", async () => {
    const { server, urls } = activityServer([
      {
        events: [
          own(1, 'admin_account_locked', { reason: 'Suspicious sign-ins' }),
          own(2, 'admin_two_factor_removed', { reason: 'Lost phone' }),
          own(3, 'signin_failure', { reason: 'bad_password' }),
        ],
        nextCursor: 'next-1',
      },
      { events: [own(4, 'admin_sessions_ended'), own(5, 'password_changed')], nextCursor: null },
    ]);
    const { user } = await renderSettings('/settings?tab=security', server);
    const list = await screen.findByRole('list', { name: 'Recent security activity' });
    expect(within(list).getByText('An administrator locked your account')).toBeTruthy();
    expect(within(list).getByText('Reason: Suspicious sign-ins')).toBeTruthy();
    expect(within(list).getByText('An administrator removed your two-step verification')).toBeTruthy();
    expect(within(list).getByText('Reason: Lost phone')).toBeTruthy();
    expect(within(list).getByText('A sign-in to your account failed')).toBeTruthy();
    expect(within(list).queryByText(/bad_password/)).toBeNull();
    expect(within(list).getAllByText(/Firefox 133 on Linux · 203\.0\.113\.7/)).toHaveLength(3);
    // Through the app's client: the user's bearer token.
    expect(server.calls('GET /api/auth/security-events')[0]!.headers['authorization']).toMatch(/^Bearer /);
    expect(urls[0]).toBe('/api/auth/security-events?limit=20');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByText('An administrator ended your sessions')).toBeTruthy();
    expect(within(list).getByText('Your password was changed')).toBeTruthy();
    expect(urls[1]).toBe('/api/auth/security-events?limit=20&cursor=next-1');
    expect(within(list).getAllByRole('listitem')).toHaveLength(5);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('shows a failed load with Retry', async () => {
    let fail = true;
    const server = settingsServer().on('GET /api/auth/security-events', () =>
      fail
        ? json(503, { error: 'Service unavailable' })
        : json(200, { events: [own(1, 'admin_account_unlocked')], nextCursor: null }),
    );
    const { user } = await renderSettings('/settings?tab=security', server);
    const section = (await screen.findByRole('heading', { name: 'Recent security activity' })).closest(
      'section',
    )!;
    expect(await within(section).findByText('Service unavailable')).toBeTruthy();
    fail = false;
    await user.click(within(section).getByRole('button', { name: 'Retry' }));
    expect(await within(section).findByText('An administrator unlocked your account')).toBeTruthy();
  });
});
