import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SecurityEventEntity } from '../entities/security-event.entity';
import { UserEntity } from '../entities/user.entity';
import type { NewSecurityEvent } from './security-events.repository';

/** The account's row goes in one transaction with its audit record. */
@Injectable()
export class AccountDeletionRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Deletes the user (every auth row of the account cascades), writes `event` (which must not
   * reference the user: it would cascade away too) and runs `beforeCommit` inside the
   * transaction, so a failure there (queueing the purge, revoking sessions) rolls the deletion
   * back and the caller can simply retry. False when the user was already gone.
   */
  async deleteUser(
    userId: string,
    event: NewSecurityEvent,
    beforeCommit: () => Promise<void>,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager.delete(UserEntity, { id: userId });
      if (result.affected !== 1) return false;
      await manager.insert(SecurityEventEntity, event);
      await beforeCommit();
      return true;
    });
  }

  /**
   * The accounts deleted since `since`, from their `account_deleted` records (the deletion's own
   * transaction wrote them, so each one committed), oldest first: what the purges were for.
   * Read through security_events_type_created_idx.
   */
  async deletedSince(since: Date): Promise<{ userId: string; deletedAt: Date }[]> {
    const rows: { user_id: string | null; created_at: Date }[] = await this.dataSource.query(
      `SELECT details->>'userId' AS user_id, created_at FROM auth.security_events
        WHERE event_type = 'account_deleted' AND created_at >= $1
        ORDER BY created_at`,
      [since],
    );
    return rows.flatMap((r) => (r.user_id ? [{ userId: r.user_id, deletedAt: r.created_at }] : []));
  }
}
