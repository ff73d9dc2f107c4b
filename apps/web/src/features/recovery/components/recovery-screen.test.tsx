import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_RECOVERY_KEY, withRecoveryCrypto } from '../../../testing/fake-recovery-crypto';
import { FakeServer, TEST_USER, fakeJwt, json, type FakeHandler } from '../../../testing/fake-server';
import { renderApp } from '../../../testing/render-app';
import { CryptoOperationError } from '../../../workers/crypto-service';
import { RECOVERY_BYPASS_KEY, RECOVERY_USER_KEY } from '../utils/recovery-session';

const EMAIL = 'alice@example.org';
const VERIFIED = {
  bypassToken: 'bypass-token-1',
  message: 'Verification successful. You have 10 minutes to set a new password.',
};
const RESET = {
  access: fakeJwt('reset'),
  user: TEST_USER,
  wrappedVaultKey: `${'e'.repeat(96)}:${'f'.repeat(24)}`,
};
const QUESTIONS = {
  questions: [
    'What was the name of your first pet?',
    'In which city were you born?',
    'What is your favourite book?',
  ],
  questionsSalt: '5a'.repeat(16),
  kdfParams: { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 },
};

type App = Awaited<ReturnType<typeof renderApp>>;

async function start(server = new FakeServer()) {
  const app = await renderApp({ path: '/recovery', server });
  const crypto = withRecoveryCrypto(app.crypto);
  await screen.findByRole('heading', { name: 'Recover your account' });
  return { app, crypto };
}

async function typeEmail(app: App, email = EMAIL) {
  await app.user.type(screen.getByLabelText('Email'), email);
}

async function setPassword(app: App, password = 'New-horse-22', confirm = password) {
  await screen.findByLabelText('New password');
  await app.user.type(screen.getByLabelText('New password'), password);
  await app.user.type(screen.getByLabelText('Confirm new password'), confirm);
}

/** Chooses a way to prove the account (its button), types `text` into its field and submits. */
async function prove(app: App, way: string, field: string, text: string, submit: string) {
  await typeEmail(app);
  await app.user.click(screen.getByRole('button', { name: way }));
  await app.user.type(await screen.findByLabelText(field), text);
  await app.user.click(screen.getByRole('button', { name: submit }));
}

const alertText = async () => (await screen.findByRole('alert')).textContent;

/** The alert after choosing a way (its button) while the server answers `route` with `handler`. */
async function alertOnChoosing(button: string, route: string, handler: FakeHandler) {
  const { app } = await start(new FakeServer().on(route, handler));
  await typeEmail(app);
  await app.user.click(screen.getByRole('button', { name: button }));
  return alertText();
}

describe('recovery screen: choose', () => {
  afterEach(() => sessionStorage.clear());

  it('offers the three ways and a link back to sign in', async () => {
    const { app } = await start();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    for (const name of ['Email Recovery Code', 'Security Questions', 'Recovery Key']) {
      expect(screen.getByRole('button', { name })).toBeTruthy();
    }
    await app.user.click(screen.getByRole('link', { name: 'Back to sign in' }));
    expect(app.router.state.location.pathname).toBe('/login');
  });

  it.each(['Email Recovery Code', 'Security Questions', 'Recovery Key'])(
    "%s without an e-mail: 'Please enter your email address', no call",
    async (name) => {
      const { app } = await start();
      await app.user.type(screen.getByLabelText('Email'), '   ');
      await app.user.click(screen.getByRole('button', { name }));
      expect(await alertText()).toBe('Please enter your email address');
      expect(app.server.requests.filter((r) => r.path.startsWith('/api/auth/recovery'))).toHaveLength(0);
    },
  );
});

describe('recovery screen: e-mail code', () => {
  afterEach(() => sessionStorage.clear());

  function server() {
    return new FakeServer()
      .on('POST /api/auth/recovery/email-code', () =>
        json(200, { message: 'If an account exists for this email, a recovery code has been sent.' }),
      )
      .on('POST /api/auth/recovery/verify-email', (req) =>
        (req.body as { code: string }).code === '123456'
          ? json(200, VERIFIED)
          : json(400, { error: 'Invalid recovery code', code: 'INVALID_RECOVERY_CODE' }),
      )
      .on('POST /api/auth/recovery/reset', () => json(200, RESET));
  }

  it("'Failed to send recovery email' when the code cannot be sent", async () => {
    expect(
      await alertOnChoosing('Email Recovery Code', 'POST /api/auth/recovery/email-code', () =>
        json(500, { error: 'boom' }),
      ),
    ).toBe('Failed to send recovery email');
  });

  it('a rate limit says so', async () => {
    expect(
      await alertOnChoosing('Email Recovery Code', 'POST /api/auth/recovery/email-code', () =>
        json(429, { error: 'Too many requests. Please try again later.', retryAfter: 60 }),
      ),
    ).toBe('Too many requests. Please try again later.');
  });

  it('keeps digits only, wants 6 of them, and shows "Invalid recovery code"', async () => {
    const { app } = await start(server());
    await typeEmail(app, ' alice@example.org ');
    await app.user.click(screen.getByRole('button', { name: 'Email Recovery Code' }));
    await screen.findByRole('heading', { name: 'Check your email' });
    expect(app.server.calls('POST /api/auth/recovery/email-code')[0]?.body).toEqual({ email: EMAIL });
    expect(screen.getByText(/a recovery code has been sent/)).toBeTruthy();
    const field = screen.getByLabelText<HTMLInputElement>('Recovery code');
    await app.user.type(field, '12a-34');
    expect(field.value).toBe('1234');
    await app.user.click(screen.getByRole('button', { name: 'Verify code' }));
    expect(await alertText()).toBe('Please enter the 6-digit recovery code');
    expect(app.server.calls('POST /api/auth/recovery/verify-email')).toHaveLength(0);
    await app.user.type(field, '99');
    await app.user.click(screen.getByRole('button', { name: 'Verify code' }));
    await waitFor(async () => expect(await alertText()).toBe('Invalid recovery code'));
    expect(app.server.calls('POST /api/auth/recovery/verify-email')[0]?.body).toEqual({
      email: EMAIL,
      code: '123499',
    });
  });

  it('verified: token and temporary user in session storage, 10 minutes, then a new vault key after a plain warning', async () => {
    const { app, crypto } = await start(server());
    await prove(app, 'Email Recovery Code', 'Recovery code', '123456', 'Verify code');
    await screen.findByRole('heading', { name: 'Set a new password' });

    expect(sessionStorage.getItem(RECOVERY_BYPASS_KEY)).toBe('bypass-token-1');
    expect(JSON.parse(sessionStorage.getItem(RECOVERY_USER_KEY) ?? '{}')).toMatchObject({
      id: 'temp-recovery',
      email: EMAIL,
    });
    expect(screen.getByText(/You have 10 minutes to set a new password/)).toBeTruthy();
    // Said before the user confirms: a new vault key, the old items locked until the old password.
    expect(screen.getByText('A new vault key will be created')).toBeTruthy();
    expect(screen.getByText(/stay stored but locked until you enter your old password/)).toBeTruthy();

    // The sign-up password rules, in order.
    await setPassword(app, 'New-horse', 'New-horse');
    await app.user.click(screen.getByRole('button', { name: 'Set new password and create a new vault key' }));
    expect(await alertText()).toBe('Password must contain at least one number');
    await app.user.clear(screen.getByLabelText('New password'));
    await app.user.clear(screen.getByLabelText('Confirm new password'));
    await setPassword(app, 'New-horse-22', 'New-horse-23');
    await app.user.click(screen.getByRole('button', { name: 'Set new password and create a new vault key' }));
    expect(await alertText()).toBe('Passwords do not match');
    await app.user.clear(screen.getByLabelText('Confirm new password'));
    await app.user.type(screen.getByLabelText('Confirm new password'), 'New-horse-22');
    await app.user.click(screen.getByRole('button', { name: 'Set new password and create a new vault key' }));
    expect(await alertText()).toBe(
      'Please confirm that you understand your existing notes and files stay locked',
    );
    expect(app.server.calls('POST /api/auth/recovery/reset')).toHaveLength(0);

    await app.user.click(screen.getByRole('checkbox', { name: /stay locked until I enter my old password/ }));
    await app.user.click(screen.getByRole('button', { name: 'Set new password and create a new vault key' }));
    await screen.findByRole('heading', { name: 'Account recovered' });
    expect(crypto.calls).toContain('createResetMaterial:new');
    const [reset] = app.server.calls('POST /api/auth/recovery/reset');
    expect(reset?.body).toEqual({
      bypassToken: 'bypass-token-1',
      authKey: crypto.authKeyFor('New-horse-22'),
      salt: '1'.repeat(32),
      kdfParams: { kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
      wrappedVaultKey: `${'e'.repeat(96)}:${'f'.repeat(24)}`,
      newVaultKey: true,
    });
    expect(JSON.stringify(app.server.requests)).not.toContain('New-horse-22');
    expect(screen.getByText(/For the next 10 minutes/)).toBeTruthy();
    expect(app.services.session.getState().user).toBeNull();

    await app.user.click(screen.getByRole('button', { name: 'Continue to Vault' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/vault'));
    expect(app.services.session.getState()).toMatchObject({
      user: { id: TEST_USER.id, token: RESET.access },
      vaultKey: crypto.newVaultKey,
    });
    expect(sessionStorage.getItem(RECOVERY_BYPASS_KEY)).toBeNull();
  });

  it("'Try another way' goes back to the choice and forgets the token", async () => {
    const { app } = await start(server());
    await prove(app, 'Email Recovery Code', 'Recovery code', '123456', 'Verify code');
    await screen.findByRole('heading', { name: 'Set a new password' });
    await app.user.click(screen.getByRole('button', { name: 'Try another way' }));
    await screen.findByRole('button', { name: 'Security Questions' });
    expect(sessionStorage.getItem(RECOVERY_BYPASS_KEY)).toBeNull();
  });

  it('an expired or used token says so', async () => {
    const srv = server().on('POST /api/auth/recovery/reset', () =>
      json(401, { error: 'Invalid or expired recovery token', code: 'INVALID_BYPASS_TOKEN' }),
    );
    const { app } = await start(srv);
    await prove(app, 'Email Recovery Code', 'Recovery code', '123456', 'Verify code');
    await setPassword(app);
    await app.user.click(screen.getByRole('checkbox', { name: /stay locked/ }));
    await app.user.click(screen.getByRole('button', { name: 'Set new password and create a new vault key' }));
    expect(await alertText()).toBe('This recovery has expired or was already used. Please start again.');
  });
});

describe('recovery screen: security questions', () => {
  afterEach(() => sessionStorage.clear());

  const NO_QUESTIONS = 'No security questions found for this account. Try email recovery instead.';
  it.each([
    [
      "404: 'No security questions found for this account. Try email recovery instead.'",
      404,
      { error: NO_QUESTIONS },
      NO_QUESTIONS,
    ],
    ['an empty list says the same', 200, { ...QUESTIONS, questions: [] }, NO_QUESTIONS],
    [
      "'Failed to load security questions' on any other failure",
      500,
      { error: 'x' },
      'Failed to load security questions',
    ],
  ] as const)('%s', async (_name, status, body, alert) => {
    expect(
      await alertOnChoosing('Security Questions', 'POST /api/auth/recovery/get-questions', () =>
        json(status, body),
      ),
    ).toBe(alert);
  });

  it('every answer is required; the answers stay on the device (answersAuth only); wrong ones are "Incorrect answers"', async () => {
    let correct = '';
    const srv = new FakeServer()
      .on('POST /api/auth/recovery/get-questions', () => json(200, QUESTIONS))
      .on('POST /api/auth/recovery/verify-questions', (req) =>
        (req.body as { answersAuth: string }).answersAuth === correct
          ? json(200, VERIFIED)
          : json(401, { error: 'Incorrect answers' }),
      );
    const { app, crypto } = await start(srv);
    correct = crypto.answersAuthFor(['Rex', 'Paris', 'Dune']);
    await typeEmail(app);
    await app.user.click(screen.getByRole('button', { name: 'Security Questions' }));
    await screen.findByRole('heading', { name: 'Answer your security questions' });
    expect(app.server.calls('POST /api/auth/recovery/get-questions')[0]?.body).toEqual({ email: EMAIL });
    await app.user.type(screen.getByLabelText(QUESTIONS.questions[0]!), 'Rex');
    await app.user.type(screen.getByLabelText(QUESTIONS.questions[1]!), '  ');
    await app.user.type(screen.getByLabelText(QUESTIONS.questions[2]!), 'Dune');
    await app.user.click(screen.getByRole('button', { name: 'Verify answers' }));
    expect(await alertText()).toBe('Please answer all security questions');
    expect(app.server.calls('POST /api/auth/recovery/verify-questions')).toHaveLength(0);

    await app.user.type(screen.getByLabelText(QUESTIONS.questions[1]!), 'Lyon');
    await app.user.click(screen.getByRole('button', { name: 'Verify answers' }));
    await waitFor(async () => expect(await alertText()).toBe('Incorrect answers'));
    expect(crypto.calls).toContain(`deriveRecoveryAnswersAuth:${QUESTIONS.questionsSalt}`);

    await app.user.clear(screen.getByLabelText(QUESTIONS.questions[1]!));
    await app.user.type(screen.getByLabelText(QUESTIONS.questions[1]!), 'Paris');
    await app.user.click(screen.getByRole('button', { name: 'Verify answers' }));
    await screen.findByRole('heading', { name: 'Set a new password' });
    const calls = app.server.calls('POST /api/auth/recovery/verify-questions');
    expect(calls.at(-1)?.body).toEqual({ email: EMAIL, answersAuth: correct });
    expect(JSON.stringify(app.server.requests)).not.toMatch(/Rex|Paris|Dune/);
    expect(sessionStorage.getItem(RECOVERY_BYPASS_KEY)).toBe('bypass-token-1');
    expect(screen.getByText('A new vault key will be created')).toBeTruthy();
  });
});

describe('recovery screen: recovery key', () => {
  afterEach(() => sessionStorage.clear());

  function server() {
    return new FakeServer()
      .on('POST /api/auth/recovery/verify-key', (req) =>
        (req.body as { recoveryAuth: string }).recoveryAuth.startsWith('726b3a4142')
          ? json(200, { ...VERIFIED, recoveryWrappedVaultKey: 'recovery-wrapped' })
          : json(401, { error: 'Invalid recovery key' }),
      )
      .on('POST /api/auth/recovery/reset', () => json(200, RESET));
  }

  it('refuses text that is not a recovery key, and shows "Invalid recovery key"', async () => {
    const { app } = await start(server());
    await prove(app, 'Recovery Key', 'Recovery key', 'not-a-key', 'Verify recovery key');
    expect(await alertText()).toBe('Please enter your recovery key (52 characters, dashes optional)');
    expect(app.server.calls('POST /api/auth/recovery/verify-key')).toHaveLength(0);
    await app.user.clear(screen.getByLabelText('Recovery key'));
    await app.user.type(screen.getByLabelText('Recovery key'), 'Z'.repeat(52));
    await app.user.click(screen.getByRole('button', { name: 'Verify recovery key' }));
    await waitFor(async () => expect(await alertText()).toBe('Invalid recovery key'));
  });

  it('brings the same vault key back under the new password (newVaultKey false)', async () => {
    const { app, crypto } = await start(server());
    await typeEmail(app);
    await app.user.click(screen.getByRole('button', { name: 'Recovery Key' }));
    await app.user.type(await screen.findByLabelText('Recovery key'), FAKE_RECOVERY_KEY.toLowerCase());
    await app.user.click(screen.getByRole('button', { name: 'Verify recovery key' }));
    await screen.findByRole('heading', { name: 'Set a new password' });
    expect(app.server.calls('POST /api/auth/recovery/verify-key')[0]?.body).toEqual({
      email: EMAIL,
      recoveryAuth: crypto.recoveryAuthFor(FAKE_RECOVERY_KEY),
    });
    expect(JSON.stringify(app.server.requests)).not.toContain('ABCD');
    expect(screen.getByText('Your vault comes back as it is')).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    await setPassword(app);
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    await screen.findByRole('heading', { name: 'Account recovered' });
    expect(crypto.calls).toContain('createResetMaterial:keep:recovery-wrapped');
    expect(app.server.calls('POST /api/auth/recovery/reset')[0]?.body).toMatchObject({ newVaultKey: false });

    await app.user.click(screen.getByRole('button', { name: 'Go to Security Settings' }));
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/settings'));
    expect(app.router.state.location.search).toBe('?tab=security&recovery=true');
    expect(app.services.session.getState().vaultKey).toBe(crypto.vaultKey);
  });
});

describe('recovery screen: a key the recovery key does not open', () => {
  afterEach(() => sessionStorage.clear());

  it("says 'Failed to reset your password' and sends nothing", async () => {
    const srv = new FakeServer().on('POST /api/auth/recovery/verify-key', () =>
      json(200, { ...VERIFIED, recoveryWrappedVaultKey: 'not-this-key' }),
    );
    const { app, crypto } = await start(srv);
    crypto.createResetMaterial = async () => {
      throw new CryptoOperationError(
        'DECRYPT_FAILED',
        "open 'vault:v1:vault-key:recovery': decryption failed",
      );
    };
    await prove(app, 'Recovery Key', 'Recovery key', FAKE_RECOVERY_KEY, 'Verify recovery key');
    await setPassword(app);
    await app.user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await alertText()).toBe('Failed to reset your password');
    expect(app.server.calls('POST /api/auth/recovery/reset')).toHaveLength(0);
  });
});

describe('recovery screen: two-step verification on the account', () => {
  afterEach(() => sessionStorage.clear());

  it('asks for a code after "Invalid verification code" and retries with the same material', async () => {
    const srv = new FakeServer()
      .on('POST /api/auth/recovery/email-code', () => json(200, { message: 'sent' }))
      .on('POST /api/auth/recovery/verify-email', () => json(200, VERIFIED))
      .on('POST /api/auth/recovery/reset', (req) => {
        const b = req.body as { code?: string; backupCode?: string };
        return b.code === '654321' || b.backupCode === 'ABCD-1234'
          ? json(200, RESET)
          : json(401, { error: 'Invalid verification code', code: 'INVALID_2FA_CODE' });
      });
    const { app, crypto } = await start(srv);
    await prove(app, 'Email Recovery Code', 'Recovery code', '123456', 'Verify code');
    await setPassword(app);
    await app.user.click(screen.getByRole('checkbox', { name: /stay locked/ }));
    const submit = () =>
      app.user.click(screen.getByRole('button', { name: 'Set new password and create a new vault key' }));
    await submit();

    const codeField = await screen.findByLabelText<HTMLInputElement>('Verification code');
    expect(screen.getByText(/two-step verification/)).toBeTruthy();
    await submit();
    expect(await alertText()).toBe('Please enter the 6-digit verification code');
    await app.user.type(codeField, '111111');
    await submit();
    await waitFor(async () => expect(await alertText()).toBe('Invalid verification code'));

    await app.user.click(screen.getByRole('button', { name: 'Use a backup code instead' }));
    await app.user.type(screen.getByLabelText('Backup code'), 'abcd-1234');
    await submit();
    await screen.findByRole('heading', { name: 'Account recovered' });
    const resets = app.server.calls('POST /api/auth/recovery/reset');
    expect(resets).toHaveLength(3);
    expect(resets[1]?.body).toMatchObject({ code: '111111' });
    expect(resets[2]?.body).toMatchObject({ backupCode: 'ABCD-1234', newVaultKey: true });
    expect(resets[2]?.body).not.toHaveProperty('code');
    expect(crypto.calls.filter((c) => c.startsWith('createResetMaterial'))).toHaveLength(1);
  });
});
