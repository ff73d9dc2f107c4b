import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_PATTERNS, type SessionListResponse } from '@vault/contracts';
import { SessionService } from '../services/session.service';
import { readRpcBody } from '@vault/server-kit';

@Controller()
export class SessionsHandler {
  constructor(private readonly sessions: SessionService) {}

  @MessagePattern(AUTH_PATTERNS.listSessions)
  async list(@Payload() payload: unknown): Promise<SessionListResponse> {
    const { auth } = await this.sessions.signedIn(payload);
    return this.sessions.list(auth);
  }

  @MessagePattern(AUTH_PATTERNS.revokeSession)
  async revoke(@Payload() payload: unknown): Promise<null> {
    const { ctx, auth } = await this.sessions.signedIn(payload);
    await this.sessions.revoke(auth, readRpcBody(AUTH_PATTERNS.revokeSession, payload).id, ctx);
    return null;
  }
}
