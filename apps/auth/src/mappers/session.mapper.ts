import type { SessionDto } from '@vault/contracts';
import type { SessionRecord } from '../repositories/sessions.repository';

export function toSessionDto(session: SessionRecord, currentSessionId: string | undefined): SessionDto {
  return {
    id: session.id,
    current: session.id === currentSessionId,
    ipAddress: session.ip,
    userAgent: session.userAgent,
    createdAt: new Date(session.createdAt).toISOString(),
    lastSeenAt: new Date(session.lastSeenAt).toISOString(),
    expiresAt: new Date(session.expiresAt).toISOString(),
  };
}
