// `npm run restore` (docs/backup.md "Restore"): checks the whole backup against its manifest,
// puts every object back through the storage drivers, then replaces the database in one
// transaction, runs the migrations, installs the keys when the backup has them, and queues again
// what Redis held for the restored rows (pending scans, unfinished account purges).
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { ROOT } from '../util.mjs';
import { SCHEMAS, eachLimit, runTool } from './backup.mjs';
import { formatBytes, pgConnection, pgTool, storageDrivers, uuidList } from './env.mjs';
import { BackupError, DUMP_FILE, objectPath, readManifest, verifyBackup } from './manifest.mjs';

/** The services whose migrations run after the restore, in start order (scripts/lib/stack.mjs). */
const MIGRATIONS = SCHEMAS.map((schema) => ({
  schema,
  script: join(ROOT, 'apps', schema, 'dist', 'migrate.js'),
}));
const PUT_CONCURRENCY = 4;

/** Creates the database named in DATABASE_URL when missing (as the services' migrations do). */
async function ensureDatabase(databaseUrl) {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`Refusing unusual database name: ${name}`);
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name}"`);
      return true;
    }
    return false;
  } finally {
    await client.end();
  }
}

/** What the target database holds now: null for an install without the auth schema. */
async function currentContents(client) {
  const exists = async (table) =>
    (await client.query('SELECT to_regclass($1) AS t', [table])).rows[0].t !== null;
  if (!(await exists('auth.users'))) return null;
  const count = async (table) =>
    (await exists(table)) ? Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n) : 0;
  return {
    users: await count('auth.users'),
    notes: await count('notes.notes'),
    files: await count('files.files'),
  };
}

/** Other sessions on the target database: the services must be stopped while it is replaced. */
async function otherSessions(client) {
  const { rows } = await client.query(
    `SELECT coalesce(nullif(application_name, ''), 'unnamed') AS app, count(*) AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
      GROUP BY 1 ORDER BY 1`,
  );
  return rows.map((r) => `${r.n} × ${r.app}`);
}

/** The schemas the dump creates (its table of contents), so they can be dropped first. */
function dumpSchemas(dumpFile) {
  const list = spawnSync(pgTool('pg_restore'), ['--list', dumpFile], { encoding: 'utf8' });
  if (list.status !== 0) throw new Error(`pg_restore --list failed: ${list.stderr.trim()}`);
  const schemas = [...list.stdout.matchAll(/^\d+; \d+ \d+ SCHEMA - (\S+) /gm)].map((m) => m[1]);
  return schemas.filter((s) => s !== 'public');
}

/**
 * Replaces the database in one transaction: the services' schemas (and any other the dump
 * creates) dropped, the dump's SQL (pg_restore, without owners or grants: the target's user owns
 * everything), and the rows of files deleted between dump and copy removed. COMMIT is sent only
 * once pg_restore has ended well: a pg_restore that fails part-way (a dump that became unreadable,
 * a killed process) leaves psql at the end of its input inside the transaction, which the server
 * rolls back (psql's --single-transaction would commit whatever had arrived).
 */
async function restoreDatabase(databaseUrl, dumpFile, goneIds, env) {
  const schemas = [...new Set([...SCHEMAS, ...dumpSchemas(dumpFile)])];
  for (const s of schemas) if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`unexpected schema name ${s}`);
  const conn = pgConnection(databaseUrl, env);
  const dumpSql = spawn(pgTool('pg_restore'), ['--no-owner', '--no-privileges', '--file=-', dumpFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let dumpErr = '';
  dumpSql.stderr.on('data', (c) => (dumpErr = (dumpErr + c).slice(-4000)));
  const dumpDone = new Promise((ok, fail) =>
    dumpSql.on('close', (code) =>
      code === 0 ? ok() : fail(new Error(`pg_restore failed: ${dumpErr.trim()}`)),
    ),
  );
  async function* sql() {
    yield 'BEGIN;\n';
    yield schemas.map((s) => `DROP SCHEMA IF EXISTS "${s}" CASCADE;\n`).join('');
    yield* dumpSql.stdout;
    // pg_restore's output empties search_path: name the table in full.
    if (goneIds.length) yield `\nDELETE FROM files.files WHERE id IN (${uuidList(goneIds)});\n`;
    await dumpDone; // throws when pg_restore failed: no COMMIT, the transaction is rolled back
    yield '\nCOMMIT;\n';
  }
  await Promise.all([
    runTool(pgTool('psql'), ['--no-psqlrc', '--quiet', '-v', 'ON_ERROR_STOP=1', `--dbname=${conn.url}`], {
      env: conn.env,
      stdin: (stdin) => pipeline(Readable.from(sql()), stdin).catch(() => {}),
    }),
    dumpDone,
  ]);
}

/**
 * Puts one object back from the backup through its driver, hashing what it sends: a file changed
 * since verifyBackup is caught and its object removed again. Cloudinary keeps an existing public
 * id (CONFLICT): that one is deleted and put again.
 */
async function putObject(driver, entry, path) {
  const send = async () => {
    const hash = createHash('sha256');
    const tap = new Transform({
      transform(chunk, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    const body = createReadStream(path).pipe(tap);
    await driver.put(entry.key, body, { maxBytes: entry.bytes });
    return hash.digest('hex');
  };
  let sent;
  try {
    sent = await send();
  } catch (error) {
    if (error?.code !== 'CONFLICT') throw error;
    await driver.delete(entry.key);
    sent = await send();
  }
  if (sent !== entry.sha256) {
    await driver.delete(entry.key);
    throw new BackupError(
      `${path} changed during the restore (its SHA-256 no longer matches); run restore again`,
    );
  }
}

/** Each service's migrations (idempotent: only those the backup predates run). */
function runMigrations(env, say) {
  for (const { schema, script } of MIGRATIONS) {
    if (!existsSync(script)) {
      throw new Error(`${script} is missing: build first (npm run build), then run restore again`);
    }
    const res = spawnSync(process.execPath, [script], { cwd: ROOT, env, encoding: 'utf8' });
    if (res.status !== 0) {
      throw new Error(`${schema} migrations failed after the restore: ${(res.stderr || res.stdout).trim()}`);
    }
  }
  say(`migrations run: ${MIGRATIONS.map((m) => m.schema).join(', ')}`);
}

/**
 * Writes the backup's keys where the services read them (their `NAME_FILE`), or says where they
 * are. Runs last, once the database is restored: a failed restore leaves the install's own keys.
 * A key file it replaces is kept beside it as `<file>.pre-restore` (delete it once all is well).
 */
function installKeys(manifest, from, env, say) {
  if (manifest.keys.length === 0) {
    say(
      'the backup holds no keys: the services must keep the SERVER_SECRET they had when it was made ' +
        '(without it two-step verification fails for every account that has it; see docs/backup.md)',
    );
    return [];
  }
  const installed = [];
  for (const key of manifest.keys) {
    const source = join(from, key.file);
    const target = env[`${key.name}_FILE`];
    if (!target) {
      say(`${key.name} is set inline or not at all here: set it from ${source} yourself`);
      continue;
    }
    mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
    const mode = key.name === 'JWT_PUBLIC_KEY' ? 0o644 : 0o600;
    const content = readFileSync(source);
    if (existsSync(target) && !readFileSync(target).equals(content)) {
      copyFileSync(target, `${target}.pre-restore`);
      say(`${key.name}: the previous ${target} kept as ${target}.pre-restore`);
    }
    writeFileSync(target, content, { mode });
    installed.push(key.name);
  }
  if (installed.length)
    say(`keys installed: ${installed.join(', ')} (restart every service that reads them)`);
  return installed;
}

/** `env` with the backup's STORAGE_SIGNING_SECRET inline, when the backup holds one. */
function withBackupSigningSecret(env, manifest, dir) {
  const key = manifest.keys.find((k) => k.name === 'STORAGE_SIGNING_SECRET');
  if (!key) return env;
  const { STORAGE_SIGNING_SECRET_FILE: _file, ...rest } = env;
  return { ...rest, STORAGE_SIGNING_SECRET: readFileSync(join(dir, key.file), 'utf8').trim() };
}

/**
 * What Redis held for these rows is gone: scans still pending are queued again, and the notes and
 * files of accounts deleted before the backup (purges not finished then) are queued for purging.
 */
async function requeue(client, env, say) {
  const scans = (
    await client.query(
      `SELECT id, owner_id, storage_type, object_key, size, encrypted_size, chunk_size FROM files.files
        WHERE status = 'active' AND virus_scan_result = 'pending'`,
    )
  ).rows;
  const orphans = async (table) =>
    (
      await client.query(
        `SELECT DISTINCT t.owner_id FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM auth.users u WHERE u.id = t.owner_id)`,
      )
    ).rows.map((r) => r.owner_id);
  const purgeNotes = await orphans('notes.notes');
  const purgeFiles = await orphans('files.files');
  if (scans.length + purgeNotes.length + purgeFiles.length === 0) return { scans: 0, purges: 0 };
  const kit = await import('@vault/server-kit');
  const { ACCOUNT_PURGE_JOB } = await import('@vault/contracts');
  const jobs = kit.JobQueues.connect({ url: env.REDIS_URL, prefix: env.REDIS_PREFIX ?? 'vault:' });
  try {
    await jobs.queue(kit.JOB_QUEUES.scan).addBulk(
      kit.SCAN_FILE_JOB,
      scans.map((r) => ({
        payload: {
          fileId: r.id,
          ownerId: r.owner_id,
          storageType: r.storage_type,
          objectKey: r.object_key,
          size: Number(r.size),
          encryptedSize: Number(r.encrypted_size),
          chunkSize: r.chunk_size,
        },
      })),
    );
    const requestedAt = new Date().toISOString();
    for (const [queue, owners] of [
      [kit.JOB_QUEUES.purgeNotes, purgeNotes],
      [kit.JOB_QUEUES.purgeFiles, purgeFiles],
    ]) {
      await jobs.queue(queue).addBulk(
        ACCOUNT_PURGE_JOB,
        owners.map((userId) => ({ payload: { userId, requestedAt } })),
      );
    }
  } finally {
    await jobs.close();
  }
  say(
    `queued again: ${scans.length} pending scan(s), purges of ${new Set([...purgeNotes, ...purgeFiles]).size} deleted account(s)`,
  );
  return { scans: scans.length, purges: purgeNotes.length + purgeFiles.length };
}

/**
 * Restores the backup at `from` into the install `env` describes. Refused when the database holds
 * any account, unless `force`. Returns a summary.
 */
export async function runRestore({ env, from, force = false, say = console.log }) {
  const dir = resolve(from);
  const manifest = readManifest(dir);
  const made = manifest.app?.commit
    ? `${manifest.app.version} (${manifest.app.commit.slice(0, 12)})`
    : manifest.app?.version;
  const c = manifest.database.counts ?? {};
  say(
    `backup of ${manifest.createdAt} by Vault ${made ?? 'unknown'}: ${c.users} account(s), ${c.notes} note(s), ` +
      `${c.files} file(s), ${manifest.objects.length} object(s)`,
  );

  // 1. The whole backup checked before anything changes.
  const t0 = Date.now();
  const { parts } = await verifyBackup(dir, manifest);
  say(`backup checked: ${parts} part(s) match the manifest (${Date.now() - t0} ms)`);

  // 2. The target: an empty install, with no service connected.
  const created = await ensureDatabase(env.DATABASE_URL);
  const client = new pg.Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    const now = created ? null : await currentContents(client);
    if (now && now.users > 0) {
      const what = `${now.users} account(s), ${now.notes} note(s) and ${now.files} file row(s)`;
      if (!force) {
        throw new BackupError(
          `The database ${pgConnection(env.DATABASE_URL).database} is not empty: it holds ${what}. ` +
            'Restore goes into an empty install; --force replaces all of it (its stored objects stay, unreferenced)',
        );
      }
      say(`--force: replacing ${what}`);
    }
    const sessions = await otherSessions(client);
    if (sessions.length) {
      throw new BackupError(
        `Other sessions are connected to the database (${sessions.join(', ')}): stop the services first`,
      );
    }

    // 3. The objects, before the rows: the restored rows never point at an object not yet put back.
    //    The local driver signs with the backup's storage secret when the backup holds it (read
    //    here, in memory: the keys are written to disk only once everything else has worked).
    const drivers = await storageDrivers(withBackupSigningSecret(env, manifest, dir));
    const needed = [...new Set(manifest.objects.map((o) => o.storageType))];
    const unconfigured = needed.filter((t) => !drivers.has(t));
    if (unconfigured.length) {
      throw new BackupError(
        `The backup holds objects for ${unconfigured.join(', ')}, which this environment does not configure`,
      );
    }
    const t1 = Date.now();
    await eachLimit(manifest.objects, PUT_CONCURRENCY, (entry) =>
      putObject(drivers.get(entry.storageType), entry, join(dir, objectPath(entry.storageType, entry.key))),
    );
    const bytes = manifest.objects.reduce((n, o) => n + o.bytes, 0);
    say(`objects put back: ${manifest.objects.length} (${formatBytes(bytes)}) in ${Date.now() - t1} ms`);

    // 4. The database in one transaction, then the migrations of any newer code.
    const t2 = Date.now();
    const goneIds = manifest.gone.map((g) => g.fileId);
    await restoreDatabase(env.DATABASE_URL, join(dir, DUMP_FILE), goneIds, env);
    say(
      `database restored in ${Date.now() - t2} ms` +
        (goneIds.length ? `; the rows of ${goneIds.length} file(s) deleted after the dump removed` : ''),
    );
    runMigrations(env, say);
    const keys = installKeys(manifest, dir, env, say);

    // 5. Redis: nothing of it is in the backup.
    let queued = { scans: 0, purges: 0 };
    try {
      queued = await requeue(client, env, say);
    } catch (error) {
      say(
        `WARNING: could not queue pending scans and purges again (${error.message}): ` +
          'run "Rescan all files" in the admin console once the services are up',
      );
    }
    const after = await currentContents(client);
    say(
      `restored: ${after.users} account(s), ${after.notes} note(s), ${after.files} file row(s)` +
        (manifest.missing.length
          ? `; ${manifest.missing.length} file(s) whose object was missing at backup time`
          : '') +
        '. Start the services; everyone signs in again (sessions lived in Redis).',
    );
    return { ...after, objects: manifest.objects.length, keys, queued };
  } finally {
    await client.end();
  }
}
