import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  VaultError,
  type AuthResponse,
  type Requires2faResponse,
  type RpcContext,
  type VerifyEmergencyBody,
  type WithRefresh,
} from '@vault/contracts';
import { SecretHasher } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';
import type { UserEntity } from '../entities/user.entity';
import { toUserDto } from '../mappers/user.mapper';
import { AUTH_CONFIG } from '../repositories/connections';
import { UsersRepository } from '../repositories/users.repository';
import { unknownIdentifierSubject } from './fake-salt';
import { normalizePhone, pickIdentifierMatch, toIdentifierLookup } from './identifier';
import { LoginGuardService } from './login-guard.service';
import { SecurityEventsService } from './security-events.service';
import { SessionService } from './session.service';
import { TokenService } from './token.service';
import { UnusualActivityService } from './unusual-activity.service';

const AUTO_LOCK_REASON = 'Too many failed login attempts';

/**
 * POST /api/auth/verify-emergency: the sign-in that follows a 418. The caller proves the
 * account's username and phone number along with the key; it then signs in like login (or is
 * asked for the second factor) and its device becomes known, so the code step and later
 * sign-ins from it are not challenged again. It goes through the same brakes as login: per-IP
 * throttle, lock, and every failure counts toward the lockout. A wrong key, username or phone
 * all answer the same 401, so the answer does not tell which was wrong.
 */
@Injectable()
export class EmergencyService {
  private readonly logger = new Logger(EmergencyService.name);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly users: UsersRepository,
    private readonly hasher: SecretHasher,
    private readonly tokens: TokenService,
    private readonly sessions: SessionService,
    private readonly guard: LoginGuardService,
    private readonly events: SecurityEventsService,
    private readonly unusual: UnusualActivityService,
  ) {}

  async verify(
    body: VerifyEmergencyBody,
    ctx: RpcContext,
  ): Promise<WithRefresh<AuthResponse | Requires2faResponse>> {
    await this.guard.assertIpAllowed(ctx.ip);
    const user = await this.findByIdentifier(body.identifier);
    const subject = user
      ? LoginGuardService.accountSubject(user.id)
      : unknownIdentifierSubject(this.config.serverSecret, body.identifier);

    const lockedMs = await this.guard.lockRemainingMs(subject, user?.lockedUntil ?? null);
    if (lockedMs > 0) {
      await this.guard.recordIpFailure(ctx.ip);
      await this.events.record('emergency_verification_failed', user?.id ?? null, ctx, { reason: 'locked' });
      throw this.guard.lockedError(lockedMs);
    }

    const keyValid = user
      ? await this.hasher.verify(user.authHash, body.authKey)
      : await this.hasher.verifyDummy(body.authKey);
    const proven =
      user !== null &&
      keyValid &&
      user.usernameLower === body.username.trim().toLowerCase() &&
      user.phoneNormalized === normalizePhone(body.phoneNumber);
    if (!user || !proven) return this.fail(user, subject, ctx, keyValid);

    await this.unusual.rememberDevice(user.id, ctx);
    await this.events.record('emergency_verification_passed', user.id, ctx);
    // The code step follows (2fa/login); this device is known now, so it is not challenged
    // again. As at login, failures are forgotten only once the second factor is right too.
    if (user.twoFactorEnabled) return { body: { requires2FA: true } };
    await this.guard.clearFailures(subject);
    const now = Date.now();
    await this.users.clearLoginFailures(user.id, new Date(now));
    await this.events.record('signin_success', user.id, ctx, { via: 'emergency_verification' });
    return this.startSession(user, ctx, now);
  }

  private async fail(
    user: UserEntity | null,
    subject: string,
    ctx: RpcContext,
    keyValid: boolean,
  ): Promise<never> {
    await this.guard.recordIpFailure(ctx.ip);
    const failure = await this.guard.recordFailure(subject);
    const reason = !user ? 'unknown_user' : keyValid ? 'details_mismatch' : 'bad_key';
    await this.events.record('emergency_verification_failed', user?.id ?? null, ctx, { reason });
    if (user) {
      const lock = failure.lockedNow
        ? { until: new Date(Date.now() + failure.remainingMs), reason: AUTO_LOCK_REASON }
        : undefined;
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
    throw new VaultError(ErrorCode.EMERGENCY_VERIFICATION_FAILED);
  }

  private async startSession(
    user: UserEntity,
    ctx: RpcContext,
    now: number,
  ): Promise<WithRefresh<AuthResponse>> {
    const session = await this.sessions.start(user.id, ctx, now);
    const access = await this.tokens.sign(
      { userId: user.id, sessionId: session.sessionId, role: user.role },
      Math.floor(now / 1000),
    );
    return {
      body: { access, user: toUserDto(user), wrappedVaultKey: user.wrappedVaultKey },
      refresh: session.refresh,
    };
  }

  private async findByIdentifier(identifier: string): Promise<UserEntity | null> {
    const lookup = toIdentifierLookup(identifier);
    const candidates = await this.users.findIdentifierCandidates(lookup.lower, lookup.phone);
    return pickIdentifierMatch(candidates, lookup) ?? null;
  }
}
