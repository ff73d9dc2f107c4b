import { createHash } from 'node:crypto';
import type {
  AuthResponse,
  LegacyKeysResponse,
  RecoveryKeyVerifiedResponse,
  RecoveryMessageResponse,
  RecoveryQuestionsResponse,
  RecoveryVerifiedResponse,
  SecurityQuestionsResponse,
} from '@vault/contracts';
import {
  createAccount,
  createRecoveryMaterial,
  decryptNote,
  deriveAnswersAuth,
  generateRecoveryKey,
  importVaultKey,
  openRecoveryVaultKey,
  recoveryKeyFromText,
  recoveryKeyToText,
  rewrapVaultKey,
  unlockVault,
  unwrapVaultKeyRaw,
  deriveRecoveryAuth,
  randomBytes,
} from '@vault/crypto';
import Redis from 'ioredis';
import { generate } from 'otplib';
import { FAST_KDF, newIdentity, signIn, signUp, type TestAccount } from '../support/accounts';
import { e2eEnv } from '../support/env';
import { expectError, expectRefreshCookie, meStatus, UUID_V4 } from '../support/expect';
import { ApiClient } from '../support/http';
import { readLogs, settleLogs } from '../support/logs';
import { mailsTo } from '../support/mail';
import { createNote } from '../support/notes';
import { mailCode, newVaultKeyBody, RECOVERY as R, verifyEmail, type Secret } from '../support/recovery';
import { dumpDatabase, dumpRedis } from '../support/stores';

const VERIFIED = 'Verification successful. You have 10 minutes to set a new password.';
const NOTE = {
  title: 'Written before the reset',
  content: 'Only the old vault key opens this',
  tags: ['old'],
};

/** Secrets the tests typed or received; none may be found at rest in clear. */
const secrets: Secret[] = [];

function env() {
  const e = e2eEnv();
  if (!e.redisUrl || !e.redisPrefix || !e.databaseUrl) {
    throw new Error('The recovery e2e tests need VAULT_E2E_REDIS_URL/_PREFIX and VAULT_E2E_DATABASE_URL');
  }
  return { redisUrl: e.redisUrl, redisPrefix: e.redisPrefix, databaseUrl: e.databaseUrl };
}

/** Expires a key of the stack's Redis now (what 15 or 10 minutes of waiting would do). */
async function expireNow(key: string): Promise<void> {
  const { redisUrl, redisPrefix } = env();
  const redis = new Redis(redisUrl);
  try {
    expect(await redis.pexpire(`${redisPrefix}${key}`, 1)).toBe(1);
    await new Promise((r) => setTimeout(r, 20));
  } finally {
    redis.disconnect();
  }
}

const bypassKey = (token: string) => `recovery:bypass:${createHash('sha256').update(token).digest('hex')}`;

function anon(name: string): ApiClient {
  return new ApiClient(name);
}

async function setUpRecoveryKey(account: TestAccount): Promise<{ text: string; recoveryAuth: string }> {
  const rk = generateRecoveryKey();
  const material = await createRecoveryMaterial(rk, {
    password: account.identity.password,
    salt: account.keys.salt,
    kdfParams: account.keys.kdfParams,
    wrappedVaultKey: account.keys.wrappedVaultKey,
  });
  const res = await account.client.post(`${R}/setup-key`, { authKey: account.keys.authKey, ...material });
  expect(res.status).toBe(204);
  const text = recoveryKeyToText(rk);
  secrets.push({ what: 'recovery key (text)', value: text.replace(/-/g, '') });
  secrets.push({ what: 'recovery key (hex)', value: Buffer.from(rk).toString('hex') });
  secrets.push({ what: 'recoveryAuth', value: material.recoveryAuth });
  return { text, recoveryAuth: material.recoveryAuth };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

describe('account recovery (api)', () => {
  describe('e-mail code', () => {
    it('mails a code; the code buys a bypass token; a reset with a new vault key keeps the old one as a legacy key', async () => {
      const account = await signUp();
      const { note } = await createNote(account, NOTE);
      const code = await mailCode(account.identity.email, 0, secrets);
      const [mail] = await mailsTo(account.identity.email);
      expect(mail).toMatch(/^Subject: Your Vault recovery code$/m);
      expect(mail).toContain('expires in 15 minutes');

      const verified = await verifyEmail(account.identity.email.toUpperCase(), code);
      expect(verified.status).toBe(200);
      expect(verified.body.message).toBe(VERIFIED);
      secrets.push({ what: 'bypass token', value: verified.body.bypassToken });

      // Only a recovery-key proof may keep the vault key.
      const keep = await anon('reset').post(`${R}/reset`, {
        ...(await newVaultKeyBody(verified.body.bypassToken, 'x')),
        newVaultKey: false,
      });
      expectError(keep, 400, 'Only a recovery-key recovery can keep the vault key');

      const password = `Reset-${randomBytes(4).join('')}-Aa1`;
      const browser = anon('after-reset');
      const body = await newVaultKeyBody(verified.body.bypassToken, password);
      const reset = await browser.post<AuthResponse>(`${R}/reset`, body, { token: null });
      expect(reset.status).toBe(200);
      expect(reset.body.user.id).toBe(account.user.id);
      expectRefreshCookie(reset);
      browser.access = reset.body.access;

      // Every earlier session is gone; the new one works.
      expect(await meStatus(account.client)).toBe(401);
      expect(await meStatus(browser)).toBe(200);

      // The old note is locked under the new vault key...
      expect(reset.body.wrappedVaultKey).toBe(body.wrappedVaultKey);
      const { vaultKey } = await unlockVault(password, body);
      await expect(decryptNote(vaultKey, note)).rejects.toThrow();

      // ...and opens with the legacy key, unwrapped by the OLD password only.
      const legacy = await browser.get<LegacyKeysResponse>('/api/auth/legacy-keys');
      expect(legacy.status).toBe(200);
      expect(legacy.body.keys).toEqual([
        {
          id: expect.stringMatching(UUID_V4),
          wrappedVaultKey: account.keys.wrappedVaultKey,
          salt: account.keys.salt,
          kdfParams: account.keys.kdfParams,
          createdAt: expect.any(String),
        },
      ]);
      const old = legacy.body.keys[0]!;
      await expect(unwrapVaultKeyRaw(password, old)).rejects.toThrow();
      const oldRaw = await unwrapVaultKeyRaw(account.identity.password, old);
      await expect(decryptNote(await importVaultKey(oldRaw), note)).resolves.toEqual(NOTE);

      // The old password no longer signs in.
      expect((await signIn(anon('old'), account.identity.email, account.identity.password)).status).toBe(401);

      // Another user cannot delete it; the owner can.
      const other = await signUp();
      expect((await other.client.delete(`/api/auth/legacy-keys/${old.id}`)).status).toBe(404);
      expect((await browser.delete(`/api/auth/legacy-keys/${old.id}`)).status).toBe(204);
      expect((await browser.get<LegacyKeysResponse>('/api/auth/legacy-keys')).body.keys).toEqual([]);
    });

    it('a bypass token works once, and not after its 10 minutes', async () => {
      const account = await signUp();
      const first = await verifyEmail(
        account.identity.email,
        await mailCode(account.identity.email, 0, secrets),
      );
      const token = first.body.bypassToken;
      const body = await newVaultKeyBody(token, `Once-${Date.now()}-Aa1`);
      expect((await anon('a').post(`${R}/reset`, body)).status).toBe(200);
      const again = await anon('b').post(`${R}/reset`, body);
      expect(again.status).toBe(401);
      expect(again.body).toMatchObject({ code: 'BYPASS_TOKEN_INVALID' });

      const second = await verifyEmail(
        account.identity.email,
        await mailCode(account.identity.email, 1, secrets),
      );
      await expireNow(bypassKey(second.body.bypassToken));
      const late = await anon('c').post(
        `${R}/reset`,
        await newVaultKeyBody(second.body.bypassToken, 'Late-1-Aa'),
      );
      expect(late.status).toBe(401);
      expect(late.body).toMatchObject({ code: 'BYPASS_TOKEN_INVALID' });
    });

    it('a code expires, and dies after 5 wrong tries', async () => {
      const account = await signUp();
      const email = account.identity.email;
      const expired = await mailCode(email, 0, secrets);
      await expireNow(`recovery:code:${account.user.id}`);
      expectError(await verifyEmail(email, expired), 400, 'Invalid recovery code');

      const code = await mailCode(email, 1, secrets);
      const wrong = code === '999999' ? '999998' : '999999';
      for (let i = 0; i < 5; i += 1)
        expectError(await verifyEmail(email, wrong), 400, 'Invalid recovery code');
      expectError(await verifyEmail(email, code), 400, 'Invalid recovery code');
    });

    it('answers an unknown address with the same message, in the same time class, and mails nothing', async () => {
      const known = await Promise.all([signUp(), signUp(), signUp()]);
      const timed = async (email: string) => {
        const t0 = performance.now();
        const res = await anon('timing').post<RecoveryMessageResponse>(`${R}/email-code`, { email });
        return { ms: performance.now() - t0, res };
      };
      const knownRuns: number[] = [];
      const unknownRuns: number[] = [];
      const messages = new Set<string>();
      for (let round = 0; round < 2; round += 1) {
        for (const account of known) {
          const k = await timed(account.identity.email);
          const u = await timed(newIdentity('ghost').email);
          expect([k.res.status, u.res.status]).toEqual([200, 200]);
          messages.add(k.res.text).add(u.res.text);
          knownRuns.push(k.ms);
          unknownRuns.push(u.ms);
        }
      }
      expect(messages.size).toBe(1);
      const [k, u] = [median(knownRuns), median(unknownRuns)];
      // Both sit on the service's answer floor (250 ms); a generous bound for a shared machine.
      expect(k).toBeGreaterThan(240);
      expect(u).toBeGreaterThan(240);
      expect(Math.abs(k - u)).toBeLessThan(Math.max(150, 0.5 * Math.min(k, u)));
      const ghost = newIdentity('ghost2').email;
      await timed(ghost);
      await new Promise((r) => setTimeout(r, 500));
      expect(await mailsTo(ghost)).toEqual([]);
    });

    it('answers 429 after 3 requests for one address in the window', async () => {
      const email = newIdentity('limited').email;
      for (let i = 0; i < 3; i += 1) {
        expect((await anon('l').post(`${R}/email-code`, { email })).status).toBe(200);
      }
      const res = await anon('l').post(`${R}/email-code`, { email });
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });

  describe('recovery key', () => {
    it('brings access and data back: the note written before opens after the reset, with the same vault key', async () => {
      const account = await signUp();
      const { note } = await createNote(account, NOTE);
      const { text } = await setUpRecoveryKey(account);

      // On another device, with only the recovery kit:
      const rk = recoveryKeyFromText(text.toLowerCase());
      const wrong = await anon('rk').post(`${R}/verify-key`, {
        email: account.identity.email,
        recoveryAuth: await deriveRecoveryAuth(generateRecoveryKey()),
      });
      expectError(wrong, 401, 'Invalid recovery key');
      const verified = await anon('rk').post<RecoveryKeyVerifiedResponse>(`${R}/verify-key`, {
        email: account.identity.email,
        recoveryAuth: await deriveRecoveryAuth(rk),
      });
      expect(verified.status).toBe(200);
      expect(verified.body.message).toBe(VERIFIED);
      const raw = await openRecoveryVaultKey(rk, verified.body.recoveryWrappedVaultKey);
      const password = `Kept-${Date.now()}-Aa1`;
      const next = await rewrapVaultKey(password, raw, { kdfParams: FAST_KDF });
      const browser = anon('rk-reset');
      const reset = await browser.post<AuthResponse>(`${R}/reset`, {
        bypassToken: verified.body.bypassToken,
        ...next,
        newVaultKey: false,
      });
      expect(reset.status).toBe(200);

      const signedIn = await signIn(anon('rk-signin'), account.identity.email, password);
      expect(signedIn.status).toBe(200);
      const { vaultKey } = await unlockVault(password, {
        ...signedIn.prelogin,
        wrappedVaultKey: signedIn.body.wrappedVaultKey,
      });
      await expect(decryptNote(vaultKey, note)).resolves.toEqual(NOTE);
      browser.access = reset.body.access;
      expect((await browser.get<LegacyKeysResponse>('/api/auth/legacy-keys')).body.keys).toEqual([]);
    });

    it('needs the current password to set one', async () => {
      const account = await signUp();
      const material = await createRecoveryMaterial(generateRecoveryKey(), randomBytes(32));
      const res = await account.client.post(`${R}/setup-key`, {
        authKey: (await createAccount('Other-1-Aa', { kdfParams: FAST_KDF })).authKey,
        ...material,
      });
      expect(res.status).toBe(401);
      expect(
        (await anon('x').post(`${R}/setup-key`, { authKey: account.keys.authKey, ...material })).status,
      ).toBe(401);
    });
  });

  describe('with 2FA on', () => {
    const totp = (secret: string, offset = 0) =>
      generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 });

    it('a reset needs a current authenticator code; without one the token stays usable for the retry', async () => {
      const account = await signUp();
      const enable = await account.client.post<{ otpauthUrl: string }>('/api/auth/2fa/enable', {});
      expect(enable.status).toBe(200);
      const secret = new URL(enable.body.otpauthUrl).searchParams.get('secret')!;
      // The previous step's code turns 2FA on; the current one stays unused for the reset.
      expect(
        (await account.client.post('/api/auth/2fa/verify', { code: await totp(secret, -1) })).status,
      ).toBe(200);

      const verified = await verifyEmail(
        account.identity.email,
        await mailCode(account.identity.email, 0, secrets),
      );
      const body = await newVaultKeyBody(verified.body.bypassToken, `Totp-${Date.now()}-Aa1`);
      expectError(await anon('2fa').post(`${R}/reset`, body), 401, 'Invalid verification code');
      expectError(
        await anon('2fa').post(`${R}/reset`, {
          ...body,
          code: (await totp(secret)) === '000000' ? '000001' : '000000',
        }),
        401,
        'Invalid verification code',
      );
      const ok = await anon('2fa').post<AuthResponse>(`${R}/reset`, { ...body, code: await totp(secret) });
      expect(ok.status).toBe(200);
      expect(ok.body.user.twoFactorEnabled).toBe(true);
    });
  });

  describe('security questions', () => {
    const QUESTIONS = [
      'What was the name of your first pet?',
      'In which city were you born?',
      'Your first car?!',
    ];
    const ANSWERS = ['Rex the  Dog', 'Zürich', 'Fiat Panda'];

    it('sets 3 questions (answers stay on the device) and proves them for an access reset', async () => {
      const account = await signUp();
      expect(
        (await account.client.get<SecurityQuestionsResponse>('/api/auth/security-questions')).body,
      ).toEqual({
        questions: [],
      });
      const none = await anon('q').post(`${R}/get-questions`, { email: account.identity.email });
      expectError(none, 404, 'No security questions found for this account. Try email recovery instead.');

      const short = await account.client.post(`${R}/setup-questions`, {
        questions: [{ question: QUESTIONS[0] }, { question: QUESTIONS[1] }],
        questionsSalt: Buffer.from(randomBytes(16)).toString('hex'),
        answersAuth: '00'.repeat(32),
      });
      expectError(
        short,
        400,
        'Please provide 3 complete security questions with answers (questions min 10 chars, answers min 3 chars)',
      );

      const questionsSalt = Buffer.from(randomBytes(16)).toString('hex');
      const answersAuth = await deriveAnswersAuth(ANSWERS, questionsSalt, account.keys.kdfParams);
      secrets.push({ what: 'answersAuth', value: answersAuth });
      for (const a of ['rex the dog', 'zürich', 'fiat panda']) secrets.push({ what: 'answer', value: a });
      const set = await account.client.post(`${R}/setup-questions`, {
        questions: QUESTIONS.map((question) => ({ question })),
        questionsSalt,
        answersAuth,
      });
      expect(set.status).toBe(204);
      expect(
        (await account.client.get<SecurityQuestionsResponse>('/api/auth/security-questions')).body,
      ).toEqual({
        questions: QUESTIONS,
      });

      // Signed out, on another device: the questions, then the answers typed a little differently.
      const got = await anon('q').post<RecoveryQuestionsResponse>(`${R}/get-questions`, {
        email: account.identity.email,
      });
      expect(got.status).toBe(200);
      expect(got.body).toEqual({ questions: QUESTIONS, questionsSalt, kdfParams: account.keys.kdfParams });
      const wrong = await anon('q').post(`${R}/verify-questions`, {
        email: account.identity.email,
        answersAuth: await deriveAnswersAuth(['rex', 'zurich', 'fiat'], questionsSalt, got.body.kdfParams),
      });
      expectError(wrong, 401, 'Incorrect answers');
      const typed = ['  rex THE dog ', 'ZÜRICH', 'fiat\tpanda'];
      const ok = await anon('q').post<RecoveryVerifiedResponse>(`${R}/verify-questions`, {
        email: account.identity.email,
        answersAuth: await deriveAnswersAuth(typed, got.body.questionsSalt, got.body.kdfParams),
      });
      expect(ok.status).toBe(200);
      expect(ok.body.message).toBe(VERIFIED);

      const password = `Questions-${Date.now()}-Aa1`;
      const reset = await anon('q-reset').post<AuthResponse>(
        `${R}/reset`,
        await newVaultKeyBody(ok.body.bypassToken, password),
      );
      expect(reset.status).toBe(200);
      expect((await signIn(anon('q-signin'), account.identity.email, password)).status).toBe(200);
    });
  });

  it('keeps no code, answer, recovery key or token in clear in the database, Redis or any log', async () => {
    expect(secrets.length).toBeGreaterThan(8);
    const { databaseUrl, redisUrl, redisPrefix } = env();
    const logDir = e2eEnv().logDir;
    if (!logDir) throw new Error('VAULT_E2E_LOG_DIR is not set');
    await settleLogs(logDir);
    const stores = [
      ...(await dumpDatabase(databaseUrl)),
      ...(await dumpRedis(redisUrl, redisPrefix)),
      ...readLogs(logDir),
    ];
    // A 6-digit code is looked for as a number of its own (not inside hex or a timestamp's fraction).
    const pattern = (value: string) =>
      /^\d{6}$/.test(value)
        ? new RegExp(`(?<![0-9a-f.])${value}(?![0-9a-f])`, 'i')
        : new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
    const hits = secrets.flatMap(({ what, value }) =>
      stores.filter((s) => pattern(value).test(s.content)).map((s) => `${what} found in ${s.name}`),
    );
    expect(hits).toEqual([]);
  });
});
