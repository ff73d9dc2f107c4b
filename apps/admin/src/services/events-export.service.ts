import { Injectable } from '@nestjs/common';
import {
  ADMIN_LIMITS,
  type AdminEventsQuery,
  type AdminSecurityEvent,
  type RpcReply,
} from '@vault/contracts';
import type { AdminCaller } from '../handlers/admin-caller';
import { ServiceRpc } from '../rpc/service-rpc';
import { AdminActions } from './admin-actions';
import { csvDocument, type CsvCell } from './csv';

const HEADER = [
  'id',
  'timestamp',
  'eventType',
  'userId',
  'username',
  'email',
  'ipAddress',
  'userAgent',
  'details',
];

function row({ id, userId, username, email, event }: AdminSecurityEvent): CsvCell[] {
  return [
    id,
    event.timestamp,
    event.eventType,
    userId,
    username,
    email,
    event.ipAddress,
    event.userAgent,
    Object.keys(event.details).length > 0 ? JSON.stringify(event.details) : '',
  ];
}

/**
 * The security events as CSV: the export is audited first (an admin takes account data out of the
 * console), then auth's events are read page by page (keyset) up to ADMIN_LIMITS.eventsCsvMax rows.
 */
@Injectable()
export class EventsExportService {
  constructor(
    private readonly rpc: ServiceRpc,
    private readonly actions: AdminActions,
  ) {}

  export(caller: AdminCaller, query: AdminEventsQuery): Promise<RpcReply<'admin.events.csv'>> {
    const { type, userId, from, to } = query;
    const filters = Object.fromEntries(
      Object.entries({ type, userId, from, to }).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    return this.actions.run(
      caller,
      {
        action: 'security-events.export',
        targetType: 'security_event',
        targetId: userId ?? null,
        details: filters,
      },
      () => this.collect(caller, query),
    );
  }

  private async collect(caller: AdminCaller, query: AdminEventsQuery): Promise<RpcReply<'admin.events.csv'>> {
    const events: AdminSecurityEvent[] = [];
    let cursor = query.cursor;
    let truncated = false;
    for (;;) {
      const page = await this.rpc.call('auth.admin.events', caller.ctx, {
        ...query,
        cursor,
        limit: Math.min(ADMIN_LIMITS.eventsPageMax, ADMIN_LIMITS.eventsCsvMax - events.length),
      });
      events.push(...page.events);
      if (!page.nextCursor) break;
      if (events.length >= ADMIN_LIMITS.eventsCsvMax) {
        truncated = true;
        break;
      }
      cursor = page.nextCursor;
    }
    return { csv: csvDocument(HEADER, events.map(row)), rows: events.length, truncated };
  }
}
