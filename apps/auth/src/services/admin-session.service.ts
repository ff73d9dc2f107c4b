import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  isAdminRole,
  VaultError,
  type AdminSessionCheckReply,
  type AdminSignInReply,
  type LoginBody,
  type RpcContext,
} from '@vault/contracts';
import { randomToken, sha256Hex } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';
import type { UserEntity } from '../entities/user.entity';
import { toAdminSessionResponse } from '../mappers/admin-session.mapper';
import { AdminSessionsRepository, type AdminSessionRecord } from '../repositories/admin-sessions.repository';
import { AUTH_CONFIG } from '../repositories/connections';
import { UsersRepository } from '../repositories/users.repository';
import { isAdminLock } from './account-lock';
import { AuthService } from './auth.service';
import { LoginGuardService } from './login-guard.service';
import { clientOf, SecurityEventsService } from './security-events.service';
import { TwoFactorService } from './two-factor.service';

/** 256 random bits, base64url: 43 characters. */
const TOKEN_BYTES = 32;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

/** Why a session check ends a live session: the account no longer qualifies. */
type Disqualified =
  typeof ErrorCode.UNAUTHENTICATED | typeof ErrorCode.ADMIN_REQUIRED | typeof ErrorCode.ADMIN_2FA_REQUIRED;

/**
 * The admin console's sign-in and session (apps/auth/README.md "The admin session"). The sign-in
 * runs the vault sign-in's brakes (per-IP throttle, lockout, dummy verify), then requires an admin
 * role and a TOTP code; it never starts a vault session nor answers tokens or key material. The
 * session is a random token whose SHA-256 alone is kept in Redis; every admin call checks it and
 * re-reads the account, so a lock, demotion, deletion or 2FA removal ends it at the next call.
 */
@Injectable()
export class AdminSessionService {
  private readonly logger = new Logger(AdminSessionService.name);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly auth: AuthService,
    private readonly users: UsersRepository,
    private readonly guard: LoginGuardService,
    private readonly twoFactor: TwoFactorService,
    private readonly events: SecurityEventsService,
    private readonly sessions: AdminSessionsRepository,
  ) {}

  /**
   * No unusual-activity (418) step here: that step exists because a vault sign-in may have one
   * factor only, while the console always asks for the TOTP code, which a password guesser lacks.
   * Backup codes are not accepted: the console asks for the 6-digit code, and an admin without the
   * authenticator recovers it in the vault (backup code sign-in, new authenticator) first.
   */
  async signIn(body: LoginBody, ctx: RpcContext): Promise<AdminSignInReply> {
    const { user, subject, valid } = await this.auth.checkKey(body, ctx, 'admin_signin_failure');
    if (!user || !valid) {
      return this.auth.failLogin(user, subject, ctx, ErrorCode.INVALID_CREDENTIALS, 'admin_signin_failure');
    }
    // The key was right, so these answers tell the caller nothing it does not know; they are not
    // credential failures and do not count toward the lockout.
    if (!isAdminRole(user.role)) return this.refuse(user, ctx, 'not_admin', ErrorCode.ADMIN_REQUIRED);
    if (!user.twoFactorEnabled) return this.refuse(user, ctx, 'no_2fa', ErrorCode.ADMIN_2FA_REQUIRED);

    const code = body.totpCode?.trim();
    // Failures are forgotten only once the code is right too (as for the vault's sign-in).
    if (!code) return { body: { requires2FA: true } };
    const checked = await this.twoFactor.checkSecondFactor(user.id, { code }, ctx, 'admin_login');
    if (!checked.ok) return this.auth.failLogin(user, subject, ctx, checked.error, 'admin_signin_failure');

    await this.guard.clearFailures(subject);
    await this.users.clearLoginFailures(user.id);
    await this.events.record('admin_signin_success', user.id, ctx);
    return this.start(user, ctx);
  }

  /**
   * The check behind every admin call: the admin, re-read from the database, and the new idle end.
   * The rights read are stored in the session too (services re-check calls against them), and its
   * key (the token's hash, never the token) is answered beside, for the gateway's context.
   */
  async check(token: string, now = Date.now()): Promise<AdminSessionCheckReply> {
    const hash = TOKEN_RE.test(token) ? sha256Hex(token) : null;
    const session = hash ? await this.sessions.touch(hash, now, this.config.adminSession.idleMs) : null;
    if (!hash || !session) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    const user = await this.users.findById(session.userId);
    const refused = this.disqualified(user, now);
    if (refused || !user) {
      await this.sessions.end(hash);
      throw new VaultError(refused ?? ErrorCode.UNAUTHENTICATED);
    }
    const answer = toAdminSessionResponse(user, session, this.idleEnd(session, now));
    await this.sessions.grantIfChanged(hash, answer.admin, session.storedAccess);
    return { session: answer, key: hash };
  }

  /** Ends the session of this token, if any (signing out twice is fine). */
  async signOut(token: string, ctx: RpcContext): Promise<void> {
    if (!TOKEN_RE.test(token)) return;
    const userId = await this.sessions.end(sha256Hex(token));
    if (userId) await this.events.record('admin_signout', userId, ctx);
  }

  /** Every admin session of this account ends (its lock, demotion or deletion). */
  endAllFor(userId: string): Promise<number> {
    return this.sessions.endAllFor(userId);
  }

  private async start(user: UserEntity, ctx: RpcContext): Promise<AdminSignInReply> {
    const now = Date.now();
    const token = randomToken(TOKEN_BYTES);
    const session: AdminSessionRecord = {
      userId: user.id,
      createdAt: now,
      expiresAt: now + this.config.adminSession.maxMs,
      lastSeenAt: now,
      ...clientOf(ctx),
    };
    const idleEnd = this.idleEnd(session, now);
    const body = toAdminSessionResponse(user, session, idleEnd);
    await this.sessions.create(sha256Hex(token), session, idleEnd - now, body.admin);
    this.logger.log(`Admin signed in: user ${user.id}`);
    return {
      body,
      // The cookie lives to the absolute end; the idle end is the server's to enforce.
      session: { token, maxAgeSeconds: Math.floor((session.expiresAt - now) / 1000) },
    };
  }

  private idleEnd(session: AdminSessionRecord, now: number): number {
    return Math.min(now + this.config.adminSession.idleMs, session.expiresAt);
  }

  /** Null while the account may still use the console; otherwise the answer that ends the session. */
  private disqualified(user: UserEntity | null, now: number): Disqualified | null {
    // An administrator's lock signs the admin out (401 rather than "locked": the session is over
    // either way). The failed sign-ins' own lock does not: anyone knowing the username can cause it.
    if (!user || isAdminLock(user, now)) return ErrorCode.UNAUTHENTICATED;
    if (!isAdminRole(user.role)) return ErrorCode.ADMIN_REQUIRED;
    if (!user.twoFactorEnabled) return ErrorCode.ADMIN_2FA_REQUIRED;
    return null;
  }

  private async refuse(
    user: UserEntity,
    ctx: RpcContext,
    reason: 'not_admin' | 'no_2fa',
    error: Disqualified,
  ): Promise<never> {
    await this.events.record('admin_signin_refused', user.id, ctx, { reason });
    throw new VaultError(error);
  }
}
