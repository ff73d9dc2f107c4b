import { DataSource, type DataSourceOptions, type EntitySchema, type MixedList } from 'typeorm';
import { Client } from 'pg';

export interface DatabaseConfig {
  url: string;
  /** The service's own schema: a service never reads another service's schema. */
  schema: string;
  entities: MixedList<string | (new () => unknown) | EntitySchema>;
  migrations: MixedList<string | (new () => unknown)>;
  poolSize?: number;
}

export function dataSourceOptions(cfg: DatabaseConfig): DataSourceOptions {
  return {
    type: 'postgres',
    url: cfg.url,
    schema: cfg.schema,
    entities: cfg.entities,
    migrations: cfg.migrations,
    migrationsTableName: `${cfg.schema}_migrations`,
    migrationsRun: false,
    synchronize: false,
    logging: false,
    extra: { max: cfg.poolSize ?? 10 },
  };
}

/** Creates the database named in the URL when it does not exist yet (local mode, tests). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`Refusing unusual database name: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    // Two processes racing to create it: the loser sees duplicate_database (42P04) or,
    // when both passed the check at once, a unique violation on pg_database (23505).
    const code = (error as { code?: string }).code;
    if (code !== '42P04' && code !== '23505') throw error;
  } finally {
    await client.end();
  }
}

/** Runs pending migrations of one service (schema created first). Returns their names. */
export async function runMigrations(cfg: DatabaseConfig): Promise<string[]> {
  const ds = new DataSource(dataSourceOptions({ ...cfg, poolSize: 2 }));
  await ds.initialize();
  try {
    await ds.query(`CREATE SCHEMA IF NOT EXISTS "${cfg.schema}"`);
    const done = await ds.runMigrations({ transaction: 'each' });
    return done.map((m) => m.name);
  } finally {
    await ds.destroy();
  }
}
