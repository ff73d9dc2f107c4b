import { Injectable } from '@nestjs/common';
import {
  ADMIN_MESSAGES,
  ErrorCode,
  VaultError,
  type AdminEventList,
  type AdminEventsQuery,
  type OwnEventList,
  type OwnEventsQuery,
  type RpcAuth,
} from '@vault/contracts';
import { toAdminSecurityEvent, toOwnSecurityEvent } from '../mappers/admin.mapper';
import {
  SecurityEventsRepository,
  type EventFilter,
  type EventRow,
} from '../repositories/security-events.repository';
import { decodeEventCursor, encodeCursor } from './keyset-cursor';

/**
 * The security-event log, read: every account's (the admin console, security:read) and the
 * signed-in user's own. Both page by keyset on (created_at DESC, id DESC) with an opaque cursor,
 * so a page never repeats or skips an event however many arrive meanwhile.
 */
@Injectable()
export class AdminEventsService {
  constructor(private readonly events: SecurityEventsRepository) {}

  async list(query: AdminEventsQuery): Promise<AdminEventList> {
    if (query.from && query.to && Date.parse(query.from) >= Date.parse(query.to)) {
      throw new VaultError(ErrorCode.VALIDATION_FAILED, ADMIN_MESSAGES.invalidRange);
    }
    const { rows, nextCursor } = await this.page(
      { type: query.type, userId: query.userId, from: query.from, to: query.to },
      query.cursor,
      query.limit,
    );
    return { events: rows.map(toAdminSecurityEvent), nextCursor };
  }

  async own(auth: RpcAuth, query: OwnEventsQuery): Promise<OwnEventList> {
    const { rows, nextCursor } = await this.page({ userId: auth.userId }, query.cursor, query.limit);
    return { events: rows.map(toOwnSecurityEvent), nextCursor };
  }

  private async page(
    filter: EventFilter,
    cursor: string | undefined,
    limit: number,
  ): Promise<{ rows: EventRow[]; nextCursor: string | null }> {
    const after = cursor ? decodeEventCursor(cursor) : undefined;
    const rows = await this.events.page({ ...filter, after }, limit + 1);
    const shown = rows.slice(0, limit);
    const last = shown[shown.length - 1];
    return {
      rows: shown,
      nextCursor: rows.length > limit && last ? encodeCursor(last.position, last.id) : null,
    };
  }
}
