import { Inject, Injectable } from '@nestjs/common';
import { ADMIN_MESSAGES, ErrorCode, VaultError } from '@vault/contracts';
import type { AuthConfig } from '../config/auth.config';
import { AUTH_CONFIG } from '../repositories/connections';
import { LoginAttemptsRepository } from '../repositories/login-attempts.repository';
import { FAILURE_MEMORY_SECONDS, lockRemainingMs, retryAfterSeconds } from './lockout';

export interface RecordedFailure {
  failures: number;
  /** Set when this failure locked the subject: the caller answers 423 and records it. */
  lockedNow: boolean;
  /** Set when the subject is locked after this failure (now or by a concurrent one). */
  locked: boolean;
  remainingMs: number;
}

/**
 * Sign-in brakes: the account lockout (LOCKOUT_THRESHOLD consecutive failures lock the
 * account for LOCKOUT_SECONDS; a success clears the count) and the per-IP throttle
 * (LOGIN_IP_MAX_FAILURES failures in LOGIN_IP_WINDOW_SECONDS refuse further attempts).
 */
@Injectable()
export class LoginGuardService {
  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly attempts: LoginAttemptsRepository,
  ) {}

  static accountSubject(userId: string): string {
    return `u:${userId}`;
  }

  /** 429 with retryAfter when this IP has used up its failures for the window. */
  async assertIpAllowed(ip: string): Promise<void> {
    // Once an IP has used up its failures, attempts are refused unchecked (sparing the Argon2 work).
    const ipWindow = await this.attempts.ipFailures(ipKey(ip), this.config.loginIpThrottle.maxFailures);
    if (!ipWindow.allowed) {
      throw new VaultError(ErrorCode.RATE_LIMITED, undefined, { retryAfter: ipWindow.retryAfter });
    }
  }

  async recordIpFailure(ip: string): Promise<void> {
    const { maxFailures, windowSeconds } = this.config.loginIpThrottle;
    await this.attempts.recordIpFailure(ipKey(ip), { limit: maxFailures, windowMs: windowSeconds * 1000 });
  }

  /** Milliseconds the subject stays locked (0 when it is not). */
  async lockRemainingMs(subject: string, lockedUntil: Date | null, nowMs = Date.now()): Promise<number> {
    return lockRemainingMs(await this.attempts.lockRemainingMs(subject), lockedUntil, nowMs);
  }

  async recordFailure(subject: string): Promise<RecordedFailure> {
    const { threshold, seconds } = this.config.lockout;
    const outcome = await this.attempts.recordFailure(
      subject,
      threshold,
      seconds * 1000,
      Math.max(FAILURE_MEMORY_SECONDS, seconds),
    );
    return {
      failures: outcome.failures,
      lockedNow: outcome.state === 'locked_now',
      locked: outcome.state !== 'counted',
      remainingMs: outcome.remainingMs,
    };
  }

  async clearFailures(subject: string): Promise<void> {
    await this.attempts.clearFailures(subject);
  }

  /** `byAdmin`: the lock is an administrator's, not the failures': the answer says so. */
  lockedError(remainingMs: number, byAdmin = false): VaultError {
    const retryAfter = retryAfterSeconds(remainingMs);
    return byAdmin
      ? new VaultError(ErrorCode.ACCOUNT_LOCKED, ADMIN_MESSAGES.lockedByAdmin, {
          retryAfter,
          lockedBy: 'admin',
        })
      : new VaultError(ErrorCode.ACCOUNT_LOCKED, undefined, { retryAfter });
  }
}

function ipKey(ip: string): string {
  return ip.trim() || 'unknown';
}
