import 'reflect-metadata';
import { ensureDatabase, runMigrations } from '@vault/server-kit';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '@vault/server-kit';
import { loadNotesDatabaseConfig } from './config/notes.config';
import { NOTES_SCHEMA, notesDatabaseConfig, describeEndpoint } from './repositories/connections';

/**
 * `node apps/notes/dist/migrate.js`          creates the database if needed, applies pending migrations
 * `node apps/notes/dist/migrate.js --revert` reverts the last applied migration
 * Only DATABASE_URL (and DB_POOL_SIZE) are read: no keys or secrets are needed to migrate.
 */
async function revertLast(cfg: ReturnType<typeof notesDatabaseConfig>): Promise<string | undefined> {
  const ds = new DataSource(dataSourceOptions({ ...cfg, poolSize: 2 }));
  await ds.initialize();
  try {
    const table = `"${NOTES_SCHEMA}"."${NOTES_SCHEMA}_migrations"`;
    const exists = await ds.query(`SELECT to_regclass($1) AS t`, [
      `${NOTES_SCHEMA}.${NOTES_SCHEMA}_migrations`,
    ]);
    if (!exists[0]?.t) return undefined;
    const last: { name: string }[] = await ds.query(`SELECT name FROM ${table} ORDER BY id DESC LIMIT 1`);
    if (last.length === 0) return undefined;
    await ds.undoLastMigration({ transaction: 'each' });
    return last[0]?.name;
  } finally {
    await ds.destroy();
  }
}

async function main(): Promise<void> {
  const database = loadNotesDatabaseConfig();
  const cfg = notesDatabaseConfig(database);
  const where = describeEndpoint(database.url);
  await ensureDatabase(database.url);

  if (process.argv.includes('--revert')) {
    const reverted = await revertLast(cfg);
    console.log(
      reverted ? `[notes] reverted ${reverted} on ${where}` : `[notes] nothing to revert on ${where}`,
    );
    return;
  }
  const applied = await runMigrations(cfg);
  if (applied.length === 0) console.log(`[notes] schema "${NOTES_SCHEMA}" is up to date on ${where}`);
  for (const name of applied) console.log(`[notes] applied ${name} on ${where}`);
}

main().catch((error: unknown) => {
  console.error(`[notes] migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
