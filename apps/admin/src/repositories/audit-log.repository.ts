import { Injectable } from '@nestjs/common';
import type { AuditList } from '@vault/contracts';
import { DataSource } from 'typeorm';
import {
  AUDIT_HASH_VERSION,
  auditEntryInputSchema,
  auditHash,
  GENESIS_HASH,
  type AuditEntryInput,
  type AuditRecord,
} from '../audit/audit-entry';
import { auditEntryDto } from '../audit/audit-entry-dto';
import {
  AUDIT_COLUMNS,
  verifyAuditChain,
  type AuditRow,
  type AuditVerification,
} from '../audit/verify-chain';

/**
 * Appends take this transaction-scoped advisory lock, so entries are chained one at a time.
 * (LOCK TABLE would need UPDATE or DELETE rights, which the append-only table's role should not
 * have.)
 */
const APPEND_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('vault:admin.audit_log', 0))`;

/** The admin audit log (admin.audit_log): append-only and hash-chained. */
@Injectable()
export class AuditLogRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records one admin action: in one transaction, takes the append lock, reads the last entry,
   * and inserts this one as id + 1 with prev_hash = its hash and hash over the canonical
   * encoding (audit-entry.ts). The time is the database's, to the millisecond.
   */
  async append(input: AuditEntryInput): Promise<AuditRecord> {
    const entry = auditEntryInputSchema.parse(input);
    return this.dataSource.transaction(async (manager) => {
      await manager.query(APPEND_LOCK_SQL);
      const [head] = (await manager.query(
        `SELECT date_trunc('milliseconds', clock_timestamp()) AS "now", last."id", last."hash"
         FROM (SELECT 1) AS one
         LEFT JOIN LATERAL (SELECT "id", "hash" FROM "admin"."audit_log" ORDER BY "id" DESC LIMIT 1) AS last ON true`,
      )) as { now: Date; id: string | null; hash: string | null }[];
      if (!head) throw new Error('the audit log head query answered no row');
      const unsigned = {
        ...entry,
        id: head.id === null ? '1' : (BigInt(head.id) + 1n).toString(),
        createdAt: head.now,
        prevHash: head.hash ?? GENESIS_HASH,
      };
      const record: AuditRecord = { ...unsigned, hash: auditHash(unsigned) };
      await manager.query(
        `INSERT INTO "admin"."audit_log" ("id", "created_at", "actor_id", "actor_label", "action", "target_type",
           "target_id", "reason", "ip", "user_agent", "details", "hash_version", "prev_hash", "hash")
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          record.id,
          record.createdAt,
          record.actorId,
          record.actorLabel,
          record.action,
          record.targetType,
          record.targetId,
          record.reason,
          record.ip,
          record.userAgent,
          JSON.stringify(record.details),
          AUDIT_HASH_VERSION,
          record.prevHash,
          record.hash,
        ],
      );
      return record;
    });
  }

  /** A page of entries, newest first: those with an id below `before` (the log's own order). */
  async list(limit: number, before?: number): Promise<AuditList> {
    const rows = await this.dataSource.query<AuditRow[]>(
      `SELECT ${AUDIT_COLUMNS} FROM "admin"."audit_log"
       WHERE $1::bigint IS NULL OR "id" < $1::bigint ORDER BY "id" DESC LIMIT $2`,
      [before ?? null, limit + 1],
    );
    const page = rows.slice(0, limit);
    return {
      entries: page.map(auditEntryDto),
      nextBefore: rows.length > limit && page.length > 0 ? Number(page[page.length - 1]!.id) : null,
    };
  }

  /** Walks the whole chain (verifyAuditChain). */
  verify(batchSize?: number): Promise<AuditVerification> {
    return verifyAuditChain((sql, params) => this.dataSource.query<AuditRow[]>(sql, params), batchSize);
  }
}
