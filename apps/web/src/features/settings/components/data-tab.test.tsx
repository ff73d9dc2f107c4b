import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_USER, json } from '../../../testing/fake-server';
import { renderSettings, retype, settingsServer } from '../testing/settings-harness';
import { ACCOUNT_DELETED_NOTICE, confirmsDeletion } from './delete-account-section';

describe('Settings › Data & Privacy', () => {
  it('keeps export and import, and the malware-fingerprint check is explained, off by default and saved when turned on', async () => {
    let stored = false;
    const server = settingsServer()
      .on('GET /api/auth/settings', () => json(200, { malwareFingerprintCheck: stored }))
      .on('PUT /api/auth/settings', (req) => {
        stored = (req.body as { malwareFingerprintCheck: boolean }).malwareFingerprintCheck;
        return json(200, { malwareFingerprintCheck: stored });
      });
    const app = await renderSettings('/settings?tab=data', server);
    expect(await screen.findByRole('heading', { name: 'Export notes' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Malware check for uploads' })).toBeTruthy();
    expect(screen.getByText(/SHA-256 hash/)).toBeTruthy();
    expect(screen.getByText(/recognise a file it already knows/)).toBeTruthy();

    const toggle = (await screen.findByRole('checkbox', {
      name: 'Check my uploads against known malware fingerprints',
    })) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    await app.user.click(toggle);
    expect(server.calls('PUT /api/auth/settings')[0]?.body).toEqual({ malwareFingerprintCheck: true });
    await waitFor(() =>
      expect(
        (screen.getByRole('checkbox', { name: /malware fingerprints/ }) as HTMLInputElement).checked,
      ).toBe(true),
    );
  });

  it('says so when the server has no malware-fingerprint setting (404)', async () => {
    const server = settingsServer().on('GET /api/auth/settings', () =>
      json(404, { error: 'Not found', code: 'NOT_FOUND' }),
    );
    await renderSettings('/settings?tab=data', server);
    expect(
      await screen.findByText('This server does not offer the malware-fingerprint check yet.'),
    ).toBeTruthy();
    expect(screen.queryByRole('checkbox', { name: /malware fingerprints/ })).toBeNull();
  });

  it('Delete Account needs the password and a typed confirmation, then deletes, clears this device and lands on /login', async () => {
    const server = settingsServer().on('DELETE /api/auth/account', () => json(204));
    const app = await renderSettings('/settings?tab=data', server);
    await app.user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your account?' });
    const submit = within(dialog).getByRole('button', { name: 'Delete my account' });
    expect(submit.hasAttribute('disabled')).toBe(true);
    expect(document.activeElement).toBe(within(dialog).getByLabelText('Password'));

    await app.user.type(within(dialog).getByLabelText('Password'), 'Wrong-horse-1');
    await app.user.type(within(dialog).getByLabelText(/^Type DELETE or your username \(alice\)/), 'delete');
    expect(submit.hasAttribute('disabled')).toBe(true);
    await retype(app.user, within(dialog).getByLabelText(/^Type DELETE/), 'DELETE');
    expect(submit.hasAttribute('disabled')).toBe(false);
    await app.user.click(submit);
    expect(await within(dialog).findByText('Incorrect password')).toBeTruthy();
    expect(server.calls('DELETE /api/auth/account')).toEqual([]);

    await retype(app.user, within(dialog).getByLabelText('Password'), 'Correct-horse-1');
    await app.user.click(submit);

    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'));
    expect(server.calls('DELETE /api/auth/account')[0]?.body).toEqual({
      authKey: app.crypto.authKeyFor('Correct-horse-1'),
    });
    expect(await screen.findByText(ACCOUNT_DELETED_NOTICE)).toBeTruthy();
    expect(app.services.session.getState().user).toBeNull();
    expect(app.services.session.getState().vaultKey).toBeNull();
  });

  it('a refused deletion keeps the dialog open with the reason; Escape closes it', async () => {
    const server = settingsServer().on('DELETE /api/auth/account', () => json(503));
    const app = await renderSettings('/settings?tab=data', server);
    await app.user.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = await screen.findByRole('alertdialog');
    await app.user.type(within(dialog).getByLabelText('Password'), 'Correct-horse-1');
    await app.user.type(within(dialog).getByLabelText(/^Type DELETE/), TEST_USER.username);
    await app.user.click(within(dialog).getByRole('button', { name: 'Delete my account' }));
    expect(await within(dialog).findByText('Failed to delete account')).toBeTruthy();
    expect(app.router.state.location.pathname).toBe('/settings');
    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('the typed confirmation is DELETE or the username, exactly', () => {
    expect(confirmsDeletion('DELETE', 'alice')).toBe(true);
    expect(confirmsDeletion(' alice ', 'alice')).toBe(true);
    expect(confirmsDeletion('Delete', 'alice')).toBe(false);
    expect(confirmsDeletion('ALICE', 'alice')).toBe(false);
    expect(confirmsDeletion('', undefined)).toBe(false);
  });
});
