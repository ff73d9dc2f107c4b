import type { AdminSecurityEvent } from '@vault/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readFileText } from '../../../lib/read-file-text';
import { captureDownloads } from '../../../testing/capture-downloads';
import { FakeServer, json } from '../../../testing/fake-server';
import { queryOf, renderAdminTab, userRow } from '../testing/admin-tab-harness';
import { EventsTab, EXPORT_NOTE } from './events-tab';

const ALICE = userRow(3, { username: 'alice' });

const event = (n: number, eventType = 'signin_failure'): AdminSecurityEvent => ({
  id: `ev-${n}`,
  userId: ALICE._id,
  email: ALICE.email,
  username: ALICE.username,
  event: {
    eventType,
    ipAddress: '198.51.100.9',
    userAgent:
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    timestamp: new Date(Date.UTC(2026, 10, 21, 12, 0) - n * 60_000).toISOString(),
    details: { reason: 'bad_password' },
  },
});

let restore: (() => void) | null = null;
afterEach(() => restore?.());

describe('EventsTab', () => {
  it('lists 20 events a page with readable types and loads more with the cursor', async () => {
    const server = new FakeServer().on('GET /api/admin/security/events', () =>
      json(200, { events: [event(1), event(2, 'admin_account_locked')], nextCursor: 'c2' }),
    );
    const { user, requested } = renderAdminTab(<EventsTab />, { server, path: '/admin?tab=events' });
    const table = await screen.findByRole('table', { name: 'Security events' });
    expect(within(table).getByText('Failed sign-in')).toBeTruthy();
    expect(within(table).getByText('Locked by an administrator')).toBeTruthy();
    expect(within(table).getAllByText('Chrome 131 on Windows')).toHaveLength(2);
    expect(within(table).getAllByText('reason: bad_password')).toHaveLength(2);
    expect(queryOf(requested('GET', '/api/admin/security/events')[0])).toEqual({ limit: '20' });

    server.on('GET /api/admin/security/events', () =>
      json(200, { events: [event(3, 'logout')], nextCursor: null }),
    );
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('Signed out')).toBeTruthy();
    expect(queryOf(requested('GET', '/api/admin/security/events').at(-1))).toEqual({
      limit: '20',
      cursor: 'c2',
    });
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('sends the filters as the query: type, the user from the URL, and the range as ISO instants', async () => {
    const server = new FakeServer().on('GET /api/admin/security/events', () =>
      json(200, { events: [], nextCursor: null }),
    );
    const { user, requested } = renderAdminTab(<EventsTab />, {
      server,
      path: `/admin?tab=events&user=${ALICE._id}`,
    });
    expect(await screen.findByText('No security events match.')).toBeTruthy();
    expect(queryOf(requested('GET', '/api/admin/security/events')[0])).toEqual({
      limit: '20',
      userId: ALICE._id,
    });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Locked by an administrator');
    const from = screen.getByLabelText('From');
    await user.type(from, '2026-11-20T08:30');
    await waitFor(() =>
      expect(queryOf(requested('GET', '/api/admin/security/events').at(-1))).toEqual({
        limit: '20',
        type: 'admin_account_locked',
        userId: ALICE._id,
        from: new Date('2026-11-20T08:30').toISOString(),
      }),
    );
  });

  it('exports the CSV of the current filters as a download', async () => {
    const downloads = captureDownloads();
    restore = downloads.restore;
    const csv = 'time,type\n2026-11-21T12:00:00.000Z,admin_account_locked\n';
    const server = new FakeServer()
      .on('GET /api/admin/security/events', () => json(200, { events: [event(1)], nextCursor: null }))
      .on(
        'GET /api/admin/security/events.csv',
        () => new Response(csv, { headers: { 'content-type': 'text/csv' } }),
      );
    const { user, requested } = renderAdminTab(<EventsTab />, {
      server,
      path: `/admin?tab=events&user=${ALICE._id}`,
    });
    await screen.findByRole('table', { name: 'Security events' });
    // The button says what the file holds: personal data.
    expect(screen.getByRole('button', { name: 'Export CSV' }).getAttribute('aria-describedby')).toBe(
      'admin-events-export-note',
    );
    expect(document.getElementById('admin-events-export-note')?.textContent).toBe(EXPORT_NOTE);
    expect(EXPORT_NOTE).toMatch(/e-mail addresses and IP addresses \(personal data\)/);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Failed sign-in');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Security events exported')).toBeTruthy();
    expect(queryOf(requested('GET', '/api/admin/security/events.csv')[0])).toEqual({
      type: 'signin_failure',
      userId: ALICE._id,
    });
    expect(downloads.files).toHaveLength(1);
    expect(downloads.files[0]!.name).toMatch(/^security-events-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(await readFileText(downloads.files[0]!.blob)).toBe(csv);
  });

  it('shows a failed load with Retry, and a failed export with its reason', async () => {
    let fail = true;
    const server = new FakeServer()
      .on('GET /api/admin/security/events', () =>
        fail ? json(503, { error: 'down' }) : json(200, { events: [event(1)], nextCursor: null }),
      )
      .on('GET /api/admin/security/events.csv', () => json(400, { error: 'Invalid date' }));
    const { user } = renderAdminTab(<EventsTab />, { server });
    expect(await screen.findByText('Admin API Error: 503')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('table', { name: 'Security events' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid date');
  });
});
