import type { Client } from 'pg';
import type { AuditRow } from '../../../src/audit/verify-chain';

/** Reads the audit log back: the last id now, and the entries appended after an id. */
export function auditRows(pg: () => Client) {
  return {
    lastId: async (): Promise<number> =>
      Number(
        (await pg().query<{ id: string | null }>('SELECT max(id) AS id FROM admin.audit_log')).rows[0]!.id ??
          0,
      ),
    entriesAfter: async (id: number): Promise<AuditRow[]> =>
      (await pg().query<AuditRow>('SELECT * FROM admin.audit_log WHERE id > $1 ORDER BY id', [id])).rows,
  };
}
