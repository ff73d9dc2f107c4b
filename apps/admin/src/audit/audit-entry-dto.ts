import type { AuditEntryDto, AuditVerify } from '@vault/contracts';
import { entryFields, type AuditRow, type AuditVerification } from './verify-chain';

/** An entry as the console shows it (the chain's hashes stay in the database). */
export function auditEntryDto(row: AuditRow): AuditEntryDto {
  return { id: Number(row.id), createdAt: row.created_at.toISOString(), ...entryFields(row) };
}

/** verifyAuditChain's answer as `GET /api/admin/audit/verify` gives it. */
export function auditVerifyDto(result: AuditVerification): AuditVerify {
  return result.ok
    ? { ok: true, checked: result.entries, firstBroken: null }
    : {
        ok: false,
        checked: result.entries,
        firstBroken: { id: Number(result.broken.id), problem: result.broken.message },
      };
}
