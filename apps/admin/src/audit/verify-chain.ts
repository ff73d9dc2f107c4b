import {
  AUDIT_HASH_VERSION,
  auditHash,
  GENESIS_HASH,
  type AuditDetails,
  type AuditEntry,
} from './audit-entry';

/** One row of admin.audit_log as the pg driver reads it (bigint as a string, timestamptz as a Date). */
export interface AuditRow {
  id: string;
  created_at: Date;
  actor_id: string;
  actor_label: string;
  action: string;
  target_type: string;
  target_id: string | null;
  reason: string | null;
  ip: string;
  user_agent: string;
  details: AuditDetails;
  hash_version: number;
  prev_hash: string;
  hash: string;
}

export const AUDIT_COLUMNS = `"id", "created_at", "actor_id", "actor_label", "action", "target_type", "target_id",
  "reason", "ip", "user_agent", "details", "hash_version", "prev_hash", "hash"`;

/** The entry's own fields of a row (what the hash covers besides id, time and prev_hash). */
export function entryFields(row: AuditRow): AuditEntry {
  return {
    actorId: row.actor_id,
    actorLabel: row.actor_label,
    action: row.action,
    targetType: row.target_type,
    targetId: row.target_id,
    reason: row.reason,
    ip: row.ip,
    userAgent: row.user_agent,
    details: row.details,
  };
}

/** Runs one query and answers its rows (a pg Client, a TypeORM DataSource or EntityManager). */
export type RowQuery = (sql: string, params: unknown[]) => Promise<AuditRow[]>;

/** Why an entry breaks the chain. */
export type AuditBreakKind = 'gap' | 'prev_hash' | 'hash' | 'version';

export type AuditVerification =
  | { ok: true; entries: number; lastId: string | null; lastHash: string }
  | {
      ok: false;
      /** The entries before the broken one, which verified. */
      entries: number;
      broken: { id: string; kind: AuditBreakKind; message: string };
    };

/**
 * Walks the audit log in id order, a batch at a time (never the whole table in memory), and
 * answers ok or the first broken entry: a hole in the ids (rows deleted before it), a prev_hash
 * that is not the previous entry's hash (an entry removed, reordered or forged), or a hash that
 * is not the hash of the entry's own fields (an entry altered). An entry rewritten together with
 * its own hash shows as the next entry's prev_hash mismatch; rows cut off the end are not seen
 * here (compare the last id and hash with a copy kept elsewhere).
 */
export async function verifyAuditChain(query: RowQuery, batchSize = 1000): Promise<AuditVerification> {
  let expectedId = 1n;
  let prevHash = GENESIS_HASH;
  let entries = 0;
  for (;;) {
    const rows = await query(
      `SELECT ${AUDIT_COLUMNS} FROM "admin"."audit_log" WHERE "id" >= $1 ORDER BY "id" LIMIT $2`,
      [expectedId.toString(), batchSize],
    );
    for (const row of rows) {
      const id = BigInt(row.id);
      const broken = (kind: AuditBreakKind, message: string): AuditVerification => ({
        ok: false,
        entries,
        broken: { id: row.id, kind, message: `entry ${row.id}: ${message}` },
      });
      if (id !== expectedId) {
        const missing =
          id - 1n === expectedId ? `entry ${expectedId} is` : `entries ${expectedId}..${id - 1n} are`;
        return broken('gap', `${missing} missing (deleted)`);
      }
      if (row.hash_version !== AUDIT_HASH_VERSION) {
        return broken('version', `unknown hash version ${row.hash_version}`);
      }
      if (row.prev_hash !== prevHash) {
        return broken(
          'prev_hash',
          id === 1n
            ? 'prev_hash is not the first entry’s 64 zeros'
            : `prev_hash does not match the hash of entry ${id - 1n}`,
        );
      }
      const hash = auditHash({
        ...entryFields(row),
        id: row.id,
        createdAt: row.created_at,
        prevHash: row.prev_hash,
      });
      if (row.hash !== hash) return broken('hash', 'hash does not match its fields (altered)');
      prevHash = row.hash;
      expectedId = id + 1n;
      entries += 1;
    }
    if (rows.length < batchSize) break;
  }
  return {
    ok: true,
    entries,
    lastId: entries === 0 ? null : (expectedId - 1n).toString(),
    lastHash: prevHash,
  };
}
