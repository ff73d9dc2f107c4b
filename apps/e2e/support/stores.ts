/**
 * Dumps what the stack keeps at rest, as text, so that a test can search it for secrets: every row of every
 * table of the run's database, and every key (name and value) under the run's Redis prefix.
 */
import Redis from 'ioredis';
import { Client } from 'pg';

export interface StoredText {
  /** `schema.table` or `redis:<key>`. */
  name: string;
  content: string;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** One text per table: all its rows as Postgres row literals, one per line. */
export async function dumpDatabase(databaseUrl: string): Promise<StoredText[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, 2`,
    );
    const out: StoredText[] = [];
    for (const { table_schema: schema, table_name: table } of tables.rows) {
      const rows = await client.query<{ row: string }>(
        `SELECT t::text AS row FROM ${quoteIdent(schema)}.${quoteIdent(table)} t`,
      );
      out.push({ name: `${schema}.${table}`, content: rows.rows.map((r) => r.row).join('\n') });
    }
    return out;
  } finally {
    await client.end();
  }
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}

async function redisValue(redis: Redis, key: string): Promise<string> {
  const type = await redis.type(key);
  switch (type) {
    case 'string':
      return (await redis.getBuffer(key))?.toString('latin1') ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'list':
      return JSON.stringify(await redis.lrange(key, 0, -1));
    case 'set':
      return JSON.stringify(await redis.smembers(key));
    case 'zset':
      return JSON.stringify(await redis.zrange(key, 0, -1, 'WITHSCORES'));
    case 'stream':
      return JSON.stringify(await redis.xrange(key, '-', '+'));
    default:
      return '';
  }
}

/** One text per key under `prefix` (of those `keep` accepts; it sees the full key): the key's name and its value. */
export async function dumpRedis(
  redisUrl: string,
  prefix: string,
  keep: (key: string) => boolean = () => true,
): Promise<StoredText[]> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    const keys = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of batch) if (keep(key)) keys.add(key);
    } while (cursor !== '0');
    const out: StoredText[] = [];
    for (const key of [...keys].sort()) {
      out.push({ name: `redis:${key}`, content: `${key}\n${await redisValue(redis, key)}` });
    }
    return out;
  } finally {
    redis.disconnect();
  }
}
