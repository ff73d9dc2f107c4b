#!/usr/bin/env node
// Admin console benchmark (issue 14): with 100,000 accounts, 1,000,000 notes, 100,000 files and
// 300,000 security events seeded, the admin calls behind the console's first screen, each timed
// through the gateway with a real admin session (signed in with 2FA):
//   - GET /api/admin/stats            (goal: p95 under 100 ms)
//   - GET /api/admin/users?limit=10   (the first user page; goal: p95 under 50 ms)
//   - the same page searched by a username prefix, a deep page (offset 50,000), one user's details,
//     and the first page of security events.
// Baseline in the same run, rounds interleaved: GET /api/admin/session, the same path (gateway, admin
// guard with its session check, RPC) without the work, so each ratio is the cost of the call itself.
//
//   node bench/admin.bench.mjs --base http://127.0.0.1:8080 --database-url postgres://... \
//     [--users 100000] [--notes 1000000] [--files 100000] [--events 300000] [--samples 60] [--json out.json]
//
// The stack must be up with the API rate limit raised (scripts/bench.mjs does both). Seeding writes
// straight into the services' tables with generate_series (seconds, not hours); the seeded rows carry
// well-formed but meaningless sealed values: the admin calls never read them.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { adminSession } from './lib/admin-session.mjs';
import { parseFlags } from './lib/flags.mjs';
import { emitResult, median, printTable, round } from './lib/output.mjs';

function parseArgs(argv) {
  const opts = {
    base: 'http://127.0.0.1:8080',
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vault',
    users: 100_000,
    notes: 1_000_000,
    files: 100_000,
    events: 300_000,
    samples: 60,
    json: undefined,
  };
  parseFlags(argv, opts, {
    '--base': ['base', String],
    '--database-url': ['databaseUrl', String],
    '--users': ['users', Number],
    '--notes': ['notes', Number],
    '--files': ['files', Number],
    '--events': ['events', Number],
    '--samples': ['samples', Number],
    '--json': ['json', String],
  });
  return opts;
}

/** Rows in bulk, in the services' own tables. Returns how long it took. */
async function seed(db, opts) {
  const started = performance.now();
  const sealed = `'${'ab'.repeat(32)}:${'cd'.repeat(12)}'`;
  const key = `'${'ab'.repeat(48)}:${'cd'.repeat(12)}'`;
  // uuid v4 from md5 of a label: stable, unique per row, shaped as the contracts expect.
  const uuid = (expr) =>
    `(substr(md5(${expr}),1,8)||'-'||substr(md5(${expr}),9,4)||'-4'||substr(md5(${expr}),14,3)||'-a'||substr(md5(${expr}),18,3)||'-'||substr(md5(${expr}),21,12))::uuid`;
  await db.query(`
    INSERT INTO auth.users (id, username, username_lower, email, phone_number, phone_normalized, auth_hash,
      salt, kdf_params, wrapped_vault_key, role, created_at, last_login_at, failed_login_attempts,
      locked_until, locked_reason)
    SELECT ${uuid(`'u'||g`)}, 'user'||g, 'user'||g, 'user'||g||'@bench.example', '+1555'||g, '+1555'||g,
      'not-a-hash', '${'00'.repeat(16)}', '{"algorithm":"argon2id","iterations":3,"memory":65536,"parallelism":4}',
      ${key}, 'user', now() - (g % 720) * interval '1 hour' * 6, now() - (g % 90) * interval '1 day',
      g % 4, CASE WHEN g % 500 = 0 THEN now() + interval '1 hour' END,
      CASE WHEN g % 500 = 0 THEN 'Manual admin lock' END
    FROM generate_series(1, ${opts.users}) g`);
  await db.query(`
    INSERT INTO notes.notes (id, owner_id, title, content, tags, wrapped_dek, body_hash, created_at, updated_at)
    SELECT ${uuid(`'n'||g`)}, ${uuid(`'u'||(1 + g % ${opts.users})`)}, ${sealed}, ${sealed},
      jsonb_build_array(${sealed}), ${key}, md5(g::text), now(), now()
    FROM generate_series(1, ${opts.notes}) g`);
  await db.query(`
    INSERT INTO files.files (id, owner_id, status, storage_type, object_key, encrypted_name, encrypted_mime_type,
      encrypted_tags, wrapped_key, iv, chunk_size, size, encrypted_size, virus_scanned, virus_scan_result,
      body_hash, uploaded_at)
    SELECT ${uuid(`'f'||g`)}, ${uuid(`'u'||(1 + g % ${opts.users})`)}, 'active', 'local', 'bench/'||g,
      ${sealed}, ${sealed}, ${sealed}, ${key}, '${'cd'.repeat(12)}', 65536, 1000, 1016, true, 'clean',
      md5(g::text), now()
    FROM generate_series(1, ${opts.files}) g`);
  await db.query(`
    INSERT INTO auth.security_events (id, user_id, event_type, ip_address, user_agent, details, created_at)
    SELECT ${uuid(`'e'||g`)}, ${uuid(`'u'||(1 + g % ${opts.users})`)},
      (ARRAY['signin_success','signin_failure','signup','logout'])[1 + g % 4], '203.0.113.' || (g % 250),
      'bench', '{}', now() - (g % 10080) * interval '1 minute'
    FROM generate_series(1, ${opts.events}) g`);
  await db.query('ANALYZE auth.users, auth.security_events, notes.notes, files.files');
  return performance.now() - started;
}

async function timeGet(base, path, cookie) {
  const t0 = performance.now();
  const res = await fetch(`${base}${path}`, { headers: { cookie } });
  await res.arrayBuffer();
  const ms = performance.now() - t0;
  if (res.status !== 200) throw new Error(`GET ${path}: HTTP ${res.status}`);
  return ms;
}

const quantile = (values, q) => {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.ceil(q * v.length) - 1)];
};

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const db = new pg.Client({ connectionString: opts.databaseUrl });
  await db.connect();
  const seedMs = await seed(db, opts);
  console.log(
    `seeded ${opts.users} accounts, ${opts.notes} notes, ${opts.files} files, ${opts.events} events in ${round(seedMs / 1000)} s`,
  );
  const someUser = (await db.query(`SELECT id FROM auth.users WHERE username = 'user4242'`)).rows[0].id;
  await db.end();
  const cookie = await adminSession(opts.base, opts.databaseUrl);

  const calls = {
    'session (baseline)': '/api/admin/session',
    stats: '/api/admin/stats',
    'users, first page': '/api/admin/users?limit=10',
    'users, search "user4242"': '/api/admin/users?limit=10&search=user4242',
    'users, offset 50,000': '/api/admin/users?limit=10&offset=50000',
    "one user's details": `/api/admin/users/${someUser}`,
    'security events, first page': '/api/admin/security/events?limit=20',
  };
  const samples = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
  for (const path of Object.values(calls)) await timeGet(opts.base, path, cookie); // warm-up
  for (let i = 0; i < opts.samples; i++) {
    // Interleaved, and the order flips every round, so drift hits every call alike.
    const order = i % 2 ? Object.keys(calls).reverse() : Object.keys(calls);
    for (const name of order) samples[name].push(await timeGet(opts.base, calls[name], cookie));
  }
  const base = samples['session (baseline)'];
  const rows = Object.entries(samples).map(([name, ms]) => ({
    name,
    p50: round(median(ms)),
    p95: round(quantile(ms, 0.95)),
    ratioP50: round(median(ms) / median(base), 2),
  }));
  printTable(
    ['call', 'p50 ms', 'p95 ms', '× baseline p50'],
    rows.map((r) => [r.name, r.p50, r.p95, r.ratioP50]),
  );
  const goals = {
    statsP95Under100: rows.find((r) => r.name === 'stats').p95 < 100,
    userPageP95Under50: rows.find((r) => r.name === 'users, first page').p95 < 50,
  };
  console.log(`goals: ${JSON.stringify(goals)}`);
  emitResult({ seeded: { ...opts, seedSeconds: round(seedMs / 1000) }, rows, goals }, opts.json);
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
