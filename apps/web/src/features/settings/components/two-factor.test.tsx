import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readFileText } from '../../../lib/read-file-text';
import { TEST_USER, TEST_VAULT, json } from '../../../testing/fake-server';
import { captureDownloads, renderSettings, settingsServer } from '../testing/settings-harness';

const OTPAUTH =
  'otpauth://totp/Vault:alice%40example.org?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Vault&algorithm=SHA1&digits=6&period=30';
const CODES = Array.from({ length: 10 }, (_, i) => `A1B2-C3D${i}`);

afterEach(() => {
  vi.restoreAllMocks();
});

function enabledServer(extra?: (s: ReturnType<typeof settingsServer>) => void) {
  const server = settingsServer()
    .on('GET /api/auth/me', () =>
      json(200, { user: { ...TEST_USER, twoFactorEnabled: true }, vault: TEST_VAULT }),
    )
    .on('GET /api/auth/2fa/backup-codes', () =>
      json(200, { unusedCodesCount: 7, totalCodes: 10, generated: '2026-11-02T10:00:00.000Z' }),
    );
  extra?.(server);
  return server;
}

/** The backup codes on screen, once they are shown. */
async function shownBackupCodes() {
  const list = await screen.findByTestId('backup-codes');
  return within(list)
    .getAllByRole('listitem')
    .map((li) => li.textContent);
}

describe('Settings › Two-step verification', () => {
  /** 2FA off; Enable answers OTPAUTH; only 123456 verifies (then 2FA is on and CODES come back). */
  function setupServer() {
    let enabled = false;
    return settingsServer()
      .on('GET /api/auth/me', () =>
        json(200, { user: { ...TEST_USER, twoFactorEnabled: enabled }, vault: TEST_VAULT }),
      )
      .on('POST /api/auth/2fa/enable', () => json(200, { otpauthUrl: OTPAUTH }))
      .on('POST /api/auth/2fa/verify', (req) => {
        if ((req.body as { code: string }).code !== '123456') {
          return json(400, { error: 'Invalid verification code', code: 'INVALID_VERIFICATION_CODE' });
        }
        enabled = true;
        return json(200, { backupCodes: CODES });
      });
  }

  it('Enable draws the QR code in the browser, shows the key, and Verify needs exactly 6 digits', async () => {
    const server = setupServer();
    const app = await renderSettings('/settings?tab=security', server);
    expect(await screen.findByText('Disabled')).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Enable 2FA' }));

    const qr = (await screen.findByRole('img', {
      name: 'QR code for your authenticator app',
    })) as HTMLImageElement;
    expect(qr.src.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(qr.src)).toContain('<svg');
    expect(screen.getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP');
    expect(server.calls('POST /api/auth/2fa/enable')[0]?.body).toEqual({});

    const verify = screen.getByRole('button', { name: 'Verify and enable' });
    const field = screen.getByLabelText('Verification code') as HTMLInputElement;
    expect(verify.hasAttribute('disabled')).toBe(true);
    await app.user.type(field, '12a3');
    expect(field.value).toBe('123');
    expect(verify.hasAttribute('disabled')).toBe(true);
    await app.user.clear(field);
    await app.user.tab();
    expect(await screen.findByText('Please enter verification code')).toBeTruthy();

    await app.user.type(field, '654321');
    expect(verify.hasAttribute('disabled')).toBe(false);
    await app.user.click(verify);
    expect(await screen.findByText('Invalid verification code')).toBeTruthy();
    expect(field.value).toBe('');
    await waitFor(() => expect(document.activeElement).toBe(field));
  });

  it('the right code shows the 10 backup codes once, with Copy and Download (.txt)', async () => {
    const app = await renderSettings('/settings?tab=security', setupServer());
    await app.user.click(await screen.findByRole('button', { name: 'Enable 2FA' }));
    const field = (await screen.findByLabelText('Verification code')) as HTMLInputElement;
    await app.user.type(field, '1234567');
    expect(field.value).toBe('123456');
    await app.user.click(screen.getByRole('button', { name: 'Verify and enable' }));
    expect(await shownBackupCodes()).toEqual(CODES);
    expect(screen.getByText('Two-step verification is on.')).toBeTruthy();

    // Copy puts all ten codes on the clipboard; Download saves them as a .txt.
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await app.user.click(screen.getByRole('button', { name: 'Copy codes' }));
    expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
    expect(await screen.findByText('Copied to clipboard')).toBeTruthy();
    const downloads = captureDownloads();
    try {
      await app.user.click(screen.getByRole('button', { name: 'Download (.txt)' }));
      expect(downloads.files).toHaveLength(1);
      expect(downloads.files[0]?.name).toMatch(/^vault-backup-codes-\d{4}-\d{2}-\d{2}\.txt$/);
      const text = await readFileText(downloads.files[0]!.blob);
      for (const code of CODES) expect(text).toContain(code);
      expect(text).toContain(TEST_USER.email);
    } finally {
      downloads.restore();
    }

    // The codes are shown once: after "saved", the enabled state with Disable.
    await app.user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(await screen.findByRole('button', { name: 'Disable 2FA' })).toBeTruthy();
    expect(screen.queryByTestId('backup-codes')).toBeNull();
  });

  it("a failed enable says 'Failed to enable 2FA'", async () => {
    const server = settingsServer().on('POST /api/auth/2fa/enable', () => json(503));
    const app = await renderSettings('/settings?tab=security', server);
    await app.user.click(await screen.findByRole('button', { name: 'Enable 2FA' }));
    expect(await screen.findByText('Failed to enable 2FA')).toBeTruthy();
  });

  it('Cancel leaves the setup without enabling', async () => {
    const server = settingsServer().on('POST /api/auth/2fa/enable', () => json(200, { otpauthUrl: OTPAUTH }));
    const app = await renderSettings('/settings?tab=security', server);
    await app.user.click(await screen.findByRole('button', { name: 'Enable 2FA' }));
    await screen.findByRole('img', { name: 'QR code for your authenticator app' });
    await app.user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByRole('button', { name: 'Enable 2FA' })).toBeTruthy();
    expect(server.calls('POST /api/auth/2fa/verify')).toEqual([]);
  });

  it('Disable asks for a current code in a confirmation dialog; Escape closes it', async () => {
    let enabled = true;
    const server = enabledServer((s) =>
      s
        .on('GET /api/auth/me', () =>
          json(200, { user: { ...TEST_USER, twoFactorEnabled: enabled }, vault: TEST_VAULT }),
        )
        .on('POST /api/auth/2fa/disable', () => {
          enabled = false;
          return json(204);
        }),
    );
    const app = await renderSettings('/settings?tab=security', server);
    expect(await screen.findByText('Enabled')).toBeTruthy();

    await app.user.click(screen.getByRole('button', { name: 'Disable 2FA' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Disable two-step verification?' });
    await app.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await app.user.click(screen.getByRole('button', { name: 'Disable 2FA' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Disable two-step verification?' });
    await app.user.click(within(dialog).getByRole('button', { name: 'Disable 2FA' }));
    expect(await within(dialog).findByText('Please enter verification code')).toBeTruthy();
    await app.user.type(within(dialog).getByLabelText('Verification code'), '246810');
    await app.user.click(within(dialog).getByRole('button', { name: 'Disable 2FA' }));

    expect(await screen.findByText('Two-step verification is off.')).toBeTruthy();
    expect(server.calls('POST /api/auth/2fa/disable')[0]?.body).toEqual({ code: '246810' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(await screen.findByRole('button', { name: 'Enable 2FA' })).toBeTruthy();
  });

  it('Disable with the password sends its authKey (checked on the device first); failures say so', async () => {
    const server = enabledServer((s) => s.on('POST /api/auth/2fa/disable', () => json(500)));
    const app = await renderSettings('/settings?tab=security', server);
    await app.user.click(await screen.findByRole('button', { name: 'Disable 2FA' }));
    const dialog = await screen.findByRole('alertdialog');
    await app.user.click(within(dialog).getByRole('radio', { name: 'My password' }));
    await app.user.click(within(dialog).getByRole('button', { name: 'Disable 2FA' }));
    expect(await within(dialog).findByText('Please enter your password')).toBeTruthy();

    await app.user.type(within(dialog).getByLabelText('Password'), 'Wrong-horse-1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Disable 2FA' }));
    expect(await within(dialog).findByText('Incorrect password')).toBeTruthy();
    expect(server.calls('POST /api/auth/2fa/disable')).toEqual([]);

    await app.user.clear(within(dialog).getByLabelText('Password'));
    await app.user.type(within(dialog).getByLabelText('Password'), 'Correct-horse-1');
    await app.user.click(within(dialog).getByRole('button', { name: 'Disable 2FA' }));
    expect(await within(dialog).findByText('Failed to disable 2FA')).toBeTruthy();
    expect(server.calls('POST /api/auth/2fa/disable').at(-1)?.body).toEqual({
      authKey: app.crypto.authKeyFor('Correct-horse-1'),
    });

    // The server's own check of the authKey (the auth service answers INVALID_PASSWORD).
    server.on('POST /api/auth/2fa/disable', () =>
      json(401, { error: 'Invalid password', code: 'INVALID_PASSWORD' }),
    );
    await app.user.click(within(dialog).getByRole('button', { name: 'Disable 2FA' }));
    expect(await within(dialog).findByText('Invalid password')).toBeTruthy();
  });

  it('Backup codes: unused of total and the date; Regenerate warns, needs proof and shows the new codes once', async () => {
    const fresh = Array.from({ length: 10 }, (_, i) => `FFFF-000${i}`);
    let fail = true;
    const server = enabledServer((s) =>
      s.on('POST /api/auth/2fa/backup-codes/regenerate', () =>
        fail ? json(502) : json(200, { backupCodes: fresh }),
      ),
    );
    const app = await renderSettings('/settings?tab=security', server);
    const info = await screen.findByTestId('backup-codes-info');
    expect(info.textContent).toContain('7 of 10');
    expect(info.textContent).toContain(
      new Date('2026-11-02T10:00:00.000Z').toLocaleDateString(undefined, {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
      }),
    );

    await app.user.click(screen.getByRole('button', { name: 'Regenerate codes' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Regenerate backup codes?' });
    expect(dialog.textContent).toContain('This will invalidate all existing codes');
    await app.user.type(within(dialog).getByLabelText('Verification code'), '135790');
    await app.user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await within(dialog).findByText('Failed to regenerate backup codes')).toBeTruthy();

    fail = false;
    await app.user.click(within(dialog).getByRole('button', { name: 'Regenerate' }));
    expect(await shownBackupCodes()).toEqual(fresh);
    expect(server.calls('POST /api/auth/2fa/backup-codes/regenerate').at(-1)?.body).toEqual({
      code: '135790',
    });
    await app.user.click(screen.getByRole('button', { name: 'I have saved my codes' }));
    expect(screen.queryByTestId('backup-codes')).toBeNull();
    expect(screen.getByRole('button', { name: 'Regenerate codes' })).toBeTruthy();
  });

  it('the code field of the dialog keeps digits only', async () => {
    const app = await renderSettings('/settings?tab=security', enabledServer());
    await app.user.click(await screen.findByRole('button', { name: 'Regenerate codes' }));
    const field = within(await screen.findByRole('alertdialog')).getByLabelText(
      'Verification code',
    ) as HTMLInputElement;
    fireEvent.change(field, { target: { value: '12-34 56 78' } });
    expect(field.value).toBe('123456');
  });
});
