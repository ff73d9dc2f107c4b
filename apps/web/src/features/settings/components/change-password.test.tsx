import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TEST_VAULT, json } from '../../../testing/fake-server';
import { NEW_WRAPPED, renderSettings, settingsServer } from '../testing/settings-harness';

async function fill(
  user: Awaited<ReturnType<typeof renderSettings>>['user'],
  current: string,
  next: string,
  confirm: string,
) {
  const form = await screen.findByRole('form', { name: 'Change password' });
  const [cur, nw, conf] = [
    screen.getByLabelText('Current password'),
    screen.getByLabelText('New password'),
    screen.getByLabelText('Confirm new password'),
  ];
  await user.clear(cur);
  await user.clear(nw);
  await user.clear(conf);
  if (current) await user.type(cur, current);
  if (next) await user.type(nw, next);
  if (confirm) await user.type(conf, confirm);
  return form;
}

describe('Settings › Change password', () => {
  it('checks the fields in the spec order, then the sign-up password rules, before any key derivation', async () => {
    const app = await renderSettings('/settings?tab=security');
    const submit = async () => app.user.click(screen.getByRole('button', { name: 'Change password' }));

    const cases: [current: string, next: string, confirm: string, message: string][] = [
      ['', '', '', 'Please fill in all password fields'],
      ['Correct-horse-1', 'Another-pass-2', 'Another-pass-3', 'New passwords do not match'],
      ['Correct-horse-1', 'Ab1', 'Ab1', 'New password must be at least 8 characters'],
      [
        'Correct-horse-1',
        'alllowercase1',
        'alllowercase1',
        'Password must contain at least one uppercase letter',
      ],
      ['Correct-horse-1', 'NoDigitsHere', 'NoDigitsHere', 'Password must contain at least one number'],
    ];
    for (const [current, next, confirm, message] of cases) {
      await fill(app.user, current, next, confirm);
      await submit();
      expect(await screen.findByText(message)).toBeTruthy();
    }

    expect(app.crypto.accountCalls).toEqual([]);
    expect(app.server.calls('POST /api/auth/change-password')).toEqual([]);
  });

  it('re-wraps the vault key on the device with a progress indicator, sends only keys, and says other sessions end', async () => {
    const server = settingsServer().on('POST /api/auth/change-password', () => json(204));
    const app = await renderSettings('/settings?tab=security', server);
    const release = app.crypto.hold();
    await fill(app.user, 'Correct-horse-1', 'Brand-new-pass-2', 'Brand-new-pass-2');
    await app.user.click(screen.getByRole('button', { name: 'Change password' }));

    expect(await screen.findByText(/Deriving your keys on this device/)).toBeTruthy();
    expect(screen.getByRole('button', { name: /Changing password/ }).hasAttribute('disabled')).toBe(true);
    release();

    expect(await screen.findByText('Password changed successfully')).toBeTruthy();
    expect(screen.getByText('Your other devices have been signed out.')).toBeTruthy();
    expect(app.crypto.accountCalls[0]).toEqual({
      op: 'changePassword',
      args: ['Correct-horse-1', 'Brand-new-pass-2', TEST_VAULT],
    });
    const [call] = server.calls('POST /api/auth/change-password');
    expect(call?.body).toEqual({
      currentAuthKey: app.crypto.authKeyFor('Correct-horse-1'),
      authKey: app.crypto.authKeyFor('Brand-new-pass-2'),
      salt: '1'.repeat(32),
      kdfParams: TEST_VAULT.kdfParams,
      wrappedVaultKey: NEW_WRAPPED,
    });
    // The password itself never travels.
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain('Brand-new-pass-2');
    expect((screen.getByLabelText('Current password') as HTMLInputElement).value).toBe('');
  });

  it('a wrong current password is caught on the device: no request, the field gets focus', async () => {
    const app = await renderSettings('/settings?tab=security');
    await fill(app.user, 'Wrong-horse-1', 'Brand-new-pass-2', 'Brand-new-pass-2');
    await app.user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect')).toBeTruthy();
    expect(app.server.calls('POST /api/auth/change-password')).toEqual([]);
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Current password')));
  });

  it("shows the server's refusal", async () => {
    const server = settingsServer().on('POST /api/auth/change-password', () =>
      json(401, { error: 'Invalid credentials', code: 'INVALID_CREDENTIALS' }),
    );
    const app = await renderSettings('/settings?tab=security', server);
    await fill(app.user, 'Correct-horse-1', 'Brand-new-pass-2', 'Brand-new-pass-2');
    await app.user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Invalid credentials')).toBeTruthy();
  });

  it('shows and hides each password, and focuses the form after a recovery (recovery=true)', async () => {
    const app = await renderSettings('/settings?tab=security&recovery=true');
    expect(await screen.findByText('You recovered access to your account')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(screen.getByLabelText('Current password')));
    const input = screen.getByLabelText('New password') as HTMLInputElement;
    expect(input.type).toBe('password');
    await app.user.click(screen.getByRole('button', { name: 'Show new password' }));
    expect(input.type).toBe('text');
  });
});
