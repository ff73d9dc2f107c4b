import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  AUTH_PATTERNS,
  ErrorCode,
  type AdminSessionCheckReply,
  type AdminSignInReply,
} from '@vault/contracts';
import { readContext, readRpcBody } from '@vault/server-kit';
import { AdminSessionService } from '../services/admin-session.service';

/** The admin console's sign-in, session check and sign-out. Handlers only translate. */
@Controller()
export class AdminSessionHandler {
  constructor(private readonly adminSessions: AdminSessionService) {}

  @MessagePattern(AUTH_PATTERNS.adminSignIn)
  signIn(@Payload() payload: unknown): Promise<AdminSignInReply> {
    return this.adminSessions.signIn(readRpcBody(AUTH_PATTERNS.adminSignIn, payload), readContext(payload));
  }

  /** A missing or malformed token is a 401 like an unknown one, not a 400. */
  @MessagePattern(AUTH_PATTERNS.adminSession)
  session(@Payload() payload: unknown): Promise<AdminSessionCheckReply> {
    readContext(payload);
    const { token } = readRpcBody(AUTH_PATTERNS.adminSession, payload, ErrorCode.UNAUTHENTICATED);
    return this.adminSessions.check(token);
  }

  @MessagePattern(AUTH_PATTERNS.adminSignOut)
  async signOut(@Payload() payload: unknown): Promise<null> {
    const ctx = readContext(payload);
    const { token } = readRpcBody(AUTH_PATTERNS.adminSignOut, payload, ErrorCode.UNAUTHENTICATED);
    await this.adminSessions.signOut(token, ctx);
    return null;
  }
}
