import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { SecurityEventEntity, type SecurityEventDetails } from '../entities/security-event.entity';

export type NewSecurityEvent = Pick<
  SecurityEventEntity,
  'id' | 'userId' | 'eventType' | 'ipAddress' | 'userAgent' | 'details'
>;

/** A position in the (created_at DESC, id DESC) order; `at` keeps Postgres' microseconds. */
export interface EventPosition {
  at: string;
  id: string;
}

export interface EventFilter {
  type?: string;
  userId?: string;
  from?: string;
  to?: string;
  after?: EventPosition;
}

/** An event with its account's names (null once the account is gone or for unknown identifiers). */
export interface EventRow {
  id: string;
  userId: string | null;
  email: string | null;
  username: string | null;
  eventType: string;
  ipAddress: string;
  userAgent: string;
  details: SecurityEventDetails;
  createdAt: Date;
  /** created_at as exact UTC text, for the next page's cursor. */
  position: string;
}

/** Inserts and reads of `auth.security_events`. */
@Injectable()
export class SecurityEventsRepository {
  private readonly events: Repository<SecurityEventEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.events = dataSource.getRepository(SecurityEventEntity);
  }

  async insert(event: NewSecurityEvent): Promise<void> {
    await this.events.insert(event);
  }

  /** Newest first. */
  listForUser(userId: string, limit = 50): Promise<SecurityEventEntity[]> {
    return this.events.find({ where: { userId }, order: { createdAt: 'DESC' }, take: limit });
  }

  /**
   * A keyset page, newest first: `limit` rows after `filter.after`. The position is compared as
   * created_at first (a range on the created_at indexes), then id among equal timestamps.
   */
  async page(filter: EventFilter, limit: number): Promise<EventRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (filter.type) where.push(`e.event_type = ${param(filter.type)}`);
    if (filter.userId) where.push(`e.user_id = ${param(filter.userId)}`);
    if (filter.from) where.push(`e.created_at >= ${param(filter.from)}::timestamptz`);
    if (filter.to) where.push(`e.created_at < ${param(filter.to)}::timestamptz`);
    if (filter.after) {
      const at = param(filter.after.at);
      const id = param(filter.after.id);
      where.push(
        `e.created_at <= ${at}::timestamptz AND (e.created_at < ${at}::timestamptz OR e.id < ${id}::uuid)`,
      );
    }
    const rows = await this.dataSource.query<(Omit<EventRow, 'createdAt'> & { createdAt: string })[]>(
      `SELECT e.id, e.user_id AS "userId", u.email, u.username, e.event_type AS "eventType",
              e.ip_address AS "ipAddress", e.user_agent AS "userAgent", e.details, e.created_at AS "createdAt",
              to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position
         FROM auth.security_events e
         LEFT JOIN auth.users u ON u.id = e.user_id
        ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY e.created_at DESC, e.id DESC
        LIMIT ${param(limit)}`,
      params,
    );
    return rows.map((r) => ({ ...r, createdAt: new Date(r.createdAt) }));
  }
}
