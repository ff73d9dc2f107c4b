#!/usr/bin/env node
// `npm run bench`: every benchmark, each against a baseline measured in the same run
// (these machines are noisy, so only ratios are comparable between runs).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { ROOT, log, runStatus } from './lib/util.mjs';

const outDir = join(ROOT, '.data', 'bench');
// `node scripts/bench.mjs [name...] [-- flags]` runs only the named benchmarks (crypto, signin, vault,
// files, admin, load); flags after `--` go to each of them (e.g. `files -- --runs 5 --threads 1`).
const dashes = process.argv.indexOf('--', 2);
const only = new Set(process.argv.slice(2, dashes === -1 ? undefined : dashes));
const extra = dashes === -1 ? [] : process.argv.slice(dashes + 1);
const wanted = (name) => only.size === 0 || only.has(name);
mkdirSync(outDir, { recursive: true });

/**
 * Runs one benchmark as a child process. Not spawnSync: the stack's S3 and Cloudinary stand-ins
 * (scripts/lib/ephemeral.mjs) answer from this process, so it must not block while the
 * benchmark talks to them.
 */
async function runBench(file, args = []) {
  log(`bench: ${file} ${args.join(' ')}`);
  const status = await runStatus(process.execPath, [join(ROOT, 'bench', file), ...args, ...extra]);
  if (status !== 0) throw new Error(`${file} failed`);
}

/** Runs `fn` on a private stack started for it, with the auth and API rate limits raised. */
const onBenchStack = (fn) =>
  withEphemeralStack(
    'bench',
    { RATE_LIMIT_AUTH_PER_MINUTE: '1000000', RATE_LIMIT_API_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' },
    fn,
    { keepLogs: false },
  );

if (wanted('crypto')) await runBench('crypto.bench.mjs', ['--json', join(outDir, 'crypto.json')]);

if (wanted('signin'))
  await onBenchStack(({ baseUrl, env }) =>
    runBench('signin.bench.mjs', [
      '--base',
      baseUrl,
      '--auth-host',
      env.AUTH_RPC_HOST,
      '--auth-port',
      env.AUTH_RPC_PORT,
      '--json',
      join(outDir, 'signin.json'),
    ]),
  );

// The web vault (issue 3): unlock → first card and full list in headless Chromium, on a fresh stack
// serving the built app (WEB_ROOT, apps/web/dist by default) with the API rate limit raised for seeding.
if (wanted('vault'))
  await onBenchStack(({ baseUrl }) =>
    runBench('vault.bench.mjs', ['--base', baseUrl, '--json', join(outDir, 'vault.json')]),
  );

// The File Vault (issue 4): 25 and 100 MiB files uploaded and downloaded through the web app's UI to the
// local disk storage, against the same bytes sent unencrypted from the same page; Chromium's RSS per size.
if (wanted('files'))
  await onBenchStack(({ baseUrl }) =>
    runBench('files.bench.mjs', ['--base', baseUrl, '--json', join(outDir, 'files.json')]),
  );

// The admin console (issue 14): stats and user pages with 100,000 accounts and 1,000,000 notes seeded,
// against the admin session check through the same gateway path, interleaved.
if (wanted('admin'))
  await onBenchStack(({ baseUrl, env }) =>
    runBench('admin.bench.mjs', [
      '--base',
      baseUrl,
      '--database-url',
      env.DATABASE_URL,
      '--json',
      join(outDir, 'admin.json'),
    ]),
  );
// Load (issue 17): the busiest calls at 1-100 connections through the gateway and straight to the
// service, the notes list also against a bare Postgres-backed server; then, on a stack with the
// default rate limits, the check that above them only clean 429s come back.
if (wanted('load')) {
  await onBenchStack(({ baseUrl, env }) =>
    runBench('load.bench.mjs', [
      '--base',
      baseUrl,
      '--database-url',
      env.DATABASE_URL,
      '--auth-port',
      env.AUTH_RPC_PORT,
      '--notes-port',
      env.NOTES_RPC_PORT,
      '--files-port',
      env.FILES_RPC_PORT,
      '--admin-port',
      env.ADMIN_RPC_PORT,
      '--json',
      join(outDir, 'load.json'),
    ]),
  );
  await withEphemeralStack('bench', { LOG_LEVEL: 'warn' }, ({ baseUrl }) =>
    runBench('load.bench.mjs', [
      '--base',
      baseUrl,
      '--rate-limited',
      '--json',
      join(outDir, 'load-429.json'),
    ]),
  );
}
log(`results in ${outDir}`);
