import { Injectable } from '@nestjs/common';
import {
  ErrorCode,
  type AuthResponse,
  type Requires2faResponse,
  type RpcContext,
  type VerifyEmergencyBody,
  type WithRefresh,
} from '@vault/contracts';
import { SecretHasher } from '@vault/server-kit';
import type { UserEntity } from '../entities/user.entity';
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
    const subject = this.auth.signInSubject(user, body.identifier);
    await this.auth.refuseIfLocked(user, subject, ctx, 'emergency_verification_failed');

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
    return this.auth.completeSignIn(user, subject, ctx, { via: 'emergency_verification' });
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
