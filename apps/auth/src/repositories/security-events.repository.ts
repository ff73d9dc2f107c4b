import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { SecurityEventEntity } from '../entities/security-event.entity';

export type NewSecurityEvent = Pick<
  SecurityEventEntity,
  'id' | 'userId' | 'eventType' | 'ipAddress' | 'userAgent' | 'details'
>;

/** Inserts and reads of `auth.security_events`. */
@Injectable()
export class SecurityEventsRepository {
  private readonly events: Repository<SecurityEventEntity>;

  constructor(dataSource: DataSource) {
    this.events = dataSource.getRepository(SecurityEventEntity);
  }

  async insert(event: NewSecurityEvent): Promise<void> {
    await this.events.insert(event);
  }

  /** Newest first. */
  listForUser(userId: string, limit = 50): Promise<SecurityEventEntity[]> {
    return this.events.find({ where: { userId }, order: { createdAt: 'DESC' }, take: limit });
  }
}
