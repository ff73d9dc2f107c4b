import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { routes } from '../../../app/router';
import { AppProviders, createAppServices } from '../../../app/services';
import { memoryKeyStore } from '../../../lib/key-store';
import { DEFAULT_RUNTIME_CONFIG } from '../../../lib/runtime-config';
import { writeSavedUser } from '../../../lib/session/saved-user';
import { memoryStorage } from '../../../lib/storage';
import { FakeCryptoService } from '../../../testing/fake-crypto';
import { FakeServer, TEST_USER, fakeJwt, json } from '../../../testing/fake-server';
import {
  CryptoOperationError,
  type AccountCryptoService,
  type ChangedPasswordMaterial,
  type NewRecoveryKey,
  type VaultMaterial,
} from '../../../workers/crypto-service';

const wrongPassword = () =>
  new CryptoOperationError('DECRYPT_FAILED', "AES-GCM authentication failed (open 'vault:v1:vault-key')");

export const NEW_WRAPPED = `${'e'.repeat(96)}:${'f'.repeat(24)}`;
export const RECOVERY_KEY_TEXT = 'ABCD-EFGH-IJKL-MNOP-QRST-UVWX-YZ23-4567-ABCD-EFGH-IJKL-MNOP-QRST';

/**
 * The fake crypto plus the Settings operations: a password is right only when it is
 * `correctPassword`, authKeys are the fake's hex of the password, and `hold()` keeps the next
 * operation pending (to see the progress state). Records every call with its arguments.
 */
export class SettingsFakeCrypto extends FakeCryptoService implements AccountCryptoService {
  readonly accountCalls: { op: string; args: unknown[] }[] = [];
  private held: Promise<void> | null = null;
  private releaseHeld: (() => void) | null = null;

  hold(): () => void {
    this.held = new Promise((resolve) => {
      this.releaseHeld = resolve;
    });
    return () => this.releaseHeld?.();
  }

  private async gate(): Promise<void> {
    const held = this.held;
    this.held = null;
    if (held) await held;
  }

  async changePassword(
    currentPassword: string,
    newPassword: string,
    material: VaultMaterial,
  ): Promise<ChangedPasswordMaterial> {
    this.accountCalls.push({ op: 'changePassword', args: [currentPassword, newPassword, material] });
    await this.gate();
    if (currentPassword !== this.correctPassword) throw wrongPassword();
    return {
      currentAuthKey: this.authKeyFor(currentPassword),
      authKey: this.authKeyFor(newPassword),
      salt: '1'.repeat(32),
      kdfParams: { kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 },
      wrappedVaultKey: NEW_WRAPPED,
    };
  }

  async createRecoveryKey(password: string, material: VaultMaterial): Promise<NewRecoveryKey> {
    this.accountCalls.push({ op: 'createRecoveryKey', args: [password, material] });
    await this.gate();
    if (password !== this.correctPassword) throw wrongPassword();
    return {
      authKey: this.authKeyFor(password),
      recoveryAuth: '7'.repeat(64),
      recoveryWrappedVaultKey: `${'8'.repeat(96)}:${'9'.repeat(24)}`,
      recoveryKeyText: RECOVERY_KEY_TEXT,
    };
  }

  async verifyPassword(password: string, material: VaultMaterial): Promise<string> {
    this.accountCalls.push({ op: 'verifyPassword', args: [password, material] });
    await this.gate();
    if (password !== this.correctPassword) throw wrongPassword();
    return this.authKeyFor(password);
  }

  /** The recovery screen's operation, which Settings reuses for the answers. */
  async deriveRecoveryAnswersAuth(
    answers: string[],
    questionsSalt: string,
    kdfParams: unknown,
  ): Promise<string> {
    this.accountCalls.push({ op: 'deriveRecoveryAnswersAuth', args: [answers, questionsSalt, kdfParams] });
    await this.gate();
    return 'a'.repeat(64);
  }
}

export const CURRENT_SESSION_ID = '11111111-1111-4111-8111-111111111111';
export const OTHER_SESSION_ID = '22222222-2222-4222-8222-222222222222';

/** A signed-in TEST_USER with the Settings endpoints answering their "nothing set up yet" state. */
export function settingsServer(): FakeServer {
  return new FakeServer()
    .withSession()
    .on('GET /api/auth/security-questions', () => json(200, { questions: [] }))
    .on('GET /api/auth/settings', () => json(200, { malwareFingerprintCheck: false }))
    .on('GET /api/auth/security-events', () => json(200, { events: [], nextCursor: null }))
    .on('GET /api/auth/2fa/backup-codes', () =>
      json(200, { unusedCodesCount: 0, totalCodes: 0, generated: null }),
    )
    .on('GET /api/auth/sessions', () =>
      json(200, {
        sessions: [
          {
            id: OTHER_SESSION_ID,
            current: false,
            ipAddress: '203.0.113.7',
            userAgent:
              'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
            createdAt: '2026-11-01T08:00:00.000Z',
            lastSeenAt: '2026-11-20T08:00:00.000Z',
            expiresAt: '2026-12-01T08:00:00.000Z',
          },
          {
            id: CURRENT_SESSION_ID,
            current: true,
            ipAddress: '127.0.0.1',
            userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
            createdAt: '2026-11-21T08:00:00.000Z',
            lastSeenAt: '2026-11-22T08:00:00.000Z',
            expiresAt: '2026-12-22T08:00:00.000Z',
          },
        ],
      }),
    );
}

/** The whole app at `path`, signed in and unlocked, over `server` and the Settings fake crypto. */
export async function renderSettings(path: string, server: FakeServer = settingsServer()) {
  const crypto = new SettingsFakeCrypto();
  const storage = memoryStorage();
  const keyStore = memoryKeyStore();
  writeSavedUser(storage, { id: TEST_USER.id, email: TEST_USER.email, token: fakeJwt() });
  await keyStore.save(TEST_USER.id, crypto.vaultKey);
  const services = createAppServices({
    config: DEFAULT_RUNTIME_CONFIG,
    storage,
    keyStore,
    crypto,
    fetch: server.fetch as typeof fetch,
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProviders services={services}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, services, router, server, crypto, user };
}

// Shared with the admin console's CSV export test.
export { captureDownloads } from '../../../testing/capture-downloads';

/** Replaces what a field holds with `text`, as a user correcting a typo would. */
export async function retype(
  user: { clear: (el: Element) => Promise<void>; type: (el: Element, text: string) => Promise<void> },
  field: Element,
  text: string,
) {
  await user.clear(field);
  await user.type(field, text);
}
