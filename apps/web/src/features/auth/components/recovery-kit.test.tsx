import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FAKE_RECOVERY_KEY, withRecoveryCrypto } from '../../../testing/fake-recovery-crypto';
import { FakeServer, TEST_USER, TEST_VAULT, fakeJwt, json } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';
import { fillSignup } from '../testing/signup-form';
import { RECOVERY_KIT_FILE_NAME, recoveryKitText } from '../utils/recovery-kit';

async function signUp() {
  const server = new FakeServer()
    .withSession()
    .on('POST /api/auth/signup', () =>
      json(201, { access: fakeJwt('signup'), user: TEST_USER, wrappedVaultKey: TEST_VAULT.wrappedVaultKey }),
    );
  const app = await renderApp({ path: '/register', server });
  const crypto = withRecoveryCrypto(app.crypto);
  await fillSignup(app);
  await screen.findByRole('heading', { name: 'Save your recovery key' });
  return { app, crypto };
}

describe('recovery kit after sign-up', () => {
  afterEach(() => vi.restoreAllMocks());

  it('registers the recovery key made on the device and shows it once, before the vault opens', async () => {
    const { app, crypto } = await signUp();
    expect(crypto.calls).toContain('createAccountWithRecovery');
    const [signup] = app.server.calls('POST /api/auth/signup');
    expect(signup?.body).toMatchObject({
      recovery: {
        recoveryAuth: crypto.recoveryAuthFor(FAKE_RECOVERY_KEY),
        recoveryWrappedVaultKey: `${'a'.repeat(96)}:${'b'.repeat(24)}`,
      },
    });
    // The key itself never goes to the server.
    expect(JSON.stringify(app.server.requests)).not.toContain(FAKE_RECOVERY_KEY);
    expect(screen.getByLabelText('Recovery key').textContent).toBe(FAKE_RECOVERY_KEY);
    expect(app.router.state.location.pathname).toBe('/register');
    expect(app.services.session.getState().user).toBeNull();

    await app.user.click(screen.getByRole('button', { name: 'I have saved it' }));
    await screen.findByRole('heading', { name: 'Personal Vault' });
    expect(app.router.state.location.pathname).toBe('/vault');
    expect(app.services.session.getState()).toMatchObject({
      user: { id: TEST_USER.id },
      vaultKey: app.crypto.vaultKey,
    });
  });

  it('Copy puts the key on the clipboard', async () => {
    const { app } = await signUp();
    await app.user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Recovery key copied')).toBeTruthy();
    expect(await navigator.clipboard.readText()).toBe(FAKE_RECOVERY_KEY);
  });

  it('Download saves a .txt kit with the e-mail, the date, the key and instructions', async () => {
    const blobs: Blob[] = [];
    const create = vi.fn((b: Blob) => {
      blobs.push(b);
      return 'blob:kit';
    });
    Object.defineProperty(URL, 'createObjectURL', { value: create, configurable: true });
    Object.defineProperty(URL, 'revokeObjectURL', { value: vi.fn(), configurable: true });
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    const { app } = await signUp();
    await app.user.click(screen.getByRole('button', { name: 'Download recovery kit' }));
    expect(names).toEqual([RECOVERY_KIT_FILE_NAME]);
    // jsdom's Blob has no text(): read it like a browser would.
    const text = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blobs[0]!);
    });
    expect(text).toContain('Account email: alice@example.org');
    expect(text).toContain(`Created:       ${new Date().toISOString().slice(0, 10)}`);
    expect(text).toContain(FAKE_RECOVERY_KEY);
    expect(text).toContain('choose "Recovery Key"');
    expect(screen.getByText('Recovery kit downloaded')).toBeTruthy();
  });

  it("'Skip' warns plainly first, then opens the vault", async () => {
    const { app } = await signUp();
    await app.user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(
      screen.getByText(
        'Without your recovery key, a forgotten password means your notes and files cannot be recovered by anyone, not even by us.',
      ),
    ).toBeTruthy();
    await app.user.click(screen.getByRole('button', { name: 'Go back' }));
    expect(screen.queryByText(/cannot be recovered by anyone/)).toBeNull();
    await app.user.click(screen.getByRole('button', { name: 'Skip' }));
    await app.user.click(screen.getByRole('button', { name: 'Skip without saving' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/vault'));
  });

  it('the kit text', () => {
    const text = recoveryKitText({
      email: 'bob@example.org',
      recoveryKeyText: 'AAAA-BBBB',
      createdAt: new Date('2026-11-22T10:00:00Z'),
    });
    expect(text.split('\n').slice(0, 7)).toEqual([
      'VAULT RECOVERY KIT',
      '',
      'Account email: bob@example.org',
      'Created:       2026-11-22',
      '',
      'Recovery key:',
      'AAAA-BBBB',
    ]);
  });
});
