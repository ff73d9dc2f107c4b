import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { auditEntry } from '../testing/admin-fixtures';
import { queryOf, renderAdminTab } from '../testing/admin-tab-harness';
import { AuditTab } from './audit-tab';

function server() {
  return new FakeServer().on('GET /api/admin/audit', () =>
    json(200, { entries: [3, 2].map((id) => auditEntry(id)), nextBefore: 2 }),
  );
}

describe('Audit log tab', () => {
  it('lists entries newest first and loads older ones with before', async () => {
    const srv = server();
    const app = renderAdminTab(<AuditTab />, { server: srv });
    const table = await screen.findByRole('region', { name: 'Audit log entries' });
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((c) => c.textContent),
    ).toEqual(['user.lock.3', 'user.lock.2']);
    srv.on('GET /api/admin/audit', () => json(200, { entries: [auditEntry(1)], nextBefore: null }));
    await app.user.click(screen.getByRole('button', { name: 'Load more' }));
    await within(table).findByText('user.lock.1');
    expect(queryOf(app.requested('GET', '/api/admin/audit')[1])).toMatchObject({ before: '2' });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('verifies the chain: intact, or the first broken entry', async () => {
    let verify = { ok: true, checked: 3, firstBroken: null as null | { id: number; problem: string } };
    const srv = server().on('GET /api/admin/audit/verify', () => json(200, verify));
    const app = renderAdminTab(<AuditTab />, { server: srv });
    await screen.findByRole('region', { name: 'Audit log entries' });
    await app.user.click(screen.getByRole('button', { name: 'Verify chain' }));
    expect((await screen.findByText('Audit chain intact')).closest('[role=status]')?.textContent).toContain(
      '3 entries checked',
    );

    verify = { ok: false, checked: 2, firstBroken: { id: 2, problem: 'hash mismatch' } };
    await app.user.click(screen.getByRole('button', { name: 'Verify chain' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Audit chain broken');
    expect(alert.textContent).toContain('#2: hash mismatch');
  });

  it('names each action in words, with the failed and unknown outcomes', async () => {
    const actions = ['user.lock', 'user.view', 'session.revoke.failed', 'user.remove-2fa.unknown'];
    const srv = new FakeServer().on('GET /api/admin/audit', () =>
      json(200, { entries: actions.map((action, i) => auditEntry(i + 1, { action })), nextBefore: null }),
    );
    renderAdminTab(<AuditTab />, { server: srv });
    const table = await screen.findByRole('region', { name: 'Audit log entries' });
    const heads = within(table).getAllByRole('rowheader');
    expect(heads.map((c) => c.textContent)).toEqual([
      'Locked an account',
      'Viewed an account',
      'Revoked a session (failed)',
      'Removed two-step verification (outcome unknown)',
    ]);
    expect(heads.map((c) => c.getAttribute('title'))).toEqual(actions);
  });
});
