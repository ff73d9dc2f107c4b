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
}
