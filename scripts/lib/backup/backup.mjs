// `npm run backup` (docs/backup.md): the database in one snapshot, then every stored object the
// snapshot's file rows point at, then the manifest, into a folder that only gets its final name
// once everything is in it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { appVersion, assertNotTracked, pgConnection, pgTool, readSecret, storageDrivers } from './env.mjs';
import {
  DUMP_FILE,
  FORMAT,
  FORMAT_VERSION,
  KEY_FILES,
  MANIFEST_FILE,
  hashFile,
  objectPath,
} from './manifest.mjs';

/** The schemas the services own, each with its `<schema>_migrations` table. */
export const SCHEMAS = ['auth', 'notes', 'files', 'admin'];
/** Objects read at once: enough to keep S3 busy, few enough for a small machine. */
const COPY_CONCURRENCY = 4;
const BACKUP_NAME = /^vault-\d{8}T\d{6}Z$/;

/** `vault-20261126T202209Z`: sorts by time, safe in any file system. */
export function backupName(date = new Date()) {
  return `vault-${date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}`;
}

/** Runs a command to completion; rejects with its stderr when it fails. */
export function runTool(cmd, args, { env, stdin } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { env, stdio: [stdin ? 'pipe' : 'ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolvePromise();
      else reject(new Error(`${cmd} failed (exit ${code}): ${stderr.trim()}`));
    });
    if (stdin) stdin(child.stdin);
  });
}

/** Runs `fn` over `items`, `limit` at a time. */
export async function eachLimit(items, limit, fn) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** What the snapshot holds: counts, migrations, server version and every file row. */
async function readSnapshot(client) {
  const tables = await client.query(
    "SELECT to_regclass('auth.users') AS users, to_regclass('notes.notes') AS notes, to_regclass('files.files') AS files",
  );
  const missing = Object.entries(tables.rows[0])
    .filter(([, v]) => v === null)
    .map(([k]) => k);
  if (missing.length) {
    throw new Error(
      `The database has no ${missing.join(', ')} table(s): is DATABASE_URL a migrated Vault database?`,
    );
  }
  const count = async (table) => Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
  const counts = { users: await count('auth.users'), notes: await count('notes.notes'), files: 0 };
  const migrations = {};
  for (const schema of SCHEMAS) {
    const table = `${schema}.${schema}_migrations`;
    const exists = (await client.query('SELECT to_regclass($1) AS t', [table])).rows[0].t;
    migrations[schema] = exists
      ? (await client.query(`SELECT name FROM ${table} ORDER BY "timestamp", id`)).rows.map((r) => r.name)
      : [];
  }
  const server = (await client.query('SHOW server_version')).rows[0].server_version;
  const { rows } = await client.query(
    `SELECT id, owner_id, status, storage_type, object_key, encrypted_size FROM files.files ORDER BY id`,
  );
  counts.files = rows.filter((r) => r.status === 'active').length;
  return { counts, migrations, server, rows };
}

/**
 * pg_dump of the whole database in the snapshot `snapshot` (exported by the transaction that read
 * the file rows): the dump and the object list describe the same moment.
 */
async function dumpDatabase(databaseUrl, snapshot, file, env) {
  const conn = pgConnection(databaseUrl, env);
  await runTool(
    pgTool('pg_dump'),
    ['--format=custom', `--snapshot=${snapshot}`, `--file=${file}`, `--dbname=${conn.url}`],
    { env: conn.env },
  );
}

/** Streams one object out of its driver into `path`, counting and hashing on the way. */
async function copyObject(driver, key, path) {
  const hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk, _encoding, done) {
      bytes += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  await pipeline(await driver.get(key), tap, createWriteStream(path, { mode: 0o600 }));
  return { bytes, sha256: hash.digest('hex') };
}

const isNotFound = (error) => error?.code === 'NOT_FOUND';

/** Removes older backups beside `out` (folders named vault-<timestamp> holding a manifest), keeping `keep`. */
function pruneOld(out, keep, say) {
  const parent = dirname(out);
  const complete = readdirSync(parent)
    .filter((name) => BACKUP_NAME.test(name) && existsSync(join(parent, name, MANIFEST_FILE)))
    .sort();
  for (const name of complete.slice(0, Math.max(0, complete.length - keep))) {
    rmSync(join(parent, name), { recursive: true, force: true });
    say(`removed the older backup ${name} (--keep ${keep})`);
  }
}

/**
 * Makes a backup at `out` (refused when it exists). `includeKeys` adds the signing keys and
 * SERVER_SECRET; `allowMissing` records objects missing from the store instead of failing.
 * Returns the manifest.
 */
export async function runBackup({
  env,
  out,
  includeKeys = false,
  allowMissing = false,
  keep,
  say = console.log,
}) {
  const target = resolve(out);
  const work = `${target}.partial`;
  if (existsSync(target)) throw new Error(`${target} already exists: choose another --out`);
  assertNotTracked(target);
  const drivers = await storageDrivers(env);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true, mode: 0o700 });

  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    // 1. The database first, in one snapshot shared with the read of the file rows.
    const started = Date.now();
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = (await client.query('SELECT pg_export_snapshot() AS id')).rows[0].id;
    const snap = await readSnapshot(client);
    await dumpDatabase(env.DATABASE_URL, snapshot, join(work, DUMP_FILE), env);
    await client.query('COMMIT');
    chmodSync(join(work, DUMP_FILE), 0o600);
    const dump = await hashFile(join(work, DUMP_FILE));
    say(
      `database dumped: ${snap.counts.users} account(s), ${snap.counts.notes} note(s), ` +
        `${snap.counts.files} file(s), ${dump.bytes} bytes in ${Date.now() - started} ms`,
    );

    // 2. The objects of complete uploads (trash included). A pending upload has no file yet:
    //    the cleanup job removes it after a restore.
    const stored = snap.rows.filter((r) => r.status === 'active');
    const pendingUploads = snap.rows.length - stored.length;
    const unconfigured = [...new Set(stored.map((r) => r.storage_type))].filter((t) => !drivers.has(t));
    if (unconfigured.length) {
      throw new Error(
        `Files are stored in ${unconfigured.join(', ')}, which this environment does not configure: ` +
          'give backup the same storage settings as the files service',
      );
    }
    const objects = [];
    const gone = [];
    const missing = [];
    const problems = [];
    await eachLimit(stored, COPY_CONCURRENCY, async (row) => {
      const entry = { fileId: row.id, storageType: row.storage_type, key: row.object_key };
      try {
        const copied = await copyObject(
          drivers.get(row.storage_type),
          row.object_key,
          join(work, objectPath(row.storage_type, row.object_key)),
        );
        if (copied.bytes !== Number(row.encrypted_size)) {
          problems.push(
            `${row.storage_type}:${row.object_key} has ${copied.bytes} bytes, its file row says ${row.encrypted_size}`,
          );
        }
        objects.push({ ...entry, ...copied });
      } catch (error) {
        if (!isNotFound(error)) throw error;
        // Deleted since the dump (object first, then row): a restore drops the row too.
        const live = await client.query('SELECT 1 FROM files.files WHERE id = $1', [row.id]);
        if (live.rowCount === 0) gone.push(entry);
        else if (allowMissing) missing.push(entry);
        else
          problems.push(`${row.storage_type}:${row.object_key} is missing from the store (file ${row.id})`);
      }
    });
    if (problems.length) {
      throw new Error(
        `The store does not match the database; no backup was made (--allow-missing records missing objects instead):\n- ${problems.join('\n- ')}`,
      );
    }
    const byId = (a, b) => a.fileId.localeCompare(b.fileId);
    objects.sort(byId);
    gone.sort(byId);
    missing.sort(byId);
    const objectBytes = objects.reduce((n, o) => n + o.bytes, 0);
    say(
      `objects copied: ${objects.length} (${objectBytes} bytes)` +
        (gone.length ? `, ${gone.length} deleted since the dump (their rows go at restore)` : '') +
        (missing.length ? `, ${missing.length} MISSING from the store` : '') +
        (pendingUploads ? `, ${pendingUploads} unfinished upload(s) left out` : ''),
    );

    // 3. The keys, only when asked: with them the backup is a credential.
    const keys = [];
    if (includeKeys) {
      mkdirSync(join(work, 'keys'), { mode: 0o700 });
      for (const key of KEY_FILES) {
        const { value, file } = readSecret(env, key.name);
        if (value === undefined) {
          throw new Error(`--include-keys: ${key.name} is not set${file ? ` (${file} is missing)` : ''}`);
        }
        writeFileSync(join(work, 'keys', key.file), value, { mode: 0o600 });
        keys.push({
          name: key.name,
          file: `keys/${key.file}`,
          sha256: createHash('sha256').update(value).digest('hex'),
        });
      }
      say(`keys included: ${keys.map((k) => k.name).join(', ')} (this backup is now a credential)`);
    }

    // 4. The manifest last, then the final name: a folder without either is not a backup.
    const manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      createdAt: new Date().toISOString(),
      app: appVersion(env),
      database: {
        file: DUMP_FILE,
        bytes: dump.bytes,
        sha256: dump.sha256,
        server: snap.server,
        migrations: snap.migrations,
        counts: snap.counts,
      },
      objects,
      gone,
      missing,
      pendingUploads,
      keys,
    };
    writeFileSync(join(work, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    renameSync(work, target);
    say(`backup written to ${target}`);
    if (keep !== undefined) pruneOld(target, keep, say);
    return manifest;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    rmSync(work, { recursive: true, force: true });
    throw error;
  } finally {
    await client.end();
  }
}
