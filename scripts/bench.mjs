#!/usr/bin/env node
// `npm run bench`: every benchmark, each against a baseline measured in the same run
// (these machines are noisy, so only ratios are comparable between runs).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { SERVICES } from './lib/stack.mjs';
import { ROOT, log, reservePorts, runStatus } from './lib/util.mjs';

const outDir = join(ROOT, '.data', 'bench');
// `node scripts/bench.mjs [name...] [-- flags]` runs only the named benchmarks (crypto, signin, vault,
// files, admin, load, soak); flags after `--` go to each of them (e.g. `files -- --runs 5 --threads 1`).
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

/**
 * Runs `fn` on a private stack started for it, with the auth and API rate limits raised;
 * `overrides` add to its environment, `stackOptions` go to startServices.
 */
const onBenchStack = (fn, overrides = {}, stackOptions = {}) =>
  withEphemeralStack(
    'bench',
    {
      RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
      RATE_LIMIT_API_PER_MINUTE: '1000000',
      LOG_LEVEL: 'warn',
      ...overrides,
    },
    fn,
    { keepLogs: false, stackOptions },
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

// Soak (issue 17): ten minutes of mixed load through the gateway by a dozen users; every service's
// memory (RSS from /proc, heap from its /metrics) flat after the warm-up, no error, no restart.
if (wanted('soak')) {
  // Each service's ops listener on a port of its own, for its /metrics (HEALTH_PORT=0 would log
  // the port it took, but only at the info level the bench stack does not log at).
  const held = await reservePorts(SERVICES.length);
  await held.release();
  const label = (name) => (name === 'scan' ? 'scan-worker' : name);
  const services = SERVICES.map((svc, i) => ({
    ...svc,
    env: { ...svc.env, HEALTH_PORT: String(held.ports[i]) },
  }));
  await onBenchStack(
    async ({ baseUrl, env, stack, crashed }) => {
      const pids = Object.entries(stack.pids()).map(([name, pid]) => `${label(name)}=${pid}`);
      const metrics = services.map((s) => `${label(s.name)}=http://127.0.0.1:${s.env.HEALTH_PORT}`);
      await runBench('soak.bench.mjs', [
        '--base',
        baseUrl,
        '--database-url',
        env.DATABASE_URL,
        '--pids',
        pids.join(','),
        '--metrics',
        metrics.join(','),
        '--json',
        join(outDir, 'soak.json'),
      ]);
      // The bench sees a restart as a changed pid; the runner knows for sure.
      if (crashed())
        throw new Error(`soak: ${crashed()} crashed during the run (${JSON.stringify(stack.restarts())})`);
    },
    // The blob route's own limit too: every file goes up and comes down through it.
    { HEALTH_HOST: '127.0.0.1', RATE_LIMIT_BLOB_PER_MINUTE: '1000000' },
    { services },
  );
}
log(`results in ${outDir}`);
