import { Inject, Injectable, Logger } from '@nestjs/common';
import { ErrorCode, VaultError, type RpcContext } from '@vault/contracts';
import type { AuthConfig } from '../config/auth.config';
import type { UserEntity } from '../entities/user.entity';
import { AUTH_CONFIG } from '../repositories/connections';
import { UnusualActivityRepository } from '../repositories/unusual-activity.repository';
import { deviceFingerprint } from './device-fingerprint';
import { SecurityEventsService } from './security-events.service';

/**
 * The unusual-activity rule behind the 418 (apps/auth/README.md "Emergency verification").
 * A sign-in with the right key is unusual when all of these hold:
 * - the account knows at least one device (accounts with none, e.g. from before this rule,
 *   are never challenged: their first sign-in only teaches the device);
 * - this device (browser family + OS + /24 or /48 network, device-fingerprint.ts) is not one
 *   of them;
 * - the account had at least EMERGENCY_FAILED_ATTEMPTS failed sign-ins in the last
 *   EMERGENCY_WINDOW_SECONDS and since its last successful sign-in.
 * Devices are learned at sign-up, at every sign-in that starts a session and by a passed
 * emergency verification. Every password sign-in route calls `assertUsual` after the key check.
 */
@Injectable()
export class UnusualActivityService {
  private readonly logger = new Logger(UnusualActivityService.name);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly repo: UnusualActivityRepository,
    private readonly events: SecurityEventsService,
  ) {}

  private fingerprint(ctx: Pick<RpcContext, 'ip' | 'userAgent'>): string {
    return deviceFingerprint(this.config.serverSecret, ctx.userAgent ?? '', ctx.ip ?? '');
  }

  /** True when the rule asks this sign-in for emergency verification. */
  async isUnusual(
    user: UserEntity,
    ctx: Pick<RpcContext, 'ip' | 'userAgent'>,
    now = Date.now(),
  ): Promise<boolean> {
    const { failedAttempts, windowSeconds } = this.config.emergency;
    if (failedAttempts === 0) return false;
    const device = await this.repo.deviceState(user.id, this.fingerprint(ctx));
    if (device.known || device.count === 0) return false;
    const windowStart = now - windowSeconds * 1000;
    const since = Math.max(windowStart, user.lastLoginAt?.getTime() ?? 0);
    return (await this.repo.countFailuresSince(user.id, new Date(since))) >= failedAttempts;
  }

  /**
   * Call after the key was found right and before anything else happens (no session, no
   * requires2FA): answers 418 EMERGENCY_VERIFICATION_REQUIRED when the sign-in is unusual.
   */
  async assertUsual(user: UserEntity, ctx: RpcContext): Promise<void> {
    if (!(await this.isUnusual(user, ctx))) return;
    await this.events.record('emergency_verification_required', user.id, ctx);
    this.logger.warn(`Unusual sign-in, emergency verification required: user ${user.id}`);
    throw new VaultError(ErrorCode.EMERGENCY_VERIFICATION_REQUIRED, undefined, {
      requiresEmergencyVerification: true,
    });
  }

  /** Learns (or renews) the caller's device for the account. */
  async rememberDevice(userId: string, ctx: Pick<RpcContext, 'ip' | 'userAgent'>): Promise<void> {
    await this.repo.addDevice(userId, this.fingerprint(ctx), this.config.emergency.knownDeviceTtlSeconds);
  }

  forgetDevices(userId: string): Promise<void> {
    return this.repo.forgetDevices(userId);
  }
}
