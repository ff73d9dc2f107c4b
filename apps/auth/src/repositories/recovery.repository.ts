import { Injectable } from '@nestjs/common';
import type { KdfParamsDto } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecurityEventEntity } from '../entities/security-event.entity';
import type { NewSecurityEvent } from './security-events.repository';

/**
 * Postgres side of recovery: `auth.security_questions`, `auth.legacy_vault_keys`, and the
 * users-row updates recovery makes (recovery key, the credentials of a reset). Plain SQL:
 * these rows never leave the service as entities (mapped straight to contract shapes).
 */

export interface SecurityQuestionsRow {
  questions: string[];
  questionsSalt: string;
  answersAuthHash: string;
}

export interface LegacyKeyRow {
  id: string;
  wrappedVaultKey: string;
  salt: string;
  kdfParams: KdfParamsDto;
  createdAt: Date;
}

export interface ResetCredentials {
  authHash: string;
  salt: string;
  kdfParams: KdfParamsDto;
  wrappedVaultKey: string;
  /** Copy the current wrapped key, salt and KDF parameters into legacy_vault_keys first. */
  keepOldVaultKey: boolean;
  /** The recovery key wrapped the old vault key: it is dropped with it. */
  dropRecoveryKey: boolean;
}

@Injectable()
export class RecoveryRepository {
  constructor(private readonly dataSource: DataSource) {}

  async setRecoveryKey(
    userId: string,
    recoveryAuthHash: string,
    recoveryWrappedVaultKey: string,
  ): Promise<void> {
    await this.dataSource.query(
      `UPDATE "auth"."users" SET "recovery_auth_hash" = $2, "recovery_wrapped_vault_key" = $3,
         "updated_at" = now() WHERE "id" = $1`,
      [userId, recoveryAuthHash, recoveryWrappedVaultKey],
    );
  }

  async upsertQuestions(userId: string, row: SecurityQuestionsRow): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO "auth"."security_questions" ("user_id", "questions", "questions_salt", "answers_auth_hash")
       VALUES ($1, $2::jsonb, $3, $4)
       ON CONFLICT ("user_id") DO UPDATE SET "questions" = EXCLUDED."questions",
         "questions_salt" = EXCLUDED."questions_salt", "answers_auth_hash" = EXCLUDED."answers_auth_hash",
         "updated_at" = now()`,
      [userId, JSON.stringify(row.questions), row.questionsSalt, row.answersAuthHash],
    );
  }

  async findQuestions(userId: string): Promise<SecurityQuestionsRow | null> {
    const rows = await this.dataSource.query<
      Array<{ questions: string[]; questions_salt: string; answers_auth_hash: string }>
    >(
      `SELECT "questions", "questions_salt", "answers_auth_hash" FROM "auth"."security_questions"
       WHERE "user_id" = $1`,
      [userId],
    );
    const row = rows[0];
    return row
      ? {
          questions: row.questions,
          questionsSalt: row.questions_salt,
          answersAuthHash: row.answers_auth_hash,
        }
      : null;
  }

  async listLegacyKeys(userId: string): Promise<LegacyKeyRow[]> {
    const rows = await this.dataSource.query<
      Array<{
        id: string;
        wrapped_vault_key: string;
        salt: string;
        kdf_params: KdfParamsDto;
        created_at: Date;
      }>
    >(
      `SELECT "id", "wrapped_vault_key", "salt", "kdf_params", "created_at" FROM "auth"."legacy_vault_keys"
       WHERE "user_id" = $1 ORDER BY "created_at" DESC, "id"`,
      [userId],
    );
    return rows.map((r) => ({
      id: r.id,
      wrappedVaultKey: r.wrapped_vault_key,
      salt: r.salt,
      kdfParams: r.kdf_params,
      createdAt: r.created_at,
    }));
  }

  /** Deletes the user's own row only; false for an unknown id or another user's. */
  async deleteLegacyKey(userId: string, id: string, event: NewSecurityEvent): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const deleted = await manager.query<[unknown[], number]>(
        `DELETE FROM "auth"."legacy_vault_keys" WHERE "id" = $1 AND "user_id" = $2 RETURNING "id"`,
        [id, userId],
      );
      if (deleted[1] !== 1) return false;
      await manager.insert(SecurityEventEntity, event);
      return true;
    });
  }

  /**
   * A reset's new credentials, the old vault key kept when asked, the lockout mirror cleared
   * and the audit row, in one transaction. The reset starts a session, so it counts as the
   * last sign-in (failures before it no longer feed the unusual-activity rule).
   */
  async resetCredentials(userId: string, next: ResetCredentials, event: NewSecurityEvent): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      if (next.keepOldVaultKey) {
        await manager.query(
          `INSERT INTO "auth"."legacy_vault_keys" ("id", "user_id", "wrapped_vault_key", "salt", "kdf_params")
           SELECT $2, "id", "wrapped_vault_key", "salt", "kdf_params" FROM "auth"."users" WHERE "id" = $1`,
          [userId, randomUUID()],
        );
      }
      const updated = await manager.query<[unknown[], number]>(
        `UPDATE "auth"."users" SET "auth_hash" = $2, "salt" = $3, "kdf_params" = $4::jsonb,
           "wrapped_vault_key" = $5, "failed_login_attempts" = 0, "locked_until" = NULL,
           "locked_reason" = NULL, "last_login_at" = now(), "updated_at" = now()
           ${next.dropRecoveryKey ? ', "recovery_auth_hash" = NULL, "recovery_wrapped_vault_key" = NULL' : ''}
         WHERE "id" = $1 RETURNING "id"`,
        [userId, next.authHash, next.salt, JSON.stringify(next.kdfParams), next.wrappedVaultKey],
      );
      if (updated[1] !== 1) return false;
      await manager.insert(SecurityEventEntity, event);
      return true;
    });
  }
}
