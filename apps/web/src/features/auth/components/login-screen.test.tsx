import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { KDF_REFUSED_MESSAGES } from '../../../lib/session/prelogin';
import { STORAGE_KEYS } from '../../../lib/storage';
import { wrongPasswordError } from '../../../testing/fake-crypto';
import { FakeServer, TEST_USER, TEST_VAULT, fakeJwt, json } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';
import { VAULT_KEY_REFUSED } from '../hooks/use-complete-sign-in';

const PRELOGIN = { salt: TEST_VAULT.salt, kdfParams: TEST_VAULT.kdfParams };
const SESSION = { access: fakeJwt('login'), user: TEST_USER, wrappedVaultKey: TEST_VAULT.wrappedVaultKey };

function server() {
  return new FakeServer().withSession().on('POST /api/auth/prelogin', () => json(200, PRELOGIN));
}

async function fillAndSubmit(
  app: Awaited<ReturnType<typeof renderApp>>,
  identifier: string,
  password: string,
) {
  await screen.findByRole('heading', { name: 'Sign in to your vault' });
  if (identifier) await app.user.type(screen.getByLabelText('Username, email or phone'), identifier);
  if (password) await app.user.type(screen.getByLabelText('Password'), password);
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
}

/** Verify: the vault opens, and code 123456 went with alice's identifier and authKey. */
async function verifyCodeAndOpen(app: Awaited<ReturnType<typeof renderApp>>) {
  await app.user.click(screen.getByRole('button', { name: 'Verify' }));
  await screen.findByRole('heading', { name: 'Personal Vault' });
  expect(app.server.calls('POST /api/auth/2fa/login')[0]?.body).toEqual({
    identifier: 'alice',
    authKey: app.crypto.authKeyFor('Correct-horse-1'),
    code: '123456',
  });
}

describe('sign-in screen', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("asks to 'Please fill in all fields' without calling the server", async () => {
    const app = await renderApp({ path: '/login', server: server() });
    await fillAndSubmit(app, 'alice', '');
    expect((await screen.findByRole('alert')).textContent).toBe('Please fill in all fields');
    expect(app.server.calls('POST /api/auth/prelogin')).toHaveLength(0);
  });

  it('signs in with the derived authKey (never the password), keeps the key and goes to /vault', async () => {
    const srv = server().on('POST /api/auth/login', () => json(200, SESSION));
    const app = await renderApp({ path: '/login', server: srv });
    await fillAndSubmit(app, 'alice', 'Correct-horse-1');
    await screen.findByRole('heading', { name: 'Personal Vault' });
    expect(app.router.state.location.pathname).toBe('/vault');
    const [login] = app.server.calls('POST /api/auth/login');
    expect(login?.body).toEqual({ identifier: 'alice', authKey: app.crypto.authKeyFor('Correct-horse-1') });
    expect(JSON.stringify(app.server.requests)).not.toContain('Correct-horse-1');
    expect(app.services.session.getState().vaultKey).toBe(app.crypto.vaultKey);
    expect(JSON.parse(app.storage.get(STORAGE_KEYS.savedUser) ?? '{}')).toEqual({
      id: TEST_USER.id,
      email: TEST_USER.email,
      token: SESSION.access,
    });
    expect(app.keyStore.keys.size).toBe(0);
  });

  it('keeps the key on the device only with "Stay unlocked on this device"', async () => {
    const srv = server().on('POST /api/auth/login', () => json(200, SESSION));
    const app = await renderApp({ path: '/login', server: srv });
    await screen.findByRole('heading', { name: 'Sign in to your vault' });
    await app.user.click(screen.getByRole('checkbox', { name: 'Stay unlocked on this device' }));
    await fillAndSubmit(app, 'alice', 'Correct-horse-1');
    await screen.findByRole('heading', { name: 'Personal Vault' });
    expect(app.keyStore.keys.get(TEST_USER.id)).toBe(app.crypto.vaultKey);
  });

  it("shows the server's message on 401, or 'Login failed'", async () => {
    const srv = server().on('POST /api/auth/login', () => json(401, { error: 'Invalid credentials' }));
    const app = await renderApp({ path: '/login', server: srv });
    await fillAndSubmit(app, 'alice', 'wrong');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid credentials');
    expect(app.crypto.discarded).toEqual(['handle-1']);

    srv.on('POST /api/auth/login', () => new Response('', { status: 401 }));
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('HTTP 401'));
  });

  it("says 'Network error' when the server cannot be reached", async () => {
    const srv = server().on('POST /api/auth/login', () => {
      throw new TypeError('Failed to fetch');
    });
    const app = await renderApp({ path: '/login', server: srv });
    await fillAndSubmit(app, 'alice', 'pw');
    expect((await screen.findByRole('alert')).textContent).toBe('Network error');
  });

  it("says an administrator's lock is one, not failed attempts", async () => {
    const srv = server().on('POST /api/auth/login', () =>
      json(423, {
        error: 'This account has been locked by an administrator',
        retryAfter: 3600,
        lockedBy: 'admin',
      }),
    );
    const app = await renderApp({ path: '/login', server: srv });
    await fillAndSubmit(app, 'alice', 'pw');
    await screen.findByText('Account Temporarily Locked');
    expect(screen.getByText(/This account has been locked by an administrator/)).toBeTruthy();
    expect(screen.queryByText(/consecutive failed login attempts/)).toBeNull();
    expect(screen.getByRole('timer').textContent).toBe('60:00');
  });

  it('locks the form with a live countdown on 423 and re-enables it at zero', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const srv = server().on('POST /api/auth/login', () =>
      json(423, {
        error: 'Account Temporarily Locked due to 5 consecutive failed login attempts',
        retryAfter: 3,
      }),
    );
    const app = await renderApp({ path: '/login', server: srv, advanceTimers: vi.advanceTimersByTime });
    await fillAndSubmit(app, 'alice', 'pw');
    await screen.findByText('Account Temporarily Locked');
    expect(screen.getByText(/due to 5 consecutive failed login attempts/)).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('00:03');
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText('Password') as HTMLInputElement).disabled).toBe(true);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByRole('timer').textContent).toBe('00:02');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2000);
    });
    expect(screen.queryByText('Account Temporarily Locked')).toBeNull();
    expect((screen.getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('counts down from 600 s (10:00) when the answer has no retryAfter', async () => {
    const srv = server().on('POST /api/auth/login', () => json(423, { error: 'Account Temporarily Locked' }));
    const app = await renderApp({ path: '/login', server: srv });
    await fillAndSubmit(app, 'alice', 'pw');
    expect((await screen.findByRole('timer')).textContent).toBe('10:00');
  });

  it('links to sign-up and recovery', async () => {
    await renderApp({ path: '/login' });
    await screen.findByRole('heading', { name: 'Sign in to your vault' });
    expect(screen.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/register');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe(
      '/recovery',
    );
  });

  describe('2FA step', () => {
    function twoFactorServer() {
      return server().on('POST /api/auth/login', () => json(200, { requires2FA: true }));
    }

    it('asks for the code without storing anything, validates it, and signs in with it', async () => {
      const srv = twoFactorServer().on('POST /api/auth/2fa/login', () => json(200, SESSION));
      const app = await renderApp({ path: '/login', server: srv });
      await fillAndSubmit(app, 'alice', 'Correct-horse-1');
      const input = await screen.findByLabelText('Verification code');
      expect(app.storage.get(STORAGE_KEYS.savedUser)).toBeNull();
      expect(app.services.session.getState().user).toBeNull();

      await app.user.type(input, '12a34');
      expect((input as HTMLInputElement).value).toBe('1234');
      await app.user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(screen.getByRole('alert').textContent).toBe('Please enter the 6-digit verification code');
      expect(app.server.calls('POST /api/auth/2fa/login')).toHaveLength(0);

      await app.user.type(input, '5678');
      expect((input as HTMLInputElement).value).toBe('123456');
      await verifyCodeAndOpen(app);
      expect(app.crypto.calls).toContain('openVaultKey:handle-1');
    });

    it("shows the server's error when the 2FA route does not exist yet (404)", async () => {
      const app = await renderApp({ path: '/login', server: twoFactorServer() });
      await fillAndSubmit(app, 'alice', 'pw');
      await app.user.type(await screen.findByLabelText('Verification code'), '123456');
      await app.user.click(screen.getByRole('button', { name: 'Verify' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Not found');
    });

    it('offers a backup code: uppercased, A-F 0-9 and hyphen, max 9, required', async () => {
      const srv = twoFactorServer().on('POST /api/auth/2fa/backup-login', () =>
        json(401, { error: 'Invalid backup code' }),
      );
      const app = await renderApp({ path: '/login', server: srv });
      await fillAndSubmit(app, 'alice', 'pw');
      await app.user.click(await screen.findByRole('button', { name: 'Use a backup code instead' }));
      const input = screen.getByLabelText('Backup code') as HTMLInputElement;
      await app.user.click(screen.getByRole('button', { name: 'Verify' }));
      expect(screen.getByRole('alert').textContent).toBe('Please enter a backup code');
      await app.user.type(input, 'ab12-cdxz3456');
      expect(input.value).toBe('AB12-CD34');
      await app.user.click(screen.getByRole('button', { name: 'Verify' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Invalid backup code');
      expect(app.server.calls('POST /api/auth/2fa/backup-login')[0]?.body).toMatchObject({
        backupCode: 'AB12-CD34',
      });
    });

    it('goes back to the credentials and drops the pending key', async () => {
      const app = await renderApp({ path: '/login', server: twoFactorServer() });
      await fillAndSubmit(app, 'alice', 'pw');
      await app.user.click(await screen.findByRole('button', { name: 'Back to sign in' }));
      await screen.findByRole('heading', { name: 'Sign in to your vault' });
      expect(app.crypto.discarded).toContain('handle-1');
      expect((screen.getByLabelText('Username, email or phone') as HTMLInputElement).value).toBe('alice');
    });
  });

  it('moves to the emergency step on 418 and validates its fields', async () => {
    const srv = server()
      .on('POST /api/auth/login', () =>
        json(418, {
          error: 'Unusual activity detected. Please verify your identity with additional information.',
          requiresEmergencyVerification: true,
        }),
      )
      .on('POST /api/auth/verify-emergency', () => json(200, SESSION));
    const app = await renderApp({ path: '/login', server: srv });
    await fillAndSubmit(app, 'alice', 'Correct-horse-1');
    await screen.findByText(
      'Unusual activity detected. Please verify your identity with additional information.',
    );
    await app.user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(screen.getByRole('alert').textContent).toBe('Please fill in all verification fields');
    await app.user.type(screen.getByLabelText('Username'), 'alice');
    await app.user.type(screen.getByLabelText('Phone number'), '+1 555 0100');
    await app.user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    await screen.findByRole('heading', { name: 'Personal Vault' });
    expect(app.server.calls('POST /api/auth/verify-emergency')[0]?.body).toEqual({
      identifier: 'alice',
      username: 'alice',
      phoneNumber: '+1 555 0100',
      authKey: app.crypto.authKeyFor('Correct-horse-1'),
    });
  });

  it('goes on to the code step after the emergency step when 2FA is on, without the unusual-activity notice', async () => {
    const emergency = 'Unusual activity detected. Please verify your identity with additional information.';
    const srv = server()
      .on('POST /api/auth/login', () => json(418, { error: emergency, requiresEmergencyVerification: true }))
      .on('POST /api/auth/verify-emergency', () => json(200, { requires2FA: true }))
      .on('POST /api/auth/2fa/login', () => json(200, SESSION));
    const app = await renderApp({ path: '/login', server: srv });
    await fillAndSubmit(app, 'alice', 'Correct-horse-1');
    await screen.findByText(emergency);
    await app.user.type(screen.getByLabelText('Username'), 'alice');
    await app.user.type(screen.getByLabelText('Phone number'), '+1 555 0100');
    await app.user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    const input = await screen.findByLabelText('Verification code');
    // The identity is verified: the notice asking for it is gone, and nothing is stored yet.
    expect(screen.queryByText(emergency)).toBeNull();
    expect(app.storage.get(STORAGE_KEYS.savedUser)).toBeNull();
    await app.user.type(input, '123456');
    await verifyCodeAndOpen(app);
  });

  // A hostile server (docs/threat-model.md): prelogin parameters outside the protocol's range are
  // refused before the password reaches the KDF, and nothing derived from it is sent.
  it.each([
    ['weak', { kdf: 'argon2id', memoryKiB: 1024, iterations: 1, parallelism: 1 }],
    ['weak', { kdf: 'pbkdf2-sha256', iterations: 1000 }],
    ['costly', { kdf: 'argon2id', memoryKiB: 64 * 1048576, iterations: 3, parallelism: 4 }],
    ['costly', { kdf: 'pbkdf2-sha256', iterations: 2_000_000_000 }],
    ['unknown', { kdf: 'scrypt', N: 16384, r: 8, p: 1 }],
  ] as const)(
    'refuses %s KDF parameters %j from prelogin before deriving anything',
    async (reason, kdfParams) => {
      const srv = server()
        .on('POST /api/auth/prelogin', () => json(200, { ...PRELOGIN, kdfParams }))
        .on('POST /api/auth/login', () => json(200, SESSION));
      const app = await renderApp({ path: '/login', server: srv });
      await fillAndSubmit(app, 'alice', 'Correct-horse-1');
      expect((await screen.findByRole('alert')).textContent).toBe(KDF_REFUSED_MESSAGES[reason]);
      expect(app.crypto.calls).not.toContain('prepareLogin');
      expect(app.server.calls('POST /api/auth/login')).toHaveLength(0);
    },
  );

  it("refuses a sign-in answer whose vault key does not open with the password (another account's)", async () => {
    const srv = server().on('POST /api/auth/login', () => json(200, SESSION));
    const app = await renderApp({ path: '/login', server: srv });
    app.crypto.openVaultKey = async () => {
      throw wrongPasswordError();
    };
    await fillAndSubmit(app, 'alice', 'Correct-horse-1');
    expect((await screen.findByRole('alert')).textContent).toBe(VAULT_KEY_REFUSED);
    expect(app.router.state.location.pathname).toBe('/login');
    expect(app.services.session.getState().vaultKey).toBeNull();
  });
});
