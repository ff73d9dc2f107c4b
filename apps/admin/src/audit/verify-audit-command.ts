import { describeEndpoint, loadDatabaseConfig } from '@vault/server-kit';
import { Client } from 'pg';
import { verifyAuditChain, type AuditRow } from './verify-chain';

export interface CommandOutput {
  out: (line: string) => void;
  err: (line: string) => void;
}

/** Exit codes of `npm run admin -- verify-audit`. */
export const VERIFY_EXIT = { intact: 0, broken: 1, cannotCheck: 2 } as const;

/**
 * The verify-audit command (src/cli/verify-audit.ts): checks the chain of the audit log in the
 * database DATABASE_URL names. Answers 0 with "Audit log intact: N entries", 1 naming the first
 * broken entry, 2 when the check cannot run (bad URL, no database, no audit log).
 */
export async function verifyAuditCommand(
  env: Record<string, string | undefined>,
  { out, err }: CommandOutput,
): Promise<number> {
  let url: string;
  try {
    url = loadDatabaseConfig(env).url;
  } catch (error) {
    err(`[admin] ${error instanceof Error ? error.message : String(error)}`);
    return VERIFY_EXIT.cannotCheck;
  }
  const where = describeEndpoint(url);
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
  } catch (error) {
    err(
      `[admin] PostgreSQL is unreachable at ${where}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return VERIFY_EXIT.cannotCheck;
  }
  try {
    const found = await client.query<{ t: string | null }>(
      `SELECT to_regclass('admin.audit_log')::text AS t`,
    );
    if (!found.rows[0]?.t) {
      err(`[admin] no admin audit log on ${where} (run npm run migrate)`);
      return VERIFY_EXIT.cannotCheck;
    }
    const result = await verifyAuditChain(
      async (sql, params) => (await client.query<AuditRow>(sql, params)).rows,
    );
    if (result.ok) {
      const last = result.lastId === null ? '' : ` (last: entry ${result.lastId}, hash ${result.lastHash})`;
      out(`Audit log intact: ${result.entries} entries${last}`);
      return VERIFY_EXIT.intact;
    }
    err(`Audit log BROKEN at entry ${result.broken.id}: ${result.broken.message}`);
    err(`(${result.entries} entries before it verified)`);
    return VERIFY_EXIT.broken;
  } catch (error) {
    err(`[admin] verify-audit failed: ${error instanceof Error ? error.message : String(error)}`);
    return VERIFY_EXIT.cannotCheck;
  } finally {
    await client.end();
  }
}
