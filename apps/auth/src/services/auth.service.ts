import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  DEFAULT_KDF_PARAMS,
  ErrorCode,
  VaultError,
  type AuthResponse,
  type LoginBody,
  type PreloginBody,
  type PreloginResponse,
  type RefreshResponse,
  type Requires2faResponse,
  type RpcContext,
  type SecondFactorProof,
  type SignupBody,
  type WithRefresh,
} from '@vault/contracts';
import { SecretHasher } from '@vault/server-kit';
import { randomUUID } from 'node:crypto';
import type { AuthConfig } from '../config/auth.config';
import type { SecurityEventDetails } from '../entities/security-event.entity';
import type { UserEntity } from '../entities/user.entity';
import { toUserDto } from '../mappers/user.mapper';
import { AUTH_CONFIG } from '../repositories/connections';
import { UsersRepository } from '../repositories/users.repository';
import { AUTO_LOCK_REASON, isAdminLock } from './account-lock';
import { fakeSalt, unknownIdentifierSubject } from './fake-salt';
import { normalizePhone, toIdentifierLookup } from './identifier';
import { LoginGuardService } from './login-guard.service';
import { SecurityEventsService } from './security-events.service';
import { SessionService } from './session.service';
import { TokenService } from './token.service';
import { backupCodesWarning } from './two-factor-codes';
import { TwoFactorService } from './two-factor.service';
import { UnusualActivityService } from './unusual-activity.service';

export type LoginResult = WithRefresh<AuthResponse | Requires2faResponse>;

/** The events a failed sign-in of each kind records (all count toward the same lockout). */
type SignInFailureEvent = 'signin_failure' | 'emergency_verification_failed' | 'admin_signin_failure';

/** The sign-up answer for each unique field that another account already holds. */
const TAKEN_ERRORS = {
  username: ErrorCode.USERNAME_TAKEN,
  email: ErrorCode.EMAIL_TAKEN,
  phone: ErrorCode.PHONE_TAKEN,
} as const;

/** Accounts' front door: prelogin, sign-up, sign-in, refresh, sign-out. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly users: UsersRepository,
    private readonly hasher: SecretHasher,
    private readonly tokens: TokenService,
    private readonly sessions: SessionService,
    private readonly guard: LoginGuardService,
    private readonly events: SecurityEventsService,
    private readonly twoFactor: TwoFactorService,
    private readonly unusual: UnusualActivityService,
  ) {}

  /** The account's salt and KDF parameters, or a stable fake: the answer never tells them apart. */
  async prelogin(body: PreloginBody): Promise<PreloginResponse> {
    const user = await this.findByIdentifier(body.identifier);
    if (user) return { salt: user.salt, kdfParams: user.kdfParams };
    return { salt: fakeSalt(this.config.serverSecret, body.identifier), kdfParams: DEFAULT_KDF_PARAMS };
  }

  async signup(body: SignupBody, ctx: RpcContext): Promise<WithRefresh<AuthResponse>> {
    const usernameLower = body.username.toLowerCase();
    const email = body.email.toLowerCase();
    const phone = normalizePhone(body.phoneNumber);
    const taken = await this.users.findTaken(usernameLower, email, phone);
    if (taken.username) throw new VaultError(ErrorCode.USERNAME_TAKEN);
    if (taken.email) throw new VaultError(ErrorCode.EMAIL_TAKEN);
    if (taken.phone) throw new VaultError(ErrorCode.PHONE_TAKEN);

    const [authHash, recoveryAuthHash] = await Promise.all([
      this.hasher.hash(body.authKey),
      body.recovery ? this.hasher.hash(body.recovery.recoveryAuth) : Promise.resolve(null),
    ]);
    const now = new Date();
    const inserted = await this.users.insert({
      id: randomUUID(),
      username: body.username,
      usernameLower,
      email,
      phoneNumber: body.phoneNumber,
      phoneNormalized: phone,
      phoneLogin: phone,
      authHash,
      salt: body.salt,
      kdfParams: body.kdfParams,
      wrappedVaultKey: body.wrappedVaultKey,
      recoveryAuthHash,
      recoveryWrappedVaultKey: body.recovery?.recoveryWrappedVaultKey ?? null,
      lastLoginAt: now,
    });
    if (!inserted.ok) {
      // Lost a race with a concurrent sign-up for the same name, address or number.
      throw new VaultError(TAKEN_ERRORS[inserted.conflict]);
    }
    const user = inserted.user;
    await this.events.record('signup', user.id, ctx, { recoveryKey: body.recovery !== undefined });
    this.logger.log(`Account created: user ${user.id}`);
    return this.startSession(user, ctx, now.getTime());
  }

  /**
   * Sign-in. Order: per-IP throttle, lock check (a locked account refuses even the right
   * key), key check (a dummy verify for unknown identifiers, so timing does not tell them
   * apart), then the failure bookkeeping or a new session.
   */
  async login(body: LoginBody, ctx: RpcContext, secondFactor?: SecondFactorProof): Promise<LoginResult> {
    const { user, subject, valid } = await this.checkKey(body, ctx, 'signin_failure');
    if (!user || !valid) return this.failLogin(user, subject, ctx);

    // 418 for an unusual sign-in: before the failures are forgotten and before any 2FA step.
    await this.unusual.assertUsual(user, ctx);
    let warningMessage: string | undefined;
    if (user.twoFactorEnabled) {
      // A blank totpCode (an empty form field) is no code: the answer is the 2FA step, not a failure.
      const proof = secondFactor ?? (body.totpCode?.trim() ? { code: body.totpCode } : undefined);
      // No token before the second factor. Failures are forgotten only once it is right too:
      // clearing them on the key alone would let whoever has the key guess codes unlocked.
      if (!proof) return { body: { requires2FA: true } };
      const checked = await this.twoFactor.checkSecondFactor(user.id, proof, ctx);
      if (!checked.ok) return this.failLogin(user, subject, ctx, checked.error);
      if (checked.remainingBackupCodes !== undefined) {
        warningMessage = backupCodesWarning(checked.remainingBackupCodes);
      }
    }
    const session = await this.completeSignIn(user, subject, ctx);
    return warningMessage ? { ...session, body: { ...session.body, warningMessage } } : session;
  }

  async refresh(refreshToken: string, ctx: RpcContext): Promise<WithRefresh<RefreshResponse>> {
    const rotated = await this.sessions.rotate(refreshToken, ctx);
    const user = await this.users.findById(rotated.userId);
    if (!user) {
      await this.sessions.drop(rotated.userId, rotated.sessionId);
      throw new VaultError(ErrorCode.REFRESH_INVALID);
    }
    const access = await this.tokens.sign({ userId: user.id, sessionId: rotated.sessionId, role: user.role });
    return rotated.refresh ? { body: { access }, refresh: rotated.refresh } : { body: { access } };
  }

  logout(ctx: RpcContext, refreshToken?: string): Promise<void> {
    return this.sessions.logout(ctx, refreshToken);
  }

  /**
   * A wrong key or second factor at sign-in (the vault's, or `admin_signin_failure` for the admin
   * console's). `error`: what a wrong second factor answers instead of 'Invalid credentials'.
   */
  failLogin(
    user: UserEntity | null,
    subject: string,
    ctx: RpcContext,
    error: ErrorCode = ErrorCode.INVALID_CREDENTIALS,
    event: 'signin_failure' | 'admin_signin_failure' = 'signin_failure',
  ): Promise<never> {
    const reason = !user
      ? 'unknown_user'
      : error === ErrorCode.INVALID_CREDENTIALS
        ? 'bad_key'
        : 'bad_second_factor';
    return this.failSignIn(user, subject, ctx, { event, reason, error });
  }

  /**
   * The first steps of a sign-in (the vault's and the admin console's): the per-IP throttle, the
   * lock check (recorded as `lockedEvent`), then the key, with a dummy verify for an unknown
   * identifier so that timing does not tell them apart.
   */
  async checkKey(
    body: Pick<LoginBody, 'identifier' | 'authKey'>,
    ctx: RpcContext,
    lockedEvent: SignInFailureEvent,
  ): Promise<{ user: UserEntity | null; subject: string; valid: boolean }> {
    await this.guard.assertIpAllowed(ctx.ip);
    const user = await this.findByIdentifier(body.identifier);
    const subject = this.signInSubject(user, body.identifier);
    await this.refuseIfLocked(user, subject, ctx, lockedEvent);
    const valid = user
      ? await this.hasher.verify(user.authHash, body.authKey)
      : await this.hasher.verifyDummy(body.authKey);
    return { user, subject, valid };
  }

  /** Whose failures a sign-in counts toward: the account, or (unknown) a keyed hash of the identifier. */
  signInSubject(user: UserEntity | null, identifier: string): string {
    return user
      ? LoginGuardService.accountSubject(user.id)
      : unknownIdentifierSubject(this.config.serverSecret, identifier);
  }

  /**
   * A locked account (or identifier) refuses even the right key: the attempt counts against the
   * IP, is recorded as `event` with reason 'locked', and answers the lock.
   */
  async refuseIfLocked(
    user: UserEntity | null,
    subject: string,
    ctx: RpcContext,
    event: SignInFailureEvent,
  ): Promise<void> {
    const lockedMs = await this.guard.lockRemainingMs(subject, user?.lockedUntil ?? null);
    if (lockedMs <= 0) return;
    await this.guard.recordIpFailure(ctx.ip);
    await this.events.record(event, user?.id ?? null, ctx, { reason: 'locked' });
    throw this.guard.lockedError(lockedMs, isAdminLock(user));
  }

  /** Every factor passed (login or emergency verification): failures forgotten, a new session. */
  async completeSignIn(
    user: UserEntity,
    subject: string,
    ctx: RpcContext,
    details?: SecurityEventDetails,
  ): Promise<WithRefresh<AuthResponse>> {
    await this.guard.clearFailures(subject);
    const now = Date.now();
    await this.users.clearLoginFailures(user.id, new Date(now));
    await this.events.record('signin_success', user.id, ctx, details);
    return this.startSession(user, ctx, now);
  }

  /**
   * A failed sign-in of any kind (login, second factor, emergency verification): counts toward
   * the per-IP throttle and the account's lockout, records `event`, locks the account at the
   * threshold, and throws the lock or `error`.
   */
  async failSignIn(
    user: UserEntity | null,
    subject: string,
    ctx: RpcContext,
    failed: { event: SignInFailureEvent; reason: string; error: ErrorCode },
  ): Promise<never> {
    await this.guard.recordIpFailure(ctx.ip);
    const failure = await this.guard.recordFailure(subject);
    await this.events.record(failed.event, user?.id ?? null, ctx, { reason: failed.reason });
    if (user) {
      const lock = failure.lockedNow
        ? { until: new Date(Date.now() + failure.remainingMs), reason: AUTO_LOCK_REASON }
        : undefined;
      // 0 failures reported means a concurrent failure locked it first: keep the row as it is.
      if (failure.failures > 0) await this.users.setLoginFailures(user.id, failure.failures, lock);
      if (failure.lockedNow) {
        await this.events.record('account_locked', user.id, ctx, {
          failedAttempts: failure.failures,
          lockSeconds: this.config.lockout.seconds,
        });
        this.logger.warn(`Account locked after ${failure.failures} failed sign-ins: user ${user.id}`);
      }
    }
    if (failure.locked) throw this.guard.lockedError(failure.remainingMs);
    throw new VaultError(failed.error);
  }

  /** A new session for `user`, its access token and the sign-in answer (login, reset, emergency). */
  async startSession(user: UserEntity, ctx: RpcContext, now: number): Promise<WithRefresh<AuthResponse>> {
    const session = await this.sessions.start(user.id, ctx, now);
    await this.unusual.rememberDevice(user.id, ctx);
    const access = await this.tokens.sign(
      { userId: user.id, sessionId: session.sessionId, role: user.role },
      Math.floor(now / 1000),
    );
    return {
      body: { access, user: toUserDto(user), wrappedVaultKey: user.wrappedVaultKey },
      refresh: session.refresh,
    };
  }

  async findByIdentifier(identifier: string): Promise<UserEntity | null> {
    const lookup = toIdentifierLookup(identifier);
    return this.users.findByIdentifier(lookup.kind, lookup.value);
  }
}
