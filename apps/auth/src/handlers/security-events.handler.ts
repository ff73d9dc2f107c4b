import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AUTH_PATTERNS, type OwnEventList } from '@vault/contracts';
import { readRpcBody } from '@vault/server-kit';
import { AdminEventsService } from '../services/admin-events.service';
import { SessionService } from '../services/session.service';

/** The signed-in user's own security events (`GET /api/auth/security-events`). */
@Controller()
export class SecurityEventsHandler {
  constructor(
    private readonly events: AdminEventsService,
    private readonly sessions: SessionService,
  ) {}

  @MessagePattern(AUTH_PATTERNS.ownSecurityEvents)
  async list(@Payload() payload: unknown): Promise<OwnEventList> {
    const { auth } = await this.sessions.signedIn(payload);
    return this.events.own(auth, readRpcBody(AUTH_PATTERNS.ownSecurityEvents, payload));
  }
}
