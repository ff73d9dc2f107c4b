#!/usr/bin/env node
// Chaos tier (`npm run test:chaos`; docs/operations.md "Failures and recovery"). Faults under a
// steady load of note writes, lists, file lists, sign-ins and admin console reads, each with the
// rule that every write answered 2xx is readable afterwards and that no write is half done:
//   - the local runner's own supervision (restart with backoff, giving up, dying with its runner);
//   - kill -9 of each service in turn: in-flight requests get a clear 503, the runner restarts it,
//     the others keep their processes, traffic recovers within seconds;
//   - a Redis restart (sessions, lockouts, rate limits, console sessions and queued scans);
//   - a PostgreSQL restart, and a connection cut in the middle of a transaction;
//   - NATS down and back with the Kubernetes transport.
// PostgreSQL, Redis and NATS are private servers of this run on free ports (scripts/lib/chaos/
// infra.mjs): the machine's shared ones, which other tiers and runs use, are never touched.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import pg from 'pg';
import { ACCOUNT_PURGE_QUEUES, SCAN_QUEUE } from '@vault/contracts';
import { newItemId, encryptNote } from '@vault/crypto';
import {
  adminSignIn,
  call,
  createAdmin,
  listFiles,
  signIn,
  signUpAccount,
  uploadFile,
} from './lib/chaos/client.mjs';
import { startNats, startPostgres, startRedis } from './lib/chaos/infra.mjs';
import { Load } from './lib/chaos/load.mjs';
import { alive, spawnRunner, stripColors, supervisionChecks, until } from './lib/chaos/supervision.mjs';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { SERVICES, waitHealthy } from './lib/stack.mjs';
import { tierChecks } from './lib/tier-checks.mjs';
import { ROOT, buildAll, ensureDependencies, freePort, log, sleep, tcpOpen } from './lib/util.mjs';

const { check, finish } = tierChecks('chaos');
// `node scripts/chaos-e2e.mjs [supervision] [kill] [redis] [postgres] [runner] [nats]` runs only those
// groups of cases (all of them by default); a stack starts only when one of its groups runs.
const only = process.argv.slice(2);
const wanted = (...groups) => only.length === 0 || groups.some((g) => only.includes(g));
const caseOf = (group, name, fn) => (wanted(group) ? check(name, fn) : undefined);
const figures = {};
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
/** How long traffic may take to recover after a fault: generous, the 2 cores are shared. */
const RECOVERY_LIMIT_MS = 60_000;
/**
 * Longer than the NATS client's default reconnect window (10 tries 2 s apart), after which a
 * service would never hear from NATS again: the case proves they try for ever.
 */
const NATS_DOWN_MS = 25_000;
/** The gateway's auth-route limit per client address in this run (the rate-limit case trips it). */
const AUTH_LIMIT = 150;

const overrides = (infra, transport) => ({
  DATABASE_URL: `${infra.pg.url}/vault_chaos_${randomBytes(3).toString('hex')}`,
  REDIS_URL: infra.redis.url,
  RPC_TRANSPORT: transport,
  NATS_URL: infra.nats.url,
  // Each load account has a client address of its own (X-Forwarded-For through one trusted hop).
  TRUST_PROXY: 'true',
  RATE_LIMIT_API_PER_MINUTE: '100000',
  RATE_LIMIT_AUTH_PER_MINUTE: String(AUTH_LIMIT),
  LOGIN_IP_MAX_FAILURES: '100000',
  LOCKOUT_THRESHOLD: '5',
  LOCKOUT_SECONDS: '600',
  MAIL_TRANSPORT: 'log',
  MAIL_DIR: join(ROOT, '.data', `chaos-mail-${randomBytes(3).toString('hex')}`),
});

/** The statuses of requests in flight when `at` came (started before, ended after). */
const inFlight = (load, at) => load.events.filter((e) => e.start < at && e.end > at);
const describe = (events) =>
  events
    .slice(0, 6)
    .map((e) => `${e.op} ${e.status}${e.code ? ` ${e.code}` : ''}${e.error ? ` ${e.error}` : ''}`)
    .join(', ');

/**
 * Crashes the run did not cause: every unexpected exit is recorded, and each case says which
 * kills were its own.
 */
function crashLog(stack) {
  const all = [];
  stack.onCrash((name, info) => all.push({ name, signal: info.signal, code: info.code }));
  return {
    /** Throws when a service exited without this run killing it. */
    assertOnly(expected) {
      const others = all.filter((c, i) => c.name !== expected[i]);
      assert.equal(
        others.length,
        0,
        `unexpected exits: ${others.map((c) => `${c.name} (${c.signal ?? c.code})`).join(', ')}`,
      );
    },
    all,
  };
}

async function setupTraffic(baseUrl, env) {
  const accounts = [];
  for (let i = 0; i < 3; i += 1) accounts.push(await signUpAccount(baseUrl));
  const admin = await createAdmin(baseUrl, env);
  const signedIn = await adminSignIn(baseUrl, env, admin);
  assert.equal(signedIn.status, 200, `admin sign-in: ${signedIn.text}`);
  const load = new Load(baseUrl, accounts, { admin, env });
  load.start();
  // A few seconds of healthy traffic first: the faults are measured against it.
  await sleep(3000);
  const before = load.tally(0);
  assert.equal(
    before.ok,
    load.events.length,
    `the load failed before any fault: ${describe(load.unexpected(0))}`,
  );
  return { accounts, admin, load };
}

/** Runs `fn` with the stack's BullMQ queue `name`, closed afterwards. */
async function withQueue(env, name, fn) {
  const queue = new Queue(name, { connection: { url: env.REDIS_URL }, prefix: `${env.REDIS_PREFIX}bull` });
  try {
    return await fn(queue);
  } finally {
    await queue.close();
  }
}

/** The job schedulers' keys of the files service's maintenance queue (the abandoned-upload cleanup). */
async function maintenanceSchedulers(env) {
  const { FILES_MAINTENANCE_QUEUE } = await import('@vault/server-kit');
  return withQueue(env, FILES_MAINTENANCE_QUEUE, async (q) => (await q.getJobSchedulers()).map((s) => s.key));
}

/**
 * Pauses queues (BullMQ keeps that in Redis): their workers run on but take no job, so jobs wait
 * in the queue. A Redis that comes back empty has forgotten the pause too.
 */
async function pauseQueues(env, names) {
  for (const name of names) await withQueue(env, name, (q) => q.pause());
}

/** Waits until `file ids` have a verdict (not pending) on `account`'s list; returns the files. */
async function waitVerdicts(baseUrl, account, ids, ms) {
  return until(
    async () => {
      const files = await listFiles(baseUrl, account).catch(() => new Map());
      const mine = ids.map((id) => files.get(id));
      return mine.every((f) => f && f.virusScanResult !== 'pending') && mine;
    },
    ms,
    `a verdict for files ${ids.join(', ')}`,
  );
}

// Both stacks run one build: npm test's (VAULT_SKIP_BUILD=1 in .ci/run), or this one when run alone.
if (process.env.VAULT_SKIP_BUILD !== '1') {
  ensureDependencies();
  buildAll();
  process.env.VAULT_SKIP_BUILD = '1';
}

// ── the runner's own supervision ────────────────────────────────────────────────────────────
if (wanted('supervision')) Object.assign(figures, await supervisionChecks(check));

// ── the stacks under faults ─────────────────────────────────────────────────────────────────
const infra = {};
let unexpectedCrash;
if (wanted('kill', 'redis', 'postgres', 'runner', 'nats'))
  try {
    log('starting a private PostgreSQL, Redis and NATS');
    [infra.pg, infra.redis, infra.nats] = await Promise.all([startPostgres(), startRedis(), startNats()]);
    log(`PostgreSQL on ${infra.pg.port}, Redis on ${infra.redis.port}, NATS on ${infra.nats.port}`);

    const tcp = overrides(infra, 'tcp');
    const runnerLines = [];
    if (wanted('kill', 'redis', 'postgres', 'runner'))
      await withEphemeralStack(
        'chaos',
        tcp,
        async ({ baseUrl, env, stack }) => {
          const crashes = crashLog(stack);
          const killed = [];
          const { accounts, admin, load } = await setupTraffic(baseUrl, env);
          try {
            // The runner gives the scan worker the allocator setting compose and Kubernetes give it.
            await caseOf(
              'kill',
              'the scan worker runs with two malloc arenas (MALLOC_ARENA_MAX=2)',
              async () => {
                const environ = readFileSync(`/proc/${stack.pids().scan}/environ`, 'utf8').split('\0');
                assert.ok(
                  environ.includes('MALLOC_ARENA_MAX=2'),
                  'MALLOC_ARENA_MAX=2 not in its environment',
                );
              },
            );
            // a. kill -9 each service in turn.
            figures.killRecovery = {};
            for (const { name } of SERVICES) {
              await caseOf(
                'kill',
                `kill -9 ${name}: restarted by the runner, in-flight requests a clear 503, traffic back`,
                async () => {
                  const before = stack.pids();
                  const at = Date.now();
                  process.kill(before[name], 'SIGKILL');
                  killed.push(name);
                  const restarted = await until(
                    () =>
                      runnerLines.find(
                        (l) =>
                          l.at >= at - 50 &&
                          l.line === `${name} exited unexpectedly (SIGKILL); restarting in 0.5 s (restart 1)`,
                      ),
                    10_000,
                    `the runner's restart line for ${name}`,
                  );
                  assert.ok(restarted);
                  const after = await until(
                    () => stack.pids()[name] && stack.pids()[name] !== before[name] && stack.pids(),
                    10_000,
                    `${name} respawned`,
                  );
                  for (const other of SERVICES.map((s) => s.name).filter((n) => n !== name)) {
                    assert.equal(after[other], before[other], `${other} was restarted too`);
                  }
                  // The service itself answers again (the scan worker: a file uploaded now gets its verdict).
                  let scanning = '';
                  if (name === 'scan') {
                    const file = await uploadFile(baseUrl, accounts[0]);
                    await waitVerdicts(baseUrl, accounts[0], [file.id], RECOVERY_LIMIT_MS);
                    figures.scanBackMs = Date.now() - at;
                    scanning = `; a file uploaded after the kill scanned ${seconds(figures.scanBackMs)} after it`;
                  } else if (['auth', 'notes', 'files', 'gateway'].includes(name)) {
                    await waitHealthy(baseUrl, RECOVERY_LIMIT_MS, { service: name });
                  }
                  const recovered = await load.waitRecovered(at, RECOVERY_LIMIT_MS);
                  const bad = load.unexpected(at, Infinity, { allowNoAnswer: name === 'gateway' });
                  assert.equal(bad.length, 0, `answers no fault may cause: ${describe(bad)}`);
                  const flying = inFlight(load, at);
                  const tally = load.tally(at);
                  figures.killRecovery[name] = { recoveredMs: recovered, inFlight: flying.length, ...tally };
                  console.log(
                    `    back after ${seconds(recovered)}${scanning}; in flight at the kill: ${flying.length} (${describe(flying) || 'none'}); since: ${JSON.stringify(tally)}`,
                  );
                  crashes.assertOnly(killed);
                  await sleep(500);
                },
              );
            }

            // b. Redis restart: what it held is gone; the services reconnect by themselves.
            await caseOf(
              'redis',
              'Redis restart: sessions, lockouts, rate limits, console sessions and queued scans as documented',
              async () => {
                const pidsBefore = stack.pids();
                // Sessions: an idle device's token, and the load's own.
                const idle = await signUpAccount(baseUrl, 'chaos_idle');
                // Lockouts: one account locked (5 wrong keys), one with 3 wrong keys counted.
                const locked = await signUpAccount(baseUrl, 'chaos_locked');
                const counted = await signUpAccount(baseUrl, 'chaos_counted');
                const wrong = (account) =>
                  call(baseUrl, 'POST', '/api/auth/login', {
                    ip: account.ip,
                    body: { identifier: account.username, authKey: 'a'.repeat(64) },
                  });
                for (let i = 0; i < 5; i += 1) await wrong(locked);
                for (let i = 0; i < 3; i += 1) await wrong(counted);
                const lockedBefore = await signIn(baseUrl, locked);
                assert.equal(
                  lockedBefore.body?.code,
                  'ACCOUNT_LOCKED',
                  `locked before: ${lockedBefore.status} ${lockedBefore.text}`,
                );
                // Rate limits: one client address over the auth routes' limit.
                const probeIp = `10.99.${randomBytes(1)[0]}.${1 + (randomBytes(1)[0] % 250)}`;
                const prelogin = () =>
                  call(baseUrl, 'POST', '/api/auth/prelogin', {
                    ip: probeIp,
                    body: { identifier: idle.username },
                  });
                let limited;
                for (let i = 0; i <= AUTH_LIMIT && !limited; i += 1)
                  if ((await prelogin()).status === 429) limited = i + 1;
                assert.ok(limited, 'the probe address was never limited');
                // Queued scans: the scan queue paused (the worker keeps running), three uploads waiting.
                await pauseQueues(env, [SCAN_QUEUE]);
                const waiting = [];
                for (let i = 0; i < 3; i += 1) waiting.push((await uploadFile(baseUrl, accounts[1])).id);
                // Long enough for a running worker to have scanned them (about 0.3 s each here).
                await sleep(2000);
                const queued = await listFiles(baseUrl, accounts[1]);
                assert.ok(
                  waiting.every((id) => queued.get(id)?.virusScanResult === 'pending'),
                  'the paused queue was scanned',
                );
                const adminCookie = admin.cookie;
                // Account purges: the purge queues paused, an account with a file deleted; its purge waits.
                await pauseQueues(env, Object.values(ACCOUNT_PURGE_QUEUES));
                const leaving = await signUpAccount(baseUrl, 'chaos_leaving');
                await uploadFile(baseUrl, leaving);
                const deleted = await call(baseUrl, 'DELETE', '/api/auth/account', {
                  token: leaving.token,
                  ip: leaving.ip,
                  body: { authKey: leaving.keys.authKey },
                });
                assert.equal(deleted.status, 204, `account deletion: ${deleted.status} ${deleted.text}`);
                const leftRows = async () => {
                  const db = new pg.Client({ connectionString: env.DATABASE_URL });
                  await db.connect();
                  try {
                    const res = await db.query(
                      'SELECT count(*)::int AS n FROM files.files WHERE owner_id = $1',
                      [leaving.userId],
                    );
                    return res.rows[0].n;
                  } finally {
                    await db.end();
                  }
                };
                assert.equal(await leftRows(), 1, 'the paused purge ran');

                const at = Date.now();
                await infra.redis.stop();
                await sleep(2000);
                await infra.redis.start();
                const upAt = Date.now();

                const recovered = await load.waitRecovered(at, RECOVERY_LIMIT_MS);
                const bad = load.unexpected(at);
                assert.equal(bad.length, 0, `answers no fault may cause: ${describe(bad)}`);
                const idleAfter = await call(baseUrl, 'GET', '/api/notes?limit=1', {
                  token: idle.token,
                  ip: idle.ip,
                });
                assert.equal(idleAfter.status, 401, `an idle session after the restart: ${idleAfter.status}`);
                assert.equal((await signIn(baseUrl, idle)).status, 200, 'sign-in after the restart');
                assert.equal(
                  (await call(baseUrl, 'GET', '/api/notes?limit=1', { token: idle.token, ip: idle.ip }))
                    .status,
                  200,
                );
                const lockedAfter = await signIn(baseUrl, locked);
                assert.equal(
                  lockedAfter.body?.code,
                  'ACCOUNT_LOCKED',
                  `a lock after the restart: ${lockedAfter.status} ${lockedAfter.text}`,
                );
                // The 3 failures counted before are gone: 4 more and the right key still signs in.
                for (let i = 0; i < 4; i += 1) await wrong(counted);
                const countedAfter = await signIn(baseUrl, counted);
                assert.equal(
                  countedAfter.status,
                  200,
                  `failures counted before the restart still count: ${countedAfter.status} ${countedAfter.text}`,
                );
                assert.equal((await prelogin()).status, 200, 'the rate-limit window survived the restart');
                const oldConsole = await call(baseUrl, 'GET', '/api/admin/audit?limit=1', {
                  cookie: adminCookie,
                  ip: admin.ip,
                });
                assert.equal(oldConsole.status, 401, `the console session from before: ${oldConsole.status}`);
                const verdicts = await waitVerdicts(baseUrl, accounts[1], waiting, RECOVERY_LIMIT_MS);
                const scansMs = Date.now() - upAt;
                assert.ok(
                  verdicts.every((f) => f.virusScanResult === 'clean'),
                  `verdicts: ${verdicts.map((f) => f.virusScanResult)}`,
                );
                // The purge lost with Redis is queued again by auth and runs.
                await until(
                  async () => (await leftRows()) === 0,
                  RECOVERY_LIMIT_MS,
                  "the deleted account's file rows purged",
                );
                const purgedMs = Date.now() - upAt;
                // The upload cleanup's schedule, lost with Redis, is back without a restart.
                await until(
                  async () => (await maintenanceSchedulers(env)).length > 0,
                  RECOVERY_LIMIT_MS,
                  'the abandoned-upload cleanup scheduled again',
                );
                assert.deepEqual(stack.pids(), pidsBefore, 'a service was restarted');
                crashes.assertOnly(killed);
                figures.redis = {
                  recoveredMs: recovered,
                  lostScansBackMs: scansMs,
                  lostPurgeDoneMs: purgedMs,
                  limitedAfter: limited,
                  ...load.tally(at, upAt + recovered),
                };
                console.log(
                  `    traffic back ${seconds(recovered)} after the stop (2 s down); the 3 lost scans done ${seconds(scansMs)} and the lost purge ${seconds(purgedMs)} after Redis was back; ${JSON.stringify(load.tally(at))}`,
                );
              },
            );

            // c. PostgreSQL restart under load.
            await caseOf(
              'postgres',
              'PostgreSQL restart: a clear 503 while it is down, traffic back without restarting a service',
              async () => {
                const pidsBefore = stack.pids();
                const at = Date.now();
                await infra.pg.stop();
                await sleep(2000);
                await infra.pg.start();
                const recovered = await load.waitRecovered(at, RECOVERY_LIMIT_MS);
                const bad = load.unexpected(at);
                assert.equal(bad.length, 0, `answers no fault may cause: ${describe(bad)}`);
                const down = load.tally(at);
                assert.ok(down.unavailable > 0, 'no request met the outage: the case proved nothing');
                assert.deepEqual(stack.pids(), pidsBefore, 'a service was restarted');
                crashes.assertOnly(killed);
                figures.postgres = { recoveredMs: recovered, ...down };
                console.log(
                  `    traffic back ${seconds(recovered)} after the stop (2 s down); ${JSON.stringify(down)}`,
                );
              },
            );

            await caseOf(
              'postgres',
              'PostgreSQL connection cut inside a batch transaction: nothing stored, a non-2xx, the retry stores it all',
              async () => {
                const admin1 = new pg.Client({ connectionString: env.DATABASE_URL });
                const admin2 = new pg.Client({ connectionString: env.DATABASE_URL });
                await admin1.connect();
                await admin2.connect();
                try {
                  // An owner of its own: no load request of another account waits on the same row.
                  const owner = await signUpAccount(baseUrl, 'chaos_cut');
                  const first = await encryptNote(owner.keys.vaultKey, newItemId(), {
                    title: 'first',
                    content: 'first',
                    tags: [],
                  });
                  const made = await call(baseUrl, 'POST', '/api/notes', {
                    token: owner.token,
                    ip: owner.ip,
                    body: {
                      id: first.id,
                      title: first.title,
                      content: first.content,
                      tags: [],
                      wrappedDEK: first.wrappedDEK,
                    },
                  });
                  assert.equal(made.status, 201, `the owner's first note: ${made.status} ${made.text}`);
                  const sealed = await Promise.all(
                    [0, 1, 2].map((k) =>
                      encryptNote(owner.keys.vaultKey, newItemId(), {
                        title: `cut ${k}`,
                        content: 'cut',
                        tags: [],
                      }),
                    ),
                  );
                  const body = {
                    notes: sealed.map((s) => ({
                      id: s.id,
                      title: s.title,
                      content: s.content,
                      tags: [...s.tags],
                      wrappedDEK: s.wrappedDEK,
                    })),
                  };
                  // A row with the id the batch's INSERT takes last (it takes them in id order), not
                  // committed: the INSERT stores the notes before it, then waits to learn whether this
                  // one conflicts. The cut lands there, half-way through the batch's writes.
                  const last = sealed
                    .map((n) => n.id)
                    .sort()
                    .at(-1);
                  await admin1.query('BEGIN');
                  // Its own counts trigger off (this session only), or it would lock the owner's counts
                  // row, on which the batch's first write would wait instead.
                  await admin1.query('SET LOCAL session_replication_role = replica');
                  await admin1.query(
                    `INSERT INTO notes.notes SELECT (jsonb_populate_record(n, jsonb_build_object('id', $2::uuid))).* FROM notes.notes n WHERE n.id = $1`,
                    [first.id, last],
                  );
                  const holder = (await admin1.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
                  const pending = call(baseUrl, 'POST', '/api/notes/batch', {
                    token: owner.token,
                    ip: owner.ip,
                    body,
                  });
                  const victim = await until(
                    async () =>
                      (
                        await admin2.query(
                          'SELECT pid, query FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))',
                          [holder],
                        )
                      ).rows[0],
                    15_000,
                    'the batch waiting inside its transaction',
                  );
                  assert.match(victim.query, /INSERT INTO "notes"\."notes"/);
                  await admin2.query('SELECT pg_terminate_backend($1)', [victim.pid]);
                  await admin1.query('ROLLBACK');
                  const res = await pending;
                  assert.ok(res.status >= 400, `the cut batch was answered ${res.status}`);
                  assert.equal(
                    res.body?.code,
                    'SERVICE_UNAVAILABLE',
                    `the cut batch: ${res.status} ${res.text}`,
                  );
                  const ids = sealed.map((s) => s.id);
                  const stored = (
                    await admin2.query('SELECT count(*)::int AS n FROM notes.notes WHERE id = ANY($1)', [ids])
                  ).rows[0].n;
                  assert.equal(stored, 0, `${stored} of the cut batch's notes were stored`);
                  const retry = await call(baseUrl, 'POST', '/api/notes/batch', {
                    token: owner.token,
                    ip: owner.ip,
                    body,
                  });
                  assert.equal(retry.status, 201, `the retry: ${retry.status} ${retry.text}`);
                  const after = (
                    await admin2.query('SELECT count(*)::int AS n FROM notes.notes WHERE id = ANY($1)', [ids])
                  ).rows[0].n;
                  assert.equal(after, 3);
                  figures.cut = { answer: `${res.status} ${res.body?.code}` };
                  console.log(
                    `    cut batch answered ${res.status} ${res.body?.code}; retry 201 with all 3 notes`,
                  );
                } finally {
                  await admin1.end().catch(() => {});
                  await admin2.end().catch(() => {});
                }
              },
            );

            await check(
              'every write answered 2xx is readable, no batch half stored, note counts match the rows',
              async () => {
                await load.stop();
                const verifyDb = new pg.Client({ connectionString: env.DATABASE_URL });
                await verifyDb.connect();
                try {
                  const result = await load.verify(verifyDb);
                  figures.tcpLoad = { ...result, ...load.tally(0) };
                  console.log(
                    `    ${result.notes} notes checked (${result.writes} acknowledged writes); all answers: ${JSON.stringify(load.tally(0))}`,
                  );
                } finally {
                  await verifyDb.end();
                }
              },
            );

            await caseOf('runner', 'real services end when their runner is killed with SIGKILL', async () => {
              const [authPort, notesPort] = [await freePort(), await freePort()];
              const runnerEnv = {
                ...env,
                AUTH_RPC_PORT: String(authPort),
                NOTES_RPC_PORT: String(notesPort),
              };
              delete runnerEnv.HEALTH_PORT;
              const pick = SERVICES.filter((s) => s.name === 'auth' || s.name === 'notes');
              const runner = spawnRunner(
                pick.map(({ name, main }) => ({ name, main })),
                { env: runnerEnv },
              );
              const pids = await until(
                () => runner.pids().auth && runner.pids().notes && runner.pids(),
                10_000,
                'both spawned',
              );
              try {
                await until(
                  async () =>
                    (await tcpOpen('127.0.0.1', authPort)) && (await tcpOpen('127.0.0.1', notesPort)),
                  60_000,
                  'auth and notes listening',
                );
                await runner.kill();
                const t0 = Date.now();
                await until(
                  () => !alive(pids.auth) && !alive(pids.notes),
                  20_000,
                  `auth ${pids.auth} / notes ${pids.notes} still running after their runner died`,
                );
                figures.orphansGoneMs = Date.now() - t0;
                console.log(`    both gone ${seconds(figures.orphansGoneMs)} after the runner`);
              } finally {
                await runner.kill();
                for (const pid of [pids.auth, pids.notes]) if (alive(pid)) process.kill(pid, 'SIGKILL');
              }
            });
            if (crashes.all.length > killed.length) unexpectedCrash = 'see the unexpected exits above';
          } finally {
            await load.stop();
            rmSync(tcp.MAIL_DIR, { recursive: true, force: true });
          }
        },
        {
          stackOptions: {
            say: (line) => {
              runnerLines.push({ at: Date.now(), line: stripColors(line) });
              log(line);
            },
          },
        },
      );

    // d. NATS down and back, with the Kubernetes transport.
    const nats = overrides(infra, 'nats');
    if (wanted('nats'))
      await withEphemeralStack('chaos_nats', nats, async ({ baseUrl, env, stack }) => {
        const crashes = crashLog(stack);
        const { load } = await setupTraffic(baseUrl, env);
        try {
          await caseOf(
            'nats',
            `NATS down ${NATS_DOWN_MS / 1000} s and back (RPC_TRANSPORT=nats): a clear 503 while it is down, traffic back, no service restarted`,
            async () => {
              const pidsBefore = stack.pids();
              const at = Date.now();
              await infra.nats.stop();
              await sleep(NATS_DOWN_MS);
              const downTally = load.tally(at);
              await infra.nats.start();
              const upAt = Date.now();
              const recovered = await load.waitRecovered(at, RECOVERY_LIMIT_MS);
              const bad = load.unexpected(at);
              assert.equal(bad.length, 0, `answers no fault may cause: ${describe(bad)}`);
              assert.ok(downTally.unavailable > 0, 'no request met the outage: the case proved nothing');
              assert.deepEqual(stack.pids(), pidsBefore, 'a service was restarted');
              crashes.assertOnly([]);
              figures.nats = { afterBackMs: at + recovered - upAt, ...load.tally(at) };
              console.log(
                `    traffic back ${seconds(at + recovered - upAt)} after NATS was; ${JSON.stringify(load.tally(at))}`,
              );
            },
          );
          await check('NATS: every write answered 2xx is readable, note counts match the rows', async () => {
            await load.stop();
            const db = new pg.Client({ connectionString: env.DATABASE_URL });
            await db.connect();
            try {
              const result = await load.verify(db);
              console.log(
                `    ${result.notes} notes checked (${result.writes} acknowledged writes); all answers: ${JSON.stringify(load.tally(0))}`,
              );
            } finally {
              await db.end();
            }
          });
          if (crashes.all.length > 0) unexpectedCrash = crashes.all.map((c) => c.name).join(', ');
        } finally {
          await load.stop();
          rmSync(nats.MAIL_DIR, { recursive: true, force: true });
        }
      });
  } catch (error) {
    await check('the chaos stacks ran', () => {
      throw error;
    });
  } finally {
    await Promise.allSettled([infra.pg?.close(), infra.redis?.close(), infra.nats?.close()]);
  }

console.log(`\nfigures: ${JSON.stringify(figures)}`);
process.exit(finish({ crashed: unexpectedCrash }));
