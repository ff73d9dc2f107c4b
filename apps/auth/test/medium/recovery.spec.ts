import {
  AUTH_PATTERNS,
  DEFAULT_KDF_PARAMS,
  ErrorCode,
  RECOVERY_MESSAGES,
  type AuthResponse,
  type BackupCodesResponse,
  type TwoFactorEnableResponse,
  type LegacyKeysResponse,
  type RecoveryKeyVerifiedResponse,
  type RecoveryMessageResponse,
  type RecoveryQuestionsResponse,
  type RecoveryVerifiedResponse,
  type SecurityQuestionsResponse,
  type WithRefresh,
} from '@vault/contracts';
import Redis from 'ioredis';
import { generate } from 'otplib';
import { createHash } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { RecoveryService } from '../../src/services/recovery.service';
import {
  authOf,
  freePort,
  hex,
  sealedKeyValue,
  signupBody,
  sleep,
  startAuthTestApp,
  type AuthTestApp,
} from './support/auth-test-app';

interface CapturedMail {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free port; every message it accepts lands in `mails`. */
async function startSmtp(): Promise<{ port: number; mails: CapturedMail[]; close(): Promise<void> }> {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe(RecoveryService.name, () => {
  let t: AuthTestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let ipCounter = 0;
  /** A fresh client address per call site, so the per-IP limit only bites where a test wants it. */
  const ip = () => `203.0.113.${(ipCounter += 1)}`;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await startAuthTestApp('recovery', {
      MAIL_TRANSPORT: 'smtp',
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Vault Test <vault@test.localhost>',
      RECOVERY_CODE_IP_MAX: '5',
    });
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const signup = async (overrides = {}) => {
    const body = signupBody(overrides);
    const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.signup, body, { ip: ip() });
    return { body, user: res.body.user, auth: authOf(res.body.user.id, sessionOf(res.body.access)) };
  };

  const sessionOf = (access: string): string =>
    (JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString('utf8')) as { sid: string }).sid;

  const eventTypes = async (userId: string): Promise<string[]> =>
    (
      await t.pg.query<{ event_type: string }>(
        `SELECT event_type FROM auth.security_events WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      )
    ).rows.map((r) => r.event_type);

  /** Waits for the mail worker to hand a message for `email` to the SMTP server; answers the code. */
  const codeMailedTo = async (email: string, after = 0): Promise<string> => {
    for (let i = 0; i < 200; i += 1) {
      const mine = smtp.mails.filter((m) => m.to.includes(email));
      if (mine.length > after) {
        const raw = mine[mine.length - 1]!.raw;
        const code = /recovery code is (\d{6})/.exec(raw)?.[1];
        if (!code) throw new Error('The mail carries no 6-digit code');
        return code;
      }
      await sleep(50);
    }
    throw new Error(`No mail reached ${email}`);
  };

  const requestCode = (email: string, from = ip()) =>
    t.call<RecoveryMessageResponse>(AUTH_PATTERNS.recoveryEmailCode, { email }, { ip: from });

  /** Every key of the test's prefix (BullMQ's included) with its value, as text. */
  const redisDump = async (): Promise<string> => {
    const raw = new Redis(t.redis.url);
    try {
      const out: string[] = [];
      for (const key of await raw.keys(`${t.redis.prefix}*`)) {
        const type = await raw.type(key);
        const value =
          type === 'string'
            ? await raw.get(key)
            : type === 'hash'
              ? await raw.hgetall(key)
              : type === 'list'
                ? await raw.lrange(key, 0, -1)
                : type === 'zset'
                  ? await raw.zrange(key, 0, -1)
                  : type === 'set'
                    ? await raw.smembers(key)
                    : type === 'stream'
                      ? await raw.xrange(key, '-', '+')
                      : '';
        out.push(`${key} ${JSON.stringify(value)}`);
      }
      return out.join('\n');
    } finally {
      raw.disconnect();
    }
  };

  describe('email code', () => {
    it('mails a 6-digit code over SMTP, and the code buys one bypass token', async () => {
      const { user, body } = await signup();
      const answer = await requestCode(body.email.toUpperCase());
      expect(answer).toEqual({ message: RECOVERY_MESSAGES.codeSent });

      const code = await codeMailedTo(body.email);
      const mail = smtp.mails.find((m) => m.to.includes(body.email))!;
      expect(mail.raw).toMatch(/^From: Vault Test <vault@test\.localhost>$/m);
      expect(mail.raw).toMatch(/^Subject: Your Vault recovery code$/m);
      expect(mail.raw).toContain('expires in 15 minutes');

      // Nothing in Redis or in the logs carries the code in clear.
      expect(await redisDump()).not.toContain(code);
      expect(t.logs.join('')).not.toContain(code);

      const verified = await t.call<RecoveryVerifiedResponse>(AUTH_PATTERNS.recoveryVerifyEmail, {
        email: body.email,
        code,
      });
      expect(verified.message).toBe(RECOVERY_MESSAGES.verified);
      expect(verified.message).toContain('10 minutes');
      expect(verified.bypassToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // Single use.
      const again = await t.fail(AUTH_PATTERNS.recoveryVerifyEmail, { email: body.email, code });
      expect(again.code).toBe(ErrorCode.INVALID_RECOVERY_CODE);
      expect(again.status).toBe(400);
      expect(again.message).toBe('Invalid recovery code');
      expect(await eventTypes(user.id)).toEqual(
        expect.arrayContaining(['recovery_code_sent', 'recovery_verified', 'recovery_code_failed']),
      );
    });

    it('answers an unknown address exactly like a known one, and mails nothing', async () => {
      const before = smtp.mails.length;
      const answer = await requestCode(`nobody_${hex(4)}@example.com`);
      expect(answer).toEqual({ message: RECOVERY_MESSAGES.codeSent });
      await sleep(300);
      expect(smtp.mails.length).toBe(before);
      const wrong = await t.fail(AUTH_PATTERNS.recoveryVerifyEmail, {
        email: `nobody_${hex(4)}@example.com`,
        code: '123456',
      });
      expect(wrong.code).toBe(ErrorCode.INVALID_RECOVERY_CODE);
    });

    it('kills a code after 5 wrong tries, so even the right code is refused then', async () => {
      const { body } = await signup();
      await requestCode(body.email);
      const code = await codeMailedTo(body.email);
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < 5; i += 1) {
        const e = await t.fail(AUTH_PATTERNS.recoveryVerifyEmail, { email: body.email, code: wrong });
        expect(e.code).toBe(ErrorCode.INVALID_RECOVERY_CODE);
      }
      const late = await t.fail(AUTH_PATTERNS.recoveryVerifyEmail, { email: body.email, code });
      expect(late.code).toBe(ErrorCode.INVALID_RECOVERY_CODE);
    });

    it('refuses a code once it has expired', async () => {
      const { user, body } = await signup();
      await requestCode(body.email);
      const code = await codeMailedTo(body.email);
      const key = `recovery:code:${user.id}`;
      const ttl = await t.redis.client.ttl(key);
      expect(ttl).toBeGreaterThan(890);
      expect(ttl).toBeLessThanOrEqual(900);
      await t.redis.client.pexpire(key, 1);
      await sleep(20);
      const e = await t.fail(AUTH_PATTERNS.recoveryVerifyEmail, { email: body.email, code });
      expect(e.code).toBe(ErrorCode.INVALID_RECOVERY_CODE);
    });

    it('a new code replaces the previous one', async () => {
      const { body } = await signup();
      await requestCode(body.email);
      const first = await codeMailedTo(body.email);
      await requestCode(body.email);
      const second = await codeMailedTo(body.email, 1);
      if (first !== second) {
        const e = await t.fail(AUTH_PATTERNS.recoveryVerifyEmail, { email: body.email, code: first });
        expect(e.code).toBe(ErrorCode.INVALID_RECOVERY_CODE);
      }
      await t.call(AUTH_PATTERNS.recoveryVerifyEmail, { email: body.email, code: second });
    });

    it('limits requests to 3 per address and 5 per IP per window (429 with retryAfter)', async () => {
      const email = `limited_${hex(4)}@example.com`;
      for (let i = 0; i < 3; i += 1) await requestCode(email);
      const byEmail = await t.fail(AUTH_PATTERNS.recoveryEmailCode, { email }, { ip: ip() });
      expect(byEmail.code).toBe(ErrorCode.RATE_LIMITED);
      expect(byEmail.extra.retryAfter).toBeGreaterThan(800);

      const from = ip();
      for (let i = 0; i < 5; i += 1) await requestCode(`ip_${i}_${hex(4)}@example.com`, from);
      const byIp = await t.fail(
        AUTH_PATTERNS.recoveryEmailCode,
        { email: `ip_x_${hex(4)}@example.com` },
        { ip: from },
      );
      expect(byIp.code).toBe(ErrorCode.RATE_LIMITED);
    });
  });

  describe('recovery key', () => {
    it('needs the current authKey to set, and brings back the recovery-wrapped vault key', async () => {
      const { user, body, auth } = await signup();
      const recoveryAuth = hex(32);
      const recoveryWrappedVaultKey = sealedKeyValue();
      const wrong = await t.fail(
        AUTH_PATTERNS.recoverySetupKey,
        { authKey: hex(32), recoveryAuth, recoveryWrappedVaultKey },
        auth,
      );
      expect(wrong.code).toBe(ErrorCode.INVALID_CREDENTIALS);
      expect(wrong.status).toBe(401);

      await t.call(
        AUTH_PATTERNS.recoverySetupKey,
        { authKey: body.authKey, recoveryAuth, recoveryWrappedVaultKey },
        auth,
      );
      const row = (
        await t.pg.query<{ recovery_auth_hash: string }>(
          `SELECT recovery_auth_hash FROM auth.users WHERE id = $1`,
          [user.id],
        )
      ).rows[0]!;
      expect(row.recovery_auth_hash).toMatch(/^\$argon2id\$/);
      expect(row.recovery_auth_hash).not.toContain(recoveryAuth);

      const bad = await t.fail(AUTH_PATTERNS.recoveryVerifyKey, { email: body.email, recoveryAuth: hex(32) });
      expect(bad.code).toBe(ErrorCode.INVALID_RECOVERY_KEY);
      const ok = await t.call<RecoveryKeyVerifiedResponse>(AUTH_PATTERNS.recoveryVerifyKey, {
        email: body.email,
        recoveryAuth,
      });
      expect(ok.recoveryWrappedVaultKey).toBe(recoveryWrappedVaultKey);
      expect(ok.message).toBe(RECOVERY_MESSAGES.verified);
      expect(await eventTypes(user.id)).toEqual(
        expect.arrayContaining(['recovery_key_set', 'recovery_failed']),
      );
    });

    it('refuses verify-key after 5 failures in the window, even with the right key', async () => {
      const { body, auth } = await signup();
      const recoveryAuth = hex(32);
      await t.call(
        AUTH_PATTERNS.recoverySetupKey,
        { authKey: body.authKey, recoveryAuth, recoveryWrappedVaultKey: sealedKeyValue() },
        auth,
      );
      for (let i = 0; i < 5; i += 1) {
        const e = await t.fail(AUTH_PATTERNS.recoveryVerifyKey, { email: body.email, recoveryAuth: hex(32) });
        expect(e.code).toBe(ErrorCode.INVALID_RECOVERY_KEY);
      }
      const refused = await t.fail(AUTH_PATTERNS.recoveryVerifyKey, { email: body.email, recoveryAuth });
      expect(refused.code).toBe(ErrorCode.RATE_LIMITED);
    });

    it('answers an address with no account or no key with the same 401', async () => {
      const { body } = await signup();
      for (const email of [body.email, `ghost_${hex(4)}@example.com`]) {
        const e = await t.fail(AUTH_PATTERNS.recoveryVerifyKey, { email, recoveryAuth: hex(32) });
        expect(e.code).toBe(ErrorCode.INVALID_RECOVERY_KEY);
      }
    });
  });

  describe('reset', () => {
    const newCredentials = () => ({
      authKey: hex(32),
      salt: hex(16),
      kdfParams: DEFAULT_KDF_PARAMS,
      wrappedVaultKey: sealedKeyValue(),
    });

    const bypassByKey = async () => {
      const account = await signup();
      const recoveryAuth = hex(32);
      await t.call(
        AUTH_PATTERNS.recoverySetupKey,
        { authKey: account.body.authKey, recoveryAuth, recoveryWrappedVaultKey: sealedKeyValue() },
        account.auth,
      );
      const { bypassToken } = await t.call<RecoveryKeyVerifiedResponse>(AUTH_PATTERNS.recoveryVerifyKey, {
        email: account.body.email,
        recoveryAuth,
      });
      return { ...account, bypassToken };
    };

    it('keeps the vault key after a recovery-key proof: new credentials, a new session, the rest revoked', async () => {
      const { user, body, auth, bypassToken } = await bypassByKey();
      const next = newCredentials();
      const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.recoveryReset, {
        bypassToken,
        ...next,
        newVaultKey: false,
      });
      expect(res.body.user.id).toBe(user.id);
      expect(res.body.wrappedVaultKey).toBe(next.wrappedVaultKey);
      expect(res.refresh?.token).toBeTruthy();

      // The old session is gone; the new one is alive.
      const dead = await t.fail(AUTH_PATTERNS.me, undefined, auth);
      expect(dead.code).toBe(ErrorCode.SESSION_REVOKED);
      await t.call(AUTH_PATTERNS.me, undefined, authOf(user.id, sessionOf(res.body.access)));

      // Old key refused, new key signs in; nothing went to legacy keys.
      const old = await t.fail(AUTH_PATTERNS.login, { identifier: body.email, authKey: body.authKey });
      expect(old.code).toBe(ErrorCode.INVALID_CREDENTIALS);
      await t.call(AUTH_PATTERNS.login, { identifier: body.email, authKey: next.authKey });
      const legacy = await t.pg.query(`SELECT 1 FROM auth.legacy_vault_keys WHERE user_id = $1`, [user.id]);
      expect(legacy.rowCount).toBe(0);

      // The token worked once.
      const reused = await t.fail(AUTH_PATTERNS.recoveryReset, {
        bypassToken,
        ...newCredentials(),
        newVaultKey: false,
      });
      expect(reused.code).toBe(ErrorCode.BYPASS_TOKEN_INVALID);
      expect(reused.status).toBe(401);
      expect(await eventTypes(user.id)).toContain('password_reset');
    });

    it('refuses a token past its 10 minutes', async () => {
      const { bypassToken } = await bypassByKey();
      const key = `recovery:bypass:${createHash('sha256').update(bypassToken).digest('hex')}`;
      const ttl = await t.redis.client.ttl(key);
      expect(ttl).toBeGreaterThan(590);
      expect(ttl).toBeLessThanOrEqual(600);
      await t.redis.client.pexpire(key, 1);
      await sleep(20);
      const e = await t.fail(AUTH_PATTERNS.recoveryReset, {
        bypassToken,
        ...newCredentials(),
        newVaultKey: false,
      });
      expect(e.code).toBe(ErrorCode.BYPASS_TOKEN_INVALID);
    });

    it('with a new vault key after an e-mail proof, keeps the old wrapped key as a legacy key and clears the lockout', async () => {
      const { user, body, auth } = await signup();
      await t.call(
        AUTH_PATTERNS.recoverySetupKey,
        { authKey: body.authKey, recoveryAuth: hex(32), recoveryWrappedVaultKey: sealedKeyValue() },
        auth,
      );
      // Lock the account first.
      for (let i = 0; i < 5; i += 1)
        await t.fail(AUTH_PATTERNS.login, { identifier: body.email, authKey: hex(32) });
      const locked = await t.fail(AUTH_PATTERNS.login, { identifier: body.email, authKey: body.authKey });
      expect(locked.code).toBe(ErrorCode.ACCOUNT_LOCKED);

      await requestCode(body.email);
      const code = await codeMailedTo(body.email);
      const { bypassToken } = await t.call<RecoveryVerifiedResponse>(AUTH_PATTERNS.recoveryVerifyEmail, {
        email: body.email,
        code,
      });
      // Only a recovery-key proof may keep the vault key.
      const keep = await t.fail(AUTH_PATTERNS.recoveryReset, {
        bypassToken,
        ...newCredentials(),
        newVaultKey: false,
      });
      expect(keep.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(keep.message).toBe(RECOVERY_MESSAGES.keepVaultKeyNeedsRecoveryKey);

      const next = newCredentials();
      const res = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.recoveryReset, {
        bypassToken,
        ...next,
        newVaultKey: true,
      });
      const me = authOf(user.id, sessionOf(res.body.access));
      const { keys } = await t.call<LegacyKeysResponse>(AUTH_PATTERNS.listLegacyKeys, undefined, me);
      expect(keys).toEqual([
        {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          wrappedVaultKey: body.wrappedVaultKey,
          salt: body.salt,
          kdfParams: body.kdfParams,
          createdAt: expect.any(String),
        },
      ]);
      // The recovery key wrapped the old vault key: it is gone with it.
      const row = (
        await t.pg.query(
          `SELECT recovery_auth_hash, locked_until, failed_login_attempts FROM auth.users WHERE id = $1`,
          [user.id],
        )
      ).rows[0] as {
        recovery_auth_hash: string | null;
        locked_until: Date | null;
        failed_login_attempts: number;
      };
      expect(row).toEqual({ recovery_auth_hash: null, locked_until: null, failed_login_attempts: 0 });
      // Unlocked: the new key signs in at once.
      await t.call(AUTH_PATTERNS.login, { identifier: body.email, authKey: next.authKey });

      // Another user cannot delete it (404), the owner can.
      const other = await signup();
      const foreign = await t.fail(AUTH_PATTERNS.deleteLegacyKey, { id: keys[0]!.id }, other.auth);
      expect(foreign.code).toBe(ErrorCode.NOT_FOUND);
      await t.call(AUTH_PATTERNS.deleteLegacyKey, { id: keys[0]!.id }, me);
      expect((await t.call<LegacyKeysResponse>(AUTH_PATTERNS.listLegacyKeys, undefined, me)).keys).toEqual(
        [],
      );
      const gone = await t.fail(AUTH_PATTERNS.deleteLegacyKey, { id: keys[0]!.id }, me);
      expect(gone.code).toBe(ErrorCode.NOT_FOUND);
    });

    it('with 2FA on, refuses a reset without a valid second factor and keeps the token for a retry', async () => {
      const { user, bypassToken } = await bypassByKey();
      await t.pg.query(`UPDATE auth.users SET two_factor_enabled = true WHERE id = $1`, [user.id]);
      const none = await t.fail(AUTH_PATTERNS.recoveryReset, {
        bypassToken,
        ...newCredentials(),
        newVaultKey: false,
      });
      expect(none.code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      expect(none.status).toBe(401);
      const wrong = await t.fail(AUTH_PATTERNS.recoveryReset, {
        bypassToken,
        ...newCredentials(),
        newVaultKey: false,
        code: '000000',
      });
      expect(wrong.code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      const key = `recovery:bypass:${createHash('sha256').update(bypassToken).digest('hex')}`;
      expect(await t.redis.client.hget(key, 'failures')).toBe('1');
    });
  });

  describe('reset with 2FA on', () => {
    const codeAt = (secret: string, offset = 0) =>
      generate({ secret, epoch: Date.now() / 1000 + offset * 30 });

    it('accepts a current TOTP code or an unused backup code, through TwoFactorService', async () => {
      const account = await signup();
      const { otpauthUrl } = await t.call<TwoFactorEnableResponse>(
        AUTH_PATTERNS.twoFactorEnable,
        {},
        account.auth,
      );
      const secret = new URL(otpauthUrl).searchParams.get('secret')!;
      // The code of the previous step turns 2FA on, so the current one is still unused below.
      const { backupCodes } = await t.call<BackupCodesResponse>(
        AUTH_PATTERNS.twoFactorVerify,
        { code: await codeAt(secret, -1) },
        account.auth,
      );
      const recoveryAuth = hex(32);
      await t.call(
        AUTH_PATTERNS.recoverySetupKey,
        { authKey: account.body.authKey, recoveryAuth, recoveryWrappedVaultKey: sealedKeyValue() },
        account.auth,
      );
      const bypass = async () =>
        (
          await t.call<RecoveryKeyVerifiedResponse>(AUTH_PATTERNS.recoveryVerifyKey, {
            email: account.body.email,
            recoveryAuth,
          })
        ).bypassToken;
      const credentials = () => ({
        authKey: hex(32),
        salt: hex(16),
        kdfParams: DEFAULT_KDF_PARAMS,
        wrappedVaultKey: sealedKeyValue(),
        newVaultKey: false,
      });

      const byTotp = await bypass();
      const none = await t.fail(AUTH_PATTERNS.recoveryReset, { bypassToken: byTotp, ...credentials() });
      expect(none.code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
      const ok = await t.call<WithRefresh<AuthResponse>>(AUTH_PATTERNS.recoveryReset, {
        bypassToken: byTotp,
        ...credentials(),
        code: await codeAt(secret),
      });
      expect(ok.body.user.twoFactorEnabled).toBe(true);

      const byBackup = await bypass();
      await t.call(AUTH_PATTERNS.recoveryReset, {
        bypassToken: byBackup,
        ...credentials(),
        backupCode: backupCodes[0],
      });
      // A used backup code does not work twice.
      const again = await t.fail(AUTH_PATTERNS.recoveryReset, {
        bypassToken: await bypass(),
        ...credentials(),
        backupCode: backupCodes[0],
      });
      expect(again.code).toBe(ErrorCode.INVALID_VERIFICATION_CODE);
    });
  });

  describe('security questions', () => {
    const questions = [
      { question: 'What was the name of your first pet?' },
      { question: 'In which city were you born?' },
      { question: 'What was your first car?' },
    ];

    it('stores 3 question texts and a hash of answersAuth, and proves the answers', async () => {
      const { user, body, auth } = await signup();
      expect(
        await t.call<SecurityQuestionsResponse>(AUTH_PATTERNS.securityQuestions, undefined, auth),
      ).toEqual({
        questions: [],
      });
      const none = await t.fail(AUTH_PATTERNS.recoveryGetQuestions, { email: body.email });
      expect(none.code).toBe(ErrorCode.NO_SECURITY_QUESTIONS);
      expect(none.status).toBe(404);
      expect(none.message).toBe('No security questions found for this account. Try email recovery instead.');

      const short = await t.fail(
        AUTH_PATTERNS.recoverySetupQuestions,
        {
          questions: [questions[0], questions[1], { question: 'Too short' }],
          questionsSalt: hex(16),
          answersAuth: hex(32),
        },
        auth,
      );
      expect(short.code).toBe(ErrorCode.VALIDATION_FAILED);
      expect(short.message).toBe(
        'Please provide 3 complete security questions with answers (questions min 10 chars, answers min 3 chars)',
      );

      const questionsSalt = hex(16);
      const answersAuth = hex(32);
      await t.call(AUTH_PATTERNS.recoverySetupQuestions, { questions, questionsSalt, answersAuth }, auth);
      expect(
        await t.call<SecurityQuestionsResponse>(AUTH_PATTERNS.securityQuestions, undefined, auth),
      ).toEqual({
        questions: questions.map((q) => q.question),
      });
      const stored = (await t.pg.query(`SELECT * FROM auth.security_questions WHERE user_id = $1`, [user.id]))
        .rows[0] as Record<string, unknown>;
      expect(JSON.stringify(stored)).not.toContain(answersAuth);
      expect(stored.answers_auth_hash).toMatch(/^\$argon2id\$/);

      expect(
        await t.call<RecoveryQuestionsResponse>(AUTH_PATTERNS.recoveryGetQuestions, { email: body.email }),
      ).toEqual({
        questions: questions.map((q) => q.question),
        questionsSalt,
        kdfParams: body.kdfParams,
      });
      const wrong = await t.fail(AUTH_PATTERNS.recoveryVerifyQuestions, {
        email: body.email,
        answersAuth: hex(32),
      });
      expect(wrong.code).toBe(ErrorCode.INCORRECT_ANSWERS);
      expect(wrong.status).toBe(401);
      const ok = await t.call<RecoveryVerifiedResponse>(AUTH_PATTERNS.recoveryVerifyQuestions, {
        email: body.email,
        answersAuth,
      });
      expect(ok.message).toBe(RECOVERY_MESSAGES.verified);
      expect(await eventTypes(user.id)).toEqual(
        expect.arrayContaining(['security_questions_set', 'recovery_failed', 'recovery_verified']),
      );
    });

    it('refuses verify-questions after 5 failures in the window', async () => {
      const { body, auth } = await signup();
      const answersAuth = hex(32);
      await t.call(
        AUTH_PATTERNS.recoverySetupQuestions,
        { questions, questionsSalt: hex(16), answersAuth },
        auth,
      );
      for (let i = 0; i < 5; i += 1) {
        const e = await t.fail(AUTH_PATTERNS.recoveryVerifyQuestions, {
          email: body.email,
          answersAuth: hex(32),
        });
        expect(e.code).toBe(ErrorCode.INCORRECT_ANSWERS);
      }
      const refused = await t.fail(AUTH_PATTERNS.recoveryVerifyQuestions, { email: body.email, answersAuth });
      expect(refused.code).toBe(ErrorCode.RATE_LIMITED);
      expect(refused.extra.retryAfter).toBeGreaterThan(3000);
    });
  });

  it('never logs a code, a token, an address or a key', () => {
    const logs = t.logs.join('');
    expect(logs).not.toMatch(/recovery code is/);
    expect(logs).not.toMatch(/@example\.com/);
  });
});
