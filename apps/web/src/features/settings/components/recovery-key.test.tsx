import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { readFileText } from '../../../lib/read-file-text';
import { TEST_USER, TEST_VAULT, json } from '../../../testing/fake-server';
import {
  OTHER_SESSION_ID,
  RECOVERY_KEY_TEXT,
  captureDownloads,
  renderSettings,
  retype,
  settingsServer,
} from '../testing/settings-harness';

describe('Settings › Recovery key', () => {
  it('needs the password, checks it on the device, and shows the new key once with a recovery kit', async () => {
    const server = settingsServer().on('POST /api/auth/recovery/setup-key', () => json(204));
    const app = await renderSettings('/settings?tab=security', server);
    const form = await screen.findByRole('form', { name: 'Create recovery key' });
    expect(screen.getByText(/Creating a new key replaces the old one/)).toBeTruthy();
    const create = within(form).getByRole('button', { name: 'Create recovery key' });
    await app.user.click(create);
    expect(await within(form).findByText('Please enter your password')).toBeTruthy();

    await app.user.type(within(form).getByLabelText('Password'), 'Wrong-horse-1');
    await app.user.click(create);
    expect(await within(form).findByText('Incorrect password')).toBeTruthy();
    expect(server.calls('POST /api/auth/recovery/setup-key')).toEqual([]);

    await retype(app.user, within(form).getByLabelText('Password'), 'Correct-horse-1');
    await app.user.click(create);
    expect((await screen.findByTestId('recovery-key')).textContent).toBe(RECOVERY_KEY_TEXT);
    expect(server.calls('POST /api/auth/recovery/setup-key')[0]?.body).toEqual({
      authKey: app.crypto.authKeyFor('Correct-horse-1'),
      recoveryAuth: '7'.repeat(64),
      recoveryWrappedVaultKey: `${'8'.repeat(96)}:${'9'.repeat(24)}`,
    });
    expect(app.crypto.accountCalls.at(-1)).toEqual({
      op: 'createRecoveryKey',
      args: ['Correct-horse-1', TEST_VAULT],
    });

    const downloads = captureDownloads();
    try {
      await app.user.click(screen.getByRole('button', { name: 'Download (.txt)' }));
      expect(downloads.files[0]?.name).toMatch(/^vault-recovery-kit-\d{4}-\d{2}-\d{2}\.txt$/);
      const kit = await readFileText(downloads.files[0]!.blob);
      expect(kit).toContain(RECOVERY_KEY_TEXT);
      expect(kit).toContain(TEST_USER.email);
      expect(kit).toContain(TEST_USER.username);
      expect(kit).toMatch(/Created: \d{4}-\d{2}-\d{2}T/);
      expect(kit).toContain('Forgot password?');
    } finally {
      downloads.restore();
    }
    await app.user.click(screen.getByRole('button', { name: 'I have saved my recovery key' }));
    expect(screen.queryByTestId('recovery-key')).toBeNull();
    expect(screen.getByRole('form', { name: 'Create recovery key' })).toBeTruthy();
  });
});

describe('Settings › Devices and sessions', () => {
  it('lists the devices with browser, IP and last activity, marks this one, and revokes another', async () => {
    const server = settingsServer().on(`DELETE /api/auth/sessions/${OTHER_SESSION_ID}`, () => json(204));
    const app = await renderSettings('/settings?tab=security', server);
    const list = await screen.findByRole('list', { name: 'Signed-in devices' });
    const items = within(list).getAllByRole('listitem');
    expect(items[0]?.textContent).toContain('Firefox 133 on Linux');
    expect(items[0]?.textContent).toContain('This device');
    expect(items[0]?.textContent).toContain('127.0.0.1');
    expect(within(items[0]!).queryByRole('button')).toBeNull();
    expect(items[1]?.textContent).toContain('Edge 131 on Windows');
    expect(items[1]?.textContent).toContain('203.0.113.7');
    expect(items[1]?.textContent).toContain('last active');

    const calls = server.calls('GET /api/auth/sessions').length;
    await app.user.click(within(items[1]!).getByRole('button', { name: /^Revoke Edge 131 on Windows/ }));
    expect(server.calls(`DELETE /api/auth/sessions/${OTHER_SESSION_ID}`)).toHaveLength(1);
    await screen.findByRole('list', { name: 'Signed-in devices' });
    expect(server.calls('GET /api/auth/sessions').length).toBeGreaterThan(calls);
  });

  it("a failed revoke says 'Failed to revoke session'", async () => {
    const server = settingsServer().on(`DELETE /api/auth/sessions/${OTHER_SESSION_ID}`, () => json(503));
    const app = await renderSettings('/settings?tab=security', server);
    await app.user.click(await screen.findByRole('button', { name: /^Revoke / }));
    expect(await screen.findByText('Failed to revoke session')).toBeTruthy();
  });
});
