#!/usr/bin/env node
// `npm run backup -- [--out <dir>]`: the database and every stored object it references, with a
// manifest of sizes and SHA-256s (docs/backup.md). Reads the services' environment (DATABASE_URL,
// the storage variables), or local mode's defaults when DATABASE_URL is not set.
import { join } from 'node:path';
import { backupName, runBackup } from './lib/backup/backup.mjs';
import { parseOptions, resolveEnv } from './lib/backup/env.mjs';
import { ROOT, log } from './lib/util.mjs';

const usage = `Usage: npm run backup -- [--out <dir>] [--include-keys] [--allow-missing] [--keep <n>]

  --out <dir>       where to write the backup (must not exist); default
                    $BACKUP_DIR/vault-<timestamp>, or .data/backups/vault-<timestamp> in local mode
  --include-keys    also copy SERVER_SECRET, the JWT key pair and STORAGE_SIGNING_SECRET
                    (the backup is then a credential: keep it like one)
  --allow-missing   record objects missing from the store instead of failing
  --keep <n>        afterwards, keep only the newest <n> backups beside this one`;

const opts = parseOptions(
  process.argv.slice(2),
  {
    out: { type: 'string' },
    'include-keys': { type: 'boolean' },
    'allow-missing': { type: 'boolean' },
    keep: { type: 'string' },
  },
  usage,
);
const keep = opts.keep === undefined ? undefined : Number(opts.keep);
if (keep !== undefined && !(Number.isInteger(keep) && keep >= 1)) {
  console.error(`--keep must be a whole number of at least 1\n\n${usage}`);
  process.exit(2);
}

try {
  const { env, local } = await resolveEnv();
  const parent = process.env.BACKUP_DIR ?? (local ? join(ROOT, '.data', 'backups') : undefined);
  if (!opts.out && !parent) throw new Error('Set --out <dir> or BACKUP_DIR: where should the backup go?');
  const out = opts.out ?? join(parent, backupName());
  await runBackup({
    env,
    out,
    includeKeys: opts['include-keys'] ?? false,
    allowMissing: opts['allow-missing'] ?? false,
    keep,
    say: log,
  });
} catch (error) {
  console.error(`backup failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
