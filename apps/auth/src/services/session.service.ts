import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  ErrorCode,
  VaultError,
  type RefreshGrant,
  type RpcAuth,
  type RpcContext,
  type SessionListResponse,
} from '@vault/contracts';
import { readAuth, readContext, safeEqual } from '@vault/server-kit';
import { randomUUID } from 'node:crypto';
import type { AuthConfig } from '../config/auth.config';
import { toSessionDto } from '../mappers/session.mapper';
import { AUTH_CONFIG } from '../repositories/connections';
import { SessionsRepository } from '../repositories/sessions.repository';
import { hashRefreshToken, newRefreshToken, parseRefreshToken } from './refresh-token';
import { clientOf, SecurityEventsService } from './security-events.service';

export interface StartedSession {
  sessionId: string;
  refresh: RefreshGrant;
}

export interface RotatedSession {
  userId: string;
  sessionId: string;
  /** Absent for a grace answer: the caller keeps the cookie it already has. */
  refresh?: RefreshGrant;
}

/**
 * Sessions and their refresh family. Rules:
 * - a session lives REFRESH_TTL_SECONDS from sign-in, whatever happens (absolute life);
 * - every refresh rotates the token (current hash -> previous hash) and slides lastSeenAt;
 * - the previous token within REFRESH_REUSE_GRACE_SECONDS of its rotation gets an access
 *   token but no new refresh token (two tabs refreshing at once both stay signed in);
 * - a token this session issued and later rotated out (the previous one after the grace, or
 *   an older one) is reuse: the whole session is revoked (RFC 9700 §4.14);
 * - any other token is REFRESH_INVALID and changes nothing: a token that was never issued
 *   cannot end a session, nor tell a caller whether the session id it names is live.
 */
@Injectable()
export class SessionService {
  private readonly logger = new Logger(SessionService.name);

  constructor(
    @Inject(AUTH_CONFIG) private readonly config: AuthConfig,
    private readonly sessions: SessionsRepository,
    private readonly events: SecurityEventsService,
  ) {}

  async start(userId: string, ctx: RpcContext, now = Date.now()): Promise<StartedSession> {
    const sessionId = randomUUID();
    const token = newRefreshToken(sessionId);
    const expiresAt = now + this.config.refresh.ttlSeconds * 1000;
    const client = clientOf(ctx);
    await this.sessions.create(
      { id: sessionId, userId, createdAt: now, lastSeenAt: now, expiresAt, ...client },
      hashRefreshToken(token),
      now,
    );
    return { sessionId, refresh: grant(token, expiresAt, now) };
  }

  /** Rotates a refresh token, or answers REFRESH_INVALID / REFRESH_REUSED. */
  async rotate(token: string, ctx: RpcContext, now = Date.now()): Promise<RotatedSession> {
    const parsed = parseRefreshToken(token);
    if (!parsed) throw new VaultError(ErrorCode.REFRESH_INVALID);
    const next = newRefreshToken(parsed.sessionId);
    const outcome = await this.sessions.rotate(
      parsed.sessionId,
      hashRefreshToken(token),
      hashRefreshToken(next),
      now,
      this.config.refresh.reuseGraceSeconds * 1000,
      clientOf(ctx).ip,
    );
    switch (outcome.kind) {
      case 'missing':
      case 'unknown':
        throw new VaultError(ErrorCode.REFRESH_INVALID);
      case 'rotated':
        return {
          userId: outcome.userId,
          sessionId: parsed.sessionId,
          refresh: grant(next, outcome.expiresAt, now),
        };
      case 'grace':
        return { userId: outcome.userId, sessionId: parsed.sessionId };
      case 'reuse':
        await this.sessions.forget(outcome.userId, parsed.sessionId);
        await this.events.record('refresh_reuse', outcome.userId, ctx, { sessionId: parsed.sessionId });
        this.logger.warn(
          `Refresh token reuse: session ${parsed.sessionId} of user ${outcome.userId} revoked`,
        );
        throw new VaultError(ErrorCode.REFRESH_REUSED);
    }
  }

  /**
   * Ends the session named by a refresh token (only when the token checks out) or else the
   * caller's own session. Idempotent: nothing to end is not an error.
   */
  async logout(ctx: RpcContext, refreshToken?: string): Promise<void> {
    const target = (await this.sessionOfToken(refreshToken)) ?? ctx.auth;
    if (!target) return;
    if (await this.sessions.revokeOwned(target.userId, target.sessionId)) {
      await this.events.record('logout', target.userId, ctx, { sessionId: target.sessionId });
    }
  }

  /** Defence in depth behind the gateway's own check: the caller's session must still exist. */
  async assertAlive(auth: RpcAuth | undefined): Promise<RpcAuth> {
    if (!auth) throw new VaultError(ErrorCode.UNAUTHENTICATED);
    const session = await this.sessions.get(auth.sessionId);
    if (!session || session.userId !== auth.userId) throw new VaultError(ErrorCode.SESSION_REVOKED);
    return auth;
  }

  /** The caller of a signed-in route: its context, and its identity once its session is known to be live. */
  async signedIn(payload: unknown): Promise<{ ctx: RpcContext; auth: RpcAuth }> {
    const ctx = readContext(payload);
    return { ctx, auth: await this.assertAlive(readAuth(ctx)) };
  }

  async list(auth: RpcAuth): Promise<SessionListResponse> {
    const sessions = await this.sessions.listForUser(auth.userId);
    sessions.sort((a, b) => b.lastSeenAt - a.lastSeenAt);
    return { sessions: sessions.map((s) => toSessionDto(s, auth.sessionId)) };
  }

  /** Another user's session and an unknown id both answer 404 (docs/api.md "401, 403 and 404"). */
  async revoke(auth: RpcAuth, sessionId: string, ctx: RpcContext): Promise<void> {
    if (!(await this.sessions.revokeOwned(auth.userId, sessionId))) throw new VaultError(ErrorCode.NOT_FOUND);
    await this.events.record('session_revoked', auth.userId, ctx, {
      sessionId,
      current: sessionId === auth.sessionId,
    });
  }

  revokeAllExcept(userId: string, keepSessionId: string): Promise<number> {
    return this.sessions.revokeAllForUser(userId, keepSessionId);
  }

  /** Ends a session whose user no longer exists (found during a refresh). */
  async drop(userId: string, sessionId: string): Promise<void> {
    await this.sessions.revokeOwned(userId, sessionId);
  }

  private async sessionOfToken(token: string | undefined): Promise<RpcAuthLike | undefined> {
    if (!token) return undefined;
    const parsed = parseRefreshToken(token);
    if (!parsed) return undefined;
    const stored = await this.sessions.refreshHashes(parsed.sessionId);
    const presented = hashRefreshToken(token);
    if (!stored || !stored.hashes.some((h) => safeEqual(h, presented))) return undefined;
    return { userId: stored.userId, sessionId: parsed.sessionId };
  }
}

type RpcAuthLike = Pick<RpcAuth, 'userId' | 'sessionId'>;

function grant(token: string, expiresAt: number, now: number): RefreshGrant {
  return { token, maxAgeSeconds: Math.max(1, Math.floor((expiresAt - now) / 1000)) };
}
