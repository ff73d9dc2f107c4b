import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * An entry of the admin audit log and its hash (apps/admin/README.md "The audit log", where the
 * encoding is written down for anyone to re-verify with their own tool).
 */

/** The version of the encoding below; stored with every entry (`hash_version`). */
export const AUDIT_HASH_VERSION = 1;
/** The first element of the encoded array: names the encoding and its version. */
export const AUDIT_ENCODING_TAG = 'vault-admin-audit-v1';
/** The prev_hash of the first entry. */
export const GENESIS_HASH = '0'.repeat(64);

/** Text Postgres and every JSON tool round-trip unchanged: no NUL, no lone surrogate. */
const plainText = (max: number) =>
  z
    .string()
    .max(max)
    .refine((s) => !s.includes('\u0000') && Buffer.from(s, 'utf8').toString('utf8') === s, {
      message: 'must be well-formed text without NUL',
    });
const name = z.string().regex(/^[a-z][a-z0-9_.:-]{0,63}$/, 'must be a lower-case name (a-z, 0-9, _ . : -)');
const detailScalar = z.union([plainText(200), z.number().int().safe(), z.boolean(), z.null()]);

/**
 * What an admin action records. `details` holds counts and ids only, never user data (no note,
 * file name, key, hash or ciphertext): flat, integer numbers only, so that its JSON is the same in
 * every language.
 */
export const auditEntryInputSchema = z.strictObject({
  /** The admin's user id (lower-cased, as Postgres prints a uuid). */
  actorId: z.uuid().transform((id) => id.toLowerCase()),
  /** The admin's username or e-mail at the time, so the entry reads without a join. */
  actorLabel: plainText(320).pipe(z.string().min(1)),
  /** What was done: `user.lock`, `session.revoke`, ... */
  action: name,
  /** What it was done to: `user`, `session`, `system`, ... */
  targetType: name,
  targetId: plainText(200).nullable(),
  reason: plainText(1000).nullable(),
  ip: plainText(100),
  userAgent: plainText(1000),
  details: z
    .record(
      z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/),
      z.union([detailScalar, z.array(z.union([plainText(200), z.number().int().safe()])).max(1000)]),
    )
    .default({}),
});
export type AuditEntryInput = z.input<typeof auditEntryInputSchema>;
export type AuditEntry = z.output<typeof auditEntryInputSchema>;
export type AuditDetails = AuditEntry['details'];

/** An entry as stored: its place in the chain, its time and the two hashes. */
export interface AuditRecord extends AuditEntry {
  /** A bigint, as a decimal string. */
  id: string;
  /** Millisecond precision (the encoding's). */
  createdAt: Date;
  prevHash: string;
  hash: string;
}

/** A JSON value with every object's keys in code-point order (recursively), arrays as they are. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, sortedKeys(v)]));
  }
  return value;
}

/**
 * The canonical encoding, version 1: the UTF-8 bytes of the JSON array (no whitespace, JSON's
 * own string escapes as JSON.stringify writes them)
 * `[tag, id, createdAt, actorId, actorLabel, action, targetType, targetId, reason, ip, userAgent,
 * details, prevHash]`, with id as a decimal string, createdAt as ISO 8601 UTC with milliseconds
 * (`2026-11-25T16:45:00.123Z`), null for a missing targetId or reason, and details with its keys
 * sorted.
 */
export function auditEncoding(record: Omit<AuditRecord, 'hash'>): string {
  return JSON.stringify([
    AUDIT_ENCODING_TAG,
    record.id,
    record.createdAt.toISOString(),
    record.actorId,
    record.actorLabel,
    record.action,
    record.targetType,
    record.targetId,
    record.reason,
    record.ip,
    record.userAgent,
    sortedKeys(record.details),
    record.prevHash,
  ]);
}

/** Lower-case hex SHA-256 of the canonical encoding. */
export function auditHash(record: Omit<AuditRecord, 'hash'>): string {
  return createHash('sha256').update(auditEncoding(record), 'utf8').digest('hex');
}
