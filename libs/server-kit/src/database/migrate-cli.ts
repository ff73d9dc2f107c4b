import { DataSource } from 'typeorm';
import { describeEndpoint } from './connections';
import { dataSourceOptions, ensureDatabase, runMigrations, type DatabaseConfig } from './data-source';

/** Reverts the last applied migration of one service; its name, or undefined when none is applied. */
export async function revertLastMigration(cfg: DatabaseConfig): Promise<string | undefined> {
  const ds = new DataSource(dataSourceOptions({ ...cfg, poolSize: 2 }));
  await ds.initialize();
  try {
    const exists = await ds.query(`SELECT to_regclass($1) AS t`, [`${cfg.schema}.${cfg.schema}_migrations`]);
    if (!exists[0]?.t) return undefined;
    const last: { name: string }[] = await ds.query(
      `SELECT name FROM "${cfg.schema}"."${cfg.schema}_migrations" ORDER BY id DESC LIMIT 1`,
    );
    if (last.length === 0) return undefined;
    await ds.undoLastMigration({ transaction: 'each' });
    return last[0]?.name;
  } finally {
    await ds.destroy();
  }
}

/**
 * A service's one-off migration command:
 *   `node apps/<svc>/dist/migrate.js`          creates the database if needed, applies pending migrations
 *   `node apps/<svc>/dist/migrate.js --revert` reverts the last applied migration
 * Only the database settings are read: no keys or secrets are needed to migrate.
 */
export function runMigrateCli(service: string, loadConfig: () => DatabaseConfig, argv = process.argv): void {
  const main = async () => {
    const cfg = loadConfig();
    const where = describeEndpoint(cfg.url);
    await ensureDatabase(cfg.url);
    if (argv.includes('--revert')) {
      const reverted = await revertLastMigration(cfg);
      console.log(
        reverted
          ? `[${service}] reverted ${reverted} on ${where}`
          : `[${service}] nothing to revert on ${where}`,
      );
      return;
    }
    const applied = await runMigrations(cfg);
    if (applied.length === 0) console.log(`[${service}] schema "${cfg.schema}" is up to date on ${where}`);
    for (const name of applied) console.log(`[${service}] applied ${name} on ${where}`);
  };
  main().catch((error: unknown) => {
    console.error(`[${service}] migration failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
