#!/usr/bin/env node
// `npm run restore -- --from <dir>`: a backup made by `npm run backup` into an empty install
// (docs/backup.md "Restore"). Stop the services first; start them again afterwards. Reads the
// services' environment, or local mode's defaults when DATABASE_URL is not set.
import { runRestore } from './lib/backup/restore.mjs';
import { parseOptions, resolveEnv } from './lib/backup/env.mjs';
import { log } from './lib/util.mjs';

const usage = `Usage: npm run restore -- --from <dir> [--force]

  --from <dir>   the backup folder (the one holding manifest.json)
  --force        restore even though the database holds accounts: all of them, their notes and
                 files are replaced by the backup's (their stored objects stay, unreferenced)`;

const opts = parseOptions(
  process.argv.slice(2),
  { from: { type: 'string' }, force: { type: 'boolean' } },
  usage,
);
if (!opts.from) {
  console.error(`--from is required\n\n${usage}`);
  process.exit(2);
}

try {
  const { env } = await resolveEnv();
  await runRestore({ env, from: opts.from, force: opts.force ?? false, say: log });
} catch (error) {
  console.error(`restore refused or failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
