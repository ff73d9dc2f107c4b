import { Inject, Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type AuthResponse,
  type Requires2faResponse,
  type RpcContext,
  type VerifyEmergencyBody,
  type WithRefresh,
} from '@vault/contracts';
import { SecretHasher } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';
import type { UserEntity } from '../entities/user.entity';
import { AUTH_CONFIG } from '../repositories/connections';
import { UsersRepository } from '../repositories/users.repository';
import { unknownIdentifierSubject } from './fake-salt';
import { AuthService } from './auth.service';
import { normalizePhone } from './identifier';
import { LoginGuardService } from './login-guard.service';
import { SecurityEventsService } from './security-events.service';
import { UnusualActivityService } from './unusual-activity.service';

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
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly users: UsersRepository,
    private readonly hasher: SecretHasher,
    private readonly auth: AuthService,
    private readonly guard: LoginGuardService,
    private readonly events: SecurityEventsService,
    private readonly unusual: UnusualActivityService,
  ) {}

  async verify(
    body: VerifyEmergencyBody,
    ctx: RpcContext,
  ): Promise<WithRefresh<AuthResponse | Requires2faResponse>> {
    await this.guard.assertIpAllowed(ctx.ip);
    const user = await this.auth.findByIdentifier(body.identifier);
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

    await this.events.record('emergency_verification_passed', user.id, ctx);
    // The code step follows (2fa/login); this device is known now, so it is not challenged
    // again. As at login, failures are forgotten only once the second factor is right too.
    // (Without 2FA, startSession learns the device.)
    if (user.twoFactorEnabled) {
      await this.unusual.rememberDevice(user.id, ctx);
      return { body: { requires2FA: true } };
    }
    await this.guard.clearFailures(subject);
    const now = Date.now();
    await this.users.clearLoginFailures(user.id, new Date(now));
    await this.events.record('signin_success', user.id, ctx, { via: 'emergency_verification' });
    return this.auth.startSession(user, ctx, now);
  }

  private fail(user: UserEntity | null, subject: string, ctx: RpcContext, keyValid: boolean): Promise<never> {
    const reason = !user ? 'unknown_user' : keyValid ? 'details_mismatch' : 'bad_key';
    return this.auth.failSignIn(user, subject, ctx, {
      event: 'emergency_verification_failed',
      reason,
      error: ErrorCode.EMERGENCY_VERIFICATION_FAILED,
    });
  }
}
