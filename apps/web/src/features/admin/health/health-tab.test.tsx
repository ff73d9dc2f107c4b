import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeServer, json } from '../../../testing/fake-server';
import { health } from '../testing/admin-fixtures';
import { adminWith, renderAdminTab } from '../testing/admin-tab-harness';
import { HealthTab } from './health-tab';

const FILE_ID = '3f1e9c2a-7b4d-4e8f-9a1b-2c3d4e5f6a7b';
const failed = {
  scans: [
    { fileId: FILE_ID, ownerId: 'o', size: 2048, attempts: 3, failedReason: 'clamd timeout', failedAt: null },
  ],
  total: 1,
};

function server(over = {}) {
  return new FakeServer()
    .on('GET /api/admin/system/health', () => json(200, health(over)))
    .on('GET /api/admin/scans/failed', () => json(200, failed));
}

describe('System Health tab', () => {
  it('shows a down service as Down with its error, the degraded status and the rest of the stack', async () => {
    const down = health().services.map((s) =>
      s.name === 'files'
        ? {
            ...s,
            status: 'down' as const,
            version: null,
            uptimeSeconds: null,
            memory: null,
            error: 'timeout',
          }
        : s,
    );
    renderAdminTab(<HealthTab />, { server: server({ status: 'degraded', services: down }) });
    const services = await screen.findByRole('region', { name: 'Services' });
    const row = within(services).getByRole('rowheader', { name: 'files' }).closest('tr')!;
    expect(row.textContent).toContain('Down');
    expect(row.textContent).toContain('timeout');
    const auth = within(services).getByRole('rowheader', { name: 'auth' }).closest('tr')!;
    expect(auth.textContent).toContain('Up');
    expect(auth.textContent).toContain('1d 2h');
    expect(screen.getByText('Degraded')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Queues' })).getByText('virus-scan')).toBeTruthy();
    expect(within(screen.getByRole('region', { name: 'Storage drivers' })).getByText('local')).toBeTruthy();
    expect(screen.getByText('ClamAV 1.4.1')).toBeTruthy();
    expect(screen.queryByText('Virus signatures are out of date')).toBeNull();
  });

  it('warns when the virus signatures are older than 48 hours', async () => {
    const clamd = { ...health().clamd, signatureAgeHours: 72 };
    renderAdminTab(<HealthTab />, { server: server({ clamd }) });
    await screen.findByText('Virus signatures are out of date');
  });

  it('retries one failed scan, and rescans all files with a reason', async () => {
    const srv = server()
      .on(`POST /api/admin/scans/${FILE_ID}/retry`, () => json(200, { queued: 1 }))
      .on('POST /api/admin/scans/rescan-all', () => json(200, { queued: 120 }));
    const app = renderAdminTab(<HealthTab />, { server: srv });
    await app.user.click(await screen.findByRole('button', { name: `Retry scan of file ${FILE_ID}` }));
    await screen.findByText(`Scan of file ${FILE_ID} queued again`);

    await app.user.click(screen.getByRole('button', { name: 'Rescan all files' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Rescan all files?' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Rescan all files' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Please give a reason');
    expect(srv.calls('POST /api/admin/scans/rescan-all')).toHaveLength(0);
    await app.user.type(within(dialog).getByLabelText('Reason'), 'New signatures');
    await app.user.click(within(dialog).getByRole('button', { name: 'Rescan all files' }));
    await screen.findByText('120 files queued for a new scan');
    expect(srv.calls('POST /api/admin/scans/rescan-all')[0]?.body).toEqual({ reason: 'New signatures' });
  });

  it('offers no Retry or Rescan without scans:manage', async () => {
    renderAdminTab(<HealthTab />, { server: server(), admin: adminWith('system:read') });
    await screen.findByRole('region', { name: 'Failed scans' });
    await waitFor(() => expect(screen.queryByRole('button', { name: /Retry scan/ })).toBeNull());
    expect(screen.queryByRole('button', { name: 'Rescan all files' })).toBeNull();
  });
});
