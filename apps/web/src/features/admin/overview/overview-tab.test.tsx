import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { STATS, activity } from '../testing/admin-fixtures';
import { renderAdminTab } from '../testing/admin-tab-harness';
import { dailyTotals } from './activity-chart';
import { OverviewTab } from './overview-tab';

const card = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

describe('Overview tab', () => {
  it('shows the six stat cards, the last-updated time, and Refresh asks again', async () => {
    let stats = STATS;
    const server = new FakeServer()
      .on('GET /api/admin/stats', () => json(200, stats))
      .on('GET /api/admin/activity', () => json(200, activity()));
    const app = renderAdminTab(<OverviewTab />, { server });
    await screen.findByText('Total Users');
    expect(card('Total Users')).toBe((1234).toLocaleString());
    expect(card('Active Users (30d)')).toBe('321');
    expect(card('Locked Accounts')).toBe('7');
    expect(card('Total Files')).toBe((4567).toLocaleString());
    expect(card('Active Sessions')).toBe('42');
    expect(card('New Users (7d)')).toBe('15');
    expect(screen.getByText(/^Last updated /)).toBeTruthy();

    stats = { ...STATS, lockedUsers: 9, timestamp: '2026-11-26T11:00:00.000Z' };
    await app.user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(card('Locked Accounts')).toBe('9'));
    expect(app.requested('GET', '/api/admin/stats')).toHaveLength(2);
    expect(app.requested('GET', '/api/admin/activity')).toHaveLength(2);
  });

  it('draws the activity as a labelled image with a data table of daily totals for screen readers', async () => {
    const server = new FakeServer()
      .on('GET /api/admin/stats', () => json(200, STATS))
      .on('GET /api/admin/activity', () => json(200, activity()));
    renderAdminTab(<OverviewTab />, { server });
    const chart = await screen.findByRole('img', { name: /Activity per hour, last 7 days/ });
    expect(chart.getAttribute('aria-labelledby')).toBeTruthy();
    expect(chart.textContent).toContain('Last 7 days: 42 sign-ups and 28 failed sign-ins');
    const table = screen.getByRole('table', { name: /per day/ });
    const days = dailyTotals(activity().hours);
    expect(within(table).getAllByRole('row')).toHaveLength(days.length + 1);
    expect(days.reduce((n, d) => n + d.signups, 0)).toBe(42);
  });

  it("says 'Failed to load admin data' with the status, and Retry loads the cards", async () => {
    let fail = true;
    const server = new FakeServer()
      .on('GET /api/admin/stats', () => (fail ? json(503, {}) : json(200, STATS)))
      .on('GET /api/admin/activity', () => json(200, activity()));
    const app = renderAdminTab(<OverviewTab />, { server });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Failed to load admin data');
    expect(alert.textContent).toContain('Admin API Error: 503');
    fail = false;
    await app.user.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText('Total Users');
  });
});
