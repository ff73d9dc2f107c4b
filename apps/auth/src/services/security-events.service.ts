import { Injectable } from '@nestjs/common';
import type { RpcContext } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import type { SecurityEventDetails, SecurityEventType } from '../entities/security-event.entity';
import type { NewSecurityEvent } from '../repositories/security-events.repository';
import { SecurityEventsRepository } from '../repositories/security-events.repository';

export const USER_AGENT_MAX = 512;
export const IP_MAX = 64;

/** Where a request came from, trimmed to column-friendly sizes. */
export function clientOf(ctx: Pick<RpcContext, 'ip' | 'userAgent'>): { ip: string; userAgent: string } {
  return { ip: (ctx.ip ?? '').slice(0, IP_MAX), userAgent: (ctx.userAgent ?? '').slice(0, USER_AGENT_MAX) };
}

/** The security-event log. `details` carries small facts only, never a secret or a body. */
@Injectable()
export class SecurityEventsService {
  constructor(private readonly events: SecurityEventsRepository) {}

  build(
    eventType: SecurityEventType,
    userId: string | null,
    ctx: Pick<RpcContext, 'ip' | 'userAgent'>,
    details: SecurityEventDetails = {},
  ): NewSecurityEvent {
    const client = clientOf(ctx);
    return {
      id: randomUUID(),
      userId,
      eventType,
      ipAddress: client.ip,
      userAgent: client.userAgent,
      details,
    };
  }

  async record(
    eventType: SecurityEventType,
    userId: string | null,
    ctx: Pick<RpcContext, 'ip' | 'userAgent'>,
    details: SecurityEventDetails = {},
  ): Promise<void> {
    await this.events.insert(this.build(eventType, userId, ctx, details));
  }
}
