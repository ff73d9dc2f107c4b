// What backup and restore share besides the manifest: the environment they read (the services'
// own, or local mode's defaults), the storage drivers built from it, the PostgreSQL client tools
// and command-line options.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../util.mjs';

/**
 * The services' environment when DATABASE_URL is set (compose, Kubernetes, a test stack);
 * otherwise local mode's (`npm start`: scripts/lib/stack.mjs localEnv, data under .data/).
 * Loaded lazily: stack.mjs makes development keys, which has no place in a container.
 */
export async function resolveEnv(source = process.env) {
  if (source.DATABASE_URL) return { env: { ...source }, local: false };
  const { localEnv } = await import('../stack.mjs');
  return { env: { ...source, ...localEnv() }, local: true };
}

/**
 * The storage drivers the environment configures, parsed as the files service does
 * (apps/files/src/config/files.config.ts): STORAGE_LOCAL_ENABLED=false leaves the local disk out.
 * Which one is the default does not matter here: every object is read and written by its row's type.
 */
export async function storageDrivers(env) {
  const { createStorageDrivers, storageOptionsFromEnv } = await import('@vault/storage');
  try {
    const { STORAGE_DEFAULT: _default, ...rest } = env;
    const options = storageOptionsFromEnv(rest);
    if (env.STORAGE_LOCAL_ENABLED === 'false') delete options.local;
    const first = ['local', 's3', 'cloudinary'].find((type) => options[type]);
    if (!first) throw new Error('no storage configured');
    return createStorageDrivers({ ...options, defaultType: first }).drivers;
  } catch (error) {
    throw new Error(`Storage settings (read as the files service reads them): ${error.message}`);
  }
}

/** A secret as the services read it: inline `NAME`, or the file `NAME_FILE`. */
export function readSecret(env, name) {
  if (env[name]) return { value: env[name] };
  const file = env[`${name}_FILE`];
  if (file && existsSync(file)) return { value: readFileSync(file, 'utf8'), file };
  return file ? { file } : {};
}

/**
 * pg_dump / pg_restore / psql settings for DATABASE_URL without the password on the command line
 * (another user of the machine could read it there): it goes in PGPASSWORD instead.
 */
export function pgConnection(databaseUrl, env = process.env) {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  return {
    url: url.toString(),
    database: decodeURIComponent(url.pathname.slice(1)),
    env: { ...env, ...(password ? { PGPASSWORD: password } : {}) },
  };
}

/** The PostgreSQL client tool `name` (pg_dump, pg_restore, psql), with a clear error when missing. */
export function pgTool(name) {
  const found = spawnSync(name, ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) {
    throw new Error(
      `${name} was not found: install the PostgreSQL client tools of your server's version ` +
        '(Debian: apt-get install postgresql-client-15)',
    );
  }
  return name;
}

/** This checkout's version and commit, for the manifest (commit null outside a git checkout). */
export function appVersion(env = process.env) {
  let version = null;
  try {
    version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version ?? null;
  } catch {
    /* no package.json: version unknown */
  }
  const git = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  const commit = git.status === 0 ? git.stdout.trim() : (env.VAULT_COMMIT ?? null);
  return { version, commit };
}

/**
 * Refuses a backup folder inside a git work tree unless git ignores it: a backup (and with
 * --include-keys, the keys) must never be committed by accident.
 */
export function assertNotTracked(path) {
  let dir = dirname(resolve(path));
  while (!existsSync(dir)) dir = dirname(dir);
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], { cwd: dir, encoding: 'utf8' });
  if (top.status !== 0) return; // not in a git work tree (or no git): nothing to commit it into
  const ignored = spawnSync('git', ['check-ignore', '-q', resolve(path)], { cwd: dir });
  if (ignored.status !== 0) {
    throw new Error(
      `${path} is inside the git work tree ${top.stdout.trim()} and not ignored by git: ` +
        'write backups outside it or under an ignored folder such as .data/backups',
    );
  }
}

/** Parses `argv` against `options` (node:util parseArgs), exiting with usage on a bad option. */
export function parseOptions(argv, options, usage) {
  try {
    const { values } = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean' } } });
    if (values.help) {
      console.log(usage);
      process.exit(0);
    }
    return values;
  } catch (error) {
    console.error(`${error.message}\n\n${usage}`);
    process.exit(2);
  }
}

/** A short size for the summaries. */
export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** A file id list as SQL literals, each checked to be a UUID first (they come from a file). */
export function uuidList(ids) {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  for (const id of ids) if (!uuid.test(id)) throw new Error(`not a UUID: ${id}`);
  return ids.map((id) => `'${id}'`).join(', ');
}
