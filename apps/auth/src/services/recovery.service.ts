import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import {
  ErrorCode,
  RECOVERY_MESSAGES,
  VaultError,
  type AuthResponse,
  type LegacyKeysResponse,
  type RecoveryEmailCodeBody,
  type RecoveryGetQuestionsBody,
  type RecoveryKeyVerifiedResponse,
  type RecoveryMessageResponse,
  type RecoveryQuestionsResponse,
  type RecoveryResetBody,
  type RecoverySetupKeyBody,
  type RecoverySetupQuestionsBody,
  type RecoveryVerifiedResponse,
  type RecoveryVerifyEmailBody,
  type RecoveryVerifyKeyBody,
  type RecoveryVerifyQuestionsBody,
  type RpcAuth,
  type RpcContext,
  type SecurityQuestionsResponse,
  type WithRefresh,
} from '@vault/contracts';
import { SecretHasher } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';
import type { UserEntity } from '../entities/user.entity';
import { toUserDto } from '../mappers/user.mapper';
import { AdminSessionsRepository } from '../repositories/admin-sessions.repository';
import { AUTH_CONFIG } from '../repositories/connections';
import { LoginAttemptsRepository } from '../repositories/login-attempts.repository';
import { MailQueueRepository } from '../repositories/mail-queue.repository';
import { MailerRepository } from '../repositories/mailer.repository';
import { RecoveryRepository } from '../repositories/recovery.repository';
import {
  recoveryKeys,
  RecoveryTokensRepository,
  type BypassMethod,
} from '../repositories/recovery-tokens.repository';
import { UsersRepository } from '../repositories/users.repository';
import { LoginGuardService } from './login-guard.service';
import {
  answerNotBefore,
  emailSubject,
  hashBypassToken,
  hashRecoveryCode,
  newBypassToken,
  newRecoveryCode,
  openMailJobSecret,
  sealForMailJob,
} from './recovery-secrets';
import { SecurityEventsService } from './security-events.service';
import { SessionService } from './session.service';
import { TokenService } from './token.service';
import { TwoFactorService } from './two-factor.service';

/** Wrong e-mail codes before a code dies (spec: "after 5 tries"). */
export const RECOVERY_CODE_MAX_TRIES = 5;
/** Wrong second factors on one bypass token before it is burnt. */
export const RECOVERY_RESET_MAX_2FA_FAILURES = 5;
/**
 * email-code answers no sooner than this, known address or not: the known path queues a
 * job and writes a code, the unknown one does not, and the floor hides the difference.
 */
export const EMAIL_CODE_ANSWER_FLOOR_MS = 250;

type VerifyKind = 'key' | 'questions';

/**
 * Account recovery (docs/crypto-protocol.md "Recovery"). Three ways to prove ownership: the
 * recovery key (access and data come back), the security answers and an e-mail code (access
 * only). Each hands out a single-use bypass token valid RECOVERY_BYPASS_TTL_SECONDS, with
 * which `reset` sets new credentials exactly like a change of password; when the vault key
 * is new, the old wrapped key is kept as a legacy key so the old password still opens the
 * old items. With 2FA on, the reset also needs a TOTP or backup code.
 */
@Injectable()
export class RecoveryService implements OnApplicationBootstrap {
  private readonly logger = new Logger(RecoveryService.name);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly users: UsersRepository,
    private readonly recovery: RecoveryRepository,
    private readonly tokens: RecoveryTokensRepository,
    private readonly mailQueue: MailQueueRepository,
    private readonly mailer: MailerRepository,
    private readonly attempts: LoginAttemptsRepository,
    private readonly hasher: SecretHasher,
    private readonly sessions: SessionService,
    private readonly adminSessions: AdminSessionsRepository,
    private readonly accessTokens: TokenService,
    private readonly twoFactor: TwoFactorService,
    private readonly events: SecurityEventsService,
  ) {}

  /** The mail worker runs in this process (the producer and the consumer are both auth). */
  async onApplicationBootstrap(): Promise<void> {
    await this.mailQueue.consume(async (job) => {
      const code = openMailJobSecret(this.config.serverSecret, job.sealedCode);
      const minutes = Math.round(this.config.recovery.codeTtlSeconds / 60);
      await this.mailer.send({
        to: job.to,
        subject: 'Your Vault recovery code',
        text:
          `Your Vault recovery code is ${code}\n\n` +
          `It expires in ${minutes} minute${minutes === 1 ? '' : 's'} and works once. ` +
          'If you did not ask for it, ignore this message: your account stays as it is.\n',
      });
    });
  }

  /**
   * Sends a 6-digit code to the address if it has an account. The answer (and its timing) is
   * the same either way; both kinds of request count toward the per-address and per-IP limits.
   */
  async emailCode(body: RecoveryEmailCodeBody, ctx: RpcContext): Promise<RecoveryMessageResponse> {
    const startedAt = Date.now();
    const { codeEmailMax, codeIpMax, codeWindowSeconds, codeTtlSeconds } = this.config.recovery;
    const subject = emailSubject(this.config.serverSecret, body.email);
    const windowMs = codeWindowSeconds * 1000;
    const refused = (
      await Promise.all([
        this.tokens.hit(recoveryKeys.rate('code-ip', ipOf(ctx)), { limit: codeIpMax, windowMs }),
        this.tokens.hit(recoveryKeys.rate('code-email', subject), { limit: codeEmailMax, windowMs }),
      ])
    ).filter((limit) => !limit.allowed);
    if (refused.length > 0) {
      const retryAfter = Math.max(...refused.map((limit) => limit.retryAfter));
      throw new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter });
    }

    const user = await this.findByEmail(body.email);
    // The same crypto work either way; only a real account gets a stored code and a mail.
    const code = newRecoveryCode();
    const codeHash = hashRecoveryCode(this.config.serverSecret, user?.id ?? subject, code);
    const sealedCode = sealForMailJob(this.config.serverSecret, code);
    if (user) {
      await this.tokens.storeCode(user.id, codeHash, codeTtlSeconds);
      await this.mailQueue.queueRecoveryCode({ to: user.email, sealedCode });
    }
    await this.events.record('recovery_code_sent', user?.id ?? null, ctx, { account: user !== null });
    await answerNotBefore(startedAt, EMAIL_CODE_ANSWER_FLOOR_MS);
    return { message: RECOVERY_MESSAGES.codeSent };
  }

  /** A right, live code is used up and answers a bypass token; anything else is 'Invalid recovery code'. */
  async verifyEmail(body: RecoveryVerifyEmailBody, ctx: RpcContext): Promise<RecoveryVerifiedResponse> {
    const user = await this.findByEmail(body.email);
    if (!user) {
      await this.events.record('recovery_code_failed', null, ctx, { reason: 'unknown_account' });
      throw new VaultError(ErrorCode.INVALID_RECOVERY_CODE);
    }
    const presented = hashRecoveryCode(this.config.serverSecret, user.id, body.code);
    const outcome = await this.tokens.checkCode(user.id, presented, RECOVERY_CODE_MAX_TRIES);
    if (outcome !== 'right') {
      await this.events.record('recovery_code_failed', user.id, ctx, {
        reason: outcome === 'missing' ? 'no_live_code' : 'wrong_code',
      });
      throw new VaultError(ErrorCode.INVALID_RECOVERY_CODE);
    }
    return this.grantBypass(user, 'email', ctx);
  }

  /** Stores (or replaces) the recovery key's auth hash and the vault key sealed under it. */
  async setupKey(auth: RpcAuth, body: RecoverySetupKeyBody, ctx: RpcContext): Promise<void> {
    const user = await this.requireUser(auth.userId);
    if (!(await this.hasher.verify(user.authHash, body.authKey))) {
      await this.events.record('reauth_failure', user.id, ctx, {
        sessionId: auth.sessionId,
        action: 'recovery_key',
      });
      throw new VaultError(ErrorCode.INVALID_CREDENTIALS);
    }
    const hash = await this.hasher.hash(body.recoveryAuth);
    await this.recovery.setRecoveryKey(user.id, hash, body.recoveryWrappedVaultKey);
    await this.events.record('recovery_key_set', user.id, ctx, { replaced: user.recoveryAuthHash !== null });
    this.logger.log(`Recovery key set: user ${user.id}`);
  }

  async verifyKey(body: RecoveryVerifyKeyBody, ctx: RpcContext): Promise<RecoveryKeyVerifiedResponse> {
    const user = await this.findByEmail(body.email);
    const failuresKey = this.failuresKey('key', user, body.email);
    await this.assertVerifyAllowed(failuresKey);
    const stored = user?.recoveryAuthHash ?? null;
    const valid = stored
      ? await this.hasher.verify(stored, body.recoveryAuth)
      : await this.hasher.verifyDummy(body.recoveryAuth);
    if (!user || !valid || !user.recoveryWrappedVaultKey) {
      await this.recordVerifyFailure(failuresKey, 'key', user, ctx);
      throw new VaultError(ErrorCode.INVALID_RECOVERY_KEY);
    }
    await this.tokens.clear(failuresKey);
    const granted = await this.grantBypass(user, 'key', ctx);
    return { ...granted, recoveryWrappedVaultKey: user.recoveryWrappedVaultKey };
  }

  /** Question texts, the answers' salt and the hash of answersAuth (the answers stay on the device). */
  async setupQuestions(auth: RpcAuth, body: RecoverySetupQuestionsBody, ctx: RpcContext): Promise<void> {
    const user = await this.requireUser(auth.userId);
    const answersAuthHash = await this.hasher.hash(body.answersAuth);
    await this.recovery.upsertQuestions(user.id, {
      questions: body.questions.map((q) => q.question),
      questionsSalt: body.questionsSalt,
      answersAuthHash,
    });
    await this.events.record('security_questions_set', user.id, ctx);
  }

  async securityQuestions(auth: RpcAuth): Promise<SecurityQuestionsResponse> {
    const row = await this.recovery.findQuestions(auth.userId);
    return { questions: row?.questions ?? [] };
  }

  /**
   * The questions of an address, with what the device needs to derive answersAuth. Answers
   * 404 for an address with no questions, including one with no account (the contract's
   * choice: see apps/auth/README.md "Recovery" for the enumeration trade-off).
   */
  async getQuestions(body: RecoveryGetQuestionsBody): Promise<RecoveryQuestionsResponse> {
    const user = await this.findByEmail(body.email);
    const row = user ? await this.recovery.findQuestions(user.id) : null;
    if (!user || !row) throw new VaultError(ErrorCode.NO_SECURITY_QUESTIONS);
    return { questions: row.questions, questionsSalt: row.questionsSalt, kdfParams: user.kdfParams };
  }

  async verifyQuestions(
    body: RecoveryVerifyQuestionsBody,
    ctx: RpcContext,
  ): Promise<RecoveryVerifiedResponse> {
    const user = await this.findByEmail(body.email);
    const failuresKey = this.failuresKey('questions', user, body.email);
    await this.assertVerifyAllowed(failuresKey);
    const row = user ? await this.recovery.findQuestions(user.id) : null;
    const valid = row
      ? await this.hasher.verify(row.answersAuthHash, body.answersAuth)
      : await this.hasher.verifyDummy(body.answersAuth);
    if (!user || !valid) {
      await this.recordVerifyFailure(failuresKey, 'questions', user, ctx);
      throw new VaultError(ErrorCode.INCORRECT_ANSWERS);
    }
    await this.tokens.clear(failuresKey);
    return this.grantBypass(user, 'questions', ctx);
  }

  /**
   * Sets new credentials with a bypass token. Order: the token must be live; the vault key
   * may only be kept after a recovery-key proof; with 2FA on, a valid second factor (wrong
   * ones are counted on the token, which burns after RECOVERY_RESET_MAX_2FA_FAILURES); then
   * the token is used up atomically, the credentials replaced (old vault key kept as a
   * legacy key when a new one is made), every session revoked (admin-console ones too), the lockout cleared, and a
   * new session started.
   */
  async reset(body: RecoveryResetBody, ctx: RpcContext): Promise<WithRefresh<AuthResponse>> {
    const tokenHash = hashBypassToken(body.bypassToken);
    const grant = await this.tokens.peekBypass(tokenHash);
    const user = grant ? await this.users.findById(grant.userId) : null;
    if (!grant || !user) throw new VaultError(ErrorCode.BYPASS_TOKEN_INVALID);
    if (!body.newVaultKey && grant.method !== 'key') {
      throw new VaultError(ErrorCode.VALIDATION_FAILED, RECOVERY_MESSAGES.keepVaultKeyNeedsRecoveryKey);
    }
    if (user.twoFactorEnabled) {
      const proof = { code: body.code, backupCode: body.backupCode };
      const ok =
        (proof.code || proof.backupCode) && (await this.twoFactor.verifySecondFactor(user.id, proof, ctx));
      if (!ok) {
        if (proof.code || proof.backupCode) {
          await this.tokens.recordBypassFailure(tokenHash, RECOVERY_RESET_MAX_2FA_FAILURES);
        }
        throw new VaultError(ErrorCode.INVALID_VERIFICATION_CODE);
      }
    }
    const consumed = await this.tokens.consumeBypass(tokenHash);
    if (!consumed || consumed.userId !== user.id) throw new VaultError(ErrorCode.BYPASS_TOKEN_INVALID);

    const authHash = await this.hasher.hash(body.authKey);
    const applied = await this.recovery.resetCredentials(
      user.id,
      {
        authHash,
        salt: body.salt,
        kdfParams: body.kdfParams,
        wrappedVaultKey: body.wrappedVaultKey,
        keepOldVaultKey: body.newVaultKey,
        dropRecoveryKey: body.newVaultKey,
      },
      this.events.build('password_reset', user.id, ctx, {
        method: grant.method,
        newVaultKey: body.newVaultKey,
      }),
    );
    if (!applied) throw new VaultError(ErrorCode.BYPASS_TOKEN_INVALID);

    const revoked = await this.sessions.revokeAllExcept(user.id, '');
    await this.adminSessions.endAllFor(user.id);
    await this.attempts.clearLock(LoginGuardService.accountSubject(user.id));
    await this.tokens.clear(
      recoveryKeys.failures('key', `u:${user.id}`),
      recoveryKeys.failures('questions', `u:${user.id}`),
      recoveryKeys.code(user.id),
    );
    this.logger.log(
      `Access reset (${grant.method}${body.newVaultKey ? ', new vault key' : ''}): user ${user.id}, ` +
        `${revoked} session(s) revoked`,
    );

    const fresh = (await this.users.findById(user.id)) ?? user;
    const now = Date.now();
    const session = await this.sessions.start(user.id, ctx, now);
    const access = await this.accessTokens.sign(
      { userId: user.id, sessionId: session.sessionId, role: fresh.role },
      Math.floor(now / 1000),
    );
    return {
      body: { access, user: toUserDto(fresh), wrappedVaultKey: fresh.wrappedVaultKey },
      refresh: session.refresh,
    };
  }

  async listLegacyKeys(auth: RpcAuth): Promise<LegacyKeysResponse> {
    const rows = await this.recovery.listLegacyKeys(auth.userId);
    return {
      keys: rows.map((r) => ({
        id: r.id,
        wrappedVaultKey: r.wrappedVaultKey,
        salt: r.salt,
        kdfParams: r.kdfParams,
        createdAt: r.createdAt.toISOString(),
      })),
    };
  }

  /** Another user's key and an unknown id both answer 404 (docs/api.md "401, 403 and 404"). */
  async deleteLegacyKey(auth: RpcAuth, id: string, ctx: RpcContext): Promise<void> {
    const event = this.events.build('legacy_key_deleted', auth.userId, ctx, { legacyKeyId: id });
    if (!(await this.recovery.deleteLegacyKey(auth.userId, id, event))) {
      throw new VaultError(ErrorCode.NOT_FOUND);
    }
  }

  private async grantBypass(
    user: UserEntity,
    method: BypassMethod,
    ctx: RpcContext,
  ): Promise<RecoveryVerifiedResponse> {
    const bypassToken = newBypassToken();
    await this.tokens.storeBypass(
      hashBypassToken(bypassToken),
      { userId: user.id, method },
      this.config.recovery.bypassTtlSeconds,
    );
    await this.events.record('recovery_verified', user.id, ctx, { method });
    return { bypassToken, message: RECOVERY_MESSAGES.verified };
  }

  /** Per account, or per HMAC of the address when there is none: unknown ones are limited alike. */
  private failuresKey(kind: VerifyKind, user: UserEntity | null, email: string): string {
    const subject = user ? `u:${user.id}` : `x:${emailSubject(this.config.serverSecret, email)}`;
    return recoveryKeys.failures(kind, subject);
  }

  private async assertVerifyAllowed(failuresKey: string): Promise<void> {
    const failures = await this.tokens.peek(failuresKey, this.config.recovery.verifyMaxFailures);
    if (!failures.allowed) {
      throw new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: failures.retryAfter });
    }
  }

  private async recordVerifyFailure(
    failuresKey: string,
    kind: VerifyKind,
    user: UserEntity | null,
    ctx: RpcContext,
  ): Promise<void> {
    const { verifyMaxFailures, verifyWindowSeconds } = this.config.recovery;
    const { count } = await this.tokens.hit(failuresKey, {
      limit: verifyMaxFailures,
      windowMs: verifyWindowSeconds * 1000,
    });
    await this.events.record('recovery_failed', user?.id ?? null, ctx, {
      method: kind,
      failures: count,
      account: user !== null,
    });
  }

  private async requireUser(userId: string): Promise<UserEntity> {
    const user = await this.users.findById(userId);
    if (!user) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    return user;
  }

  private async findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.findByIdentifier('email', email.trim().toLowerCase());
  }
}

function ipOf(ctx: RpcContext): string {
  return ctx.ip.trim() || 'unknown';
}
