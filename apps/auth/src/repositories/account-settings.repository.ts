import { Injectable } from '@nestjs/common';
import type { AccountSettings } from '@vault/contracts';
import { DataSource } from 'typeorm';
import { SecurityEventEntity } from '../entities/security-event.entity';
import type { NewSecurityEvent } from './security-events.repository';

/** The settings columns of `auth.users` (migration 1795420000000-account-settings). */
@Injectable()
export class AccountSettingsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(userId: string): Promise<AccountSettings | null> {
    const rows = await this.dataSource.query<{ malware_fingerprint_check: boolean }[]>(
      `SELECT malware_fingerprint_check FROM auth.users WHERE id = $1`,
      [userId],
    );
    const row = rows[0];
    return row ? { malwareFingerprintCheck: row.malware_fingerprint_check } : null;
  }

  /**
   * Sets the value and writes `event` in one transaction, only when the value changes.
   * Answers whether it changed, or null when the user does not exist.
   */
  async update(userId: string, next: AccountSettings, event: NewSecurityEvent): Promise<boolean | null> {
    return this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<{ malware_fingerprint_check: boolean }[]>(
        `SELECT malware_fingerprint_check FROM auth.users WHERE id = $1 FOR UPDATE`,
        [userId],
      );
      const row = rows[0];
      if (!row) return null;
      if (row.malware_fingerprint_check === next.malwareFingerprintCheck) return false;
      await manager.query(
        `UPDATE auth.users SET malware_fingerprint_check = $2, updated_at = now() WHERE id = $1`,
        [userId, next.malwareFingerprintCheck],
      );
      await manager.insert(SecurityEventEntity, event);
      return true;
    });
  }
}
