#!/usr/bin/env node
// Load benchmark (issue 17): the API's busiest calls at 1, 10, 50 and 100 connections, each
// through the gateway (autocannon, closed loop over keep-alive HTTP) and straight to the service
// that does the work (the same RPC the gateway sends, the same closed loop), rounds interleaved
// so noise hits both alike. The ratio gateway/direct is what the gateway costs. The notes list is
// also measured against a bare Node HTTP server answering the same rows straight from Postgres
// (bench/lib/bare-notes-server.mjs): the floor the issue's ×0.75 goal is set against.
//
//   node bench/load.bench.mjs --base http://127.0.0.1:8080 --database-url postgres://... \
//     --auth-port 4001 --notes-port 4002 --files-port 4003 --admin-port 4004 \
//     [--connections 1,10,50,100] [--seconds 10] [--rounds 2] [--notes 1000] [--only notes-list,me]
//     [--rate-limited] [--json out.json]
//
// scripts/bench.mjs starts a private stack with the rate limits raised; `--rate-limited` instead
// runs the check for a stack with the default limits: below the limit no error, above it only
// clean 429s (JSON with a code and Retry-After), nothing else.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { adminSession } from './lib/admin-session.mjs';
import { loadVaultCrypto, signUpThroughApi } from './lib/app.mjs';
import { parseFlags } from './lib/flags.mjs';
import { emitResult, printTable, round } from './lib/output.mjs';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { RpcClients } = require('@vault/server-kit');

const SCENARIOS = ['me', 'notes-list', 'note-create', 'upload-url', 'signin', 'admin-stats'];

function parseArgs(argv) {
  const opts = {
    base: 'http://127.0.0.1:8080',
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vault',
    host: '127.0.0.1',
    authPort: 4001,
    notesPort: 4002,
    filesPort: 4003,
    adminPort: 4004,
    connections: '1,10,50,100',
    seconds: 10,
    rounds: 2,
    notes: 1000,
    only: SCENARIOS.join(','),
    rateLimited: false,
    json: undefined,
  };
  const list = (raw) => raw;
  parseFlags(
    argv.filter((a) => a !== '--rate-limited'),
    opts,
    {
      '--base': ['base', String],
      '--database-url': ['databaseUrl', String],
      '--host': ['host', String],
      '--auth-port': ['authPort', Number],
      '--notes-port': ['notesPort', Number],
      '--files-port': ['filesPort', Number],
      '--admin-port': ['adminPort', Number],
      '--connections': ['connections', list],
      '--seconds': ['seconds', Number],
      '--rounds': ['rounds', Number],
      '--notes': ['notes', Number],
      '--only': ['only', list],
      '--json': ['json', String],
    },
  );
  opts.rateLimited = argv.includes('--rate-limited');
  opts.connections = opts.connections.split(',').map(Number);
  opts.only = opts.only.split(',');
  for (const name of opts.only) if (!SCENARIOS.includes(name)) throw new Error(`unknown scenario ${name}`);
  return opts;
}

/** The caller's RpcContext as the gateway builds it from a verified access token. */
function contextOf(access) {
  const claims = JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString('utf8'));
  return {
    requestId: randomUUID(),
    ip: '127.0.0.1',
    userAgent: 'vault-bench/load',
    auth: { userId: claims.sub, sessionId: claims.sid, role: claims.role },
  };
}

/**
 * The same closed loop as autocannon's, for a call that is not HTTP: `connections` callers, each
 * sending its next call when the last one answered, for `seconds`. Counts errors by kind.
 */
async function closedLoop(connections, seconds, fire) {
  const latencies = [];
  const errors = {};
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  async function caller() {
    while (performance.now() < until) {
      const started = performance.now();
      try {
        await fire();
        latencies.push(performance.now() - started);
      } catch (error) {
        const code = error?.code ?? error?.message ?? String(error);
        errors[code] = (errors[code] ?? 0) + 1;
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, caller));
  return { latencies, errors, seconds: (performance.now() - t0) / 1000 };
}

/** An autocannon run, as the same shape as closedLoop's (latencies as a histogram summary). */
async function httpLoop(connections, seconds, request) {
  const result = await autocannon({
    url: request.url,
    connections,
    duration: seconds,
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body,
    setupClient: request.setupClient,
    requests: request.setupRequest ? [{ setupRequest: request.setupRequest }] : undefined,
    timeout: 30,
  });
  const statuses = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
  );
  const ok = Object.entries(statuses)
    .filter(([code]) => code.startsWith('2'))
    .reduce((n, [, count]) => n + count, 0);
  return {
    count: ok,
    seconds: result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

function summarise(runs) {
  if (runs[0].latencies) {
    const all = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
    const seconds = runs.reduce((s, r) => s + r.seconds, 0);
    const errors = runs.reduce((n, r) => n + Object.values(r.errors).reduce((a, b) => a + b, 0), 0);
    const kinds = Object.assign({}, ...runs.map((r) => r.errors));
    return { rps: all.length / seconds, p50: quantile(all, 0.5), p99: quantile(all, 0.99), errors, kinds };
  }
  const count = runs.reduce((n, r) => n + r.count, 0);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  // autocannon keeps its own histogram per run: the runs' percentiles are averaged.
  const mean = (key) => runs.reduce((s, r) => s + r[key], 0) / runs.length;
  const statuses = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  return {
    rps: count / seconds,
    p50: mean('p50'),
    p99: mean('p99'),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    kinds: statuses,
  };
}

/** Sealed note fields as the web app makes them (~400 characters of content), for `id`. */
async function sealedNote(vaultKey, n) {
  const { encryptNote, newItemId } = await loadVaultCrypto();
  const id = newItemId();
  const sealed = await encryptNote(vaultKey, id, {
    title: `Load note ${n}`,
    content: 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do '.repeat(6),
    tags: ['load', n % 2 ? 'odd' : 'even'],
  });
  return {
    id,
    title: sealed.title,
    content: sealed.content,
    tags: [...sealed.tags],
    wrappedDEK: sealed.wrappedDEK,
  };
}

async function api(base, method, path, body, access) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'vault-bench/load',
      ...(access ? { authorization: `Bearer ${access}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

async function seedNotes(base, account, count) {
  const t0 = performance.now();
  for (let from = 0; from < count; from += 100) {
    const notes = await Promise.all(
      Array.from({ length: Math.min(100, count - from) }, (_, i) => sealedNote(account.vaultKey, from + i)),
    );
    const res = await api(base, 'POST', '/api/notes/batch', { notes }, account.access);
    if (res.status !== 201) throw new Error(`seed: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  }
  return (performance.now() - t0) / 1000;
}

/** A file's upload-url body (sealed metadata; the bytes are never sent: only the call is timed). */
async function uploadBody(account) {
  const { encryptFileMetadata, FILE_CHUNK_SIZE, newItemId } = await loadVaultCrypto();
  const { expectedEncryptedSize } = require('@vault/contracts');
  const fileId = newItemId();
  const sealed = await encryptFileMetadata(account.vaultKey, fileId, {
    name: 'load.bin',
    mimeType: 'application/octet-stream',
    tags: [],
  });
  return {
    fileId,
    size: 1000,
    encryptedSize: expectedEncryptedSize(1000, FILE_CHUNK_SIZE),
    chunkSize: FILE_CHUNK_SIZE,
    iv: randomBytes(12).toString('hex'),
    wrappedKey: sealed.wrappedKey,
    encryptedName: sealed.encryptedName,
    encryptedMimeType: sealed.encryptedMimeType,
    encryptedTags: sealed.encryptedTags,
    storageType: 'local',
  };
}

function startBareServer(databaseUrl) {
  const child = spawn(
    process.execPath,
    [fileURLToPath(new URL('lib/bare-notes-server.mjs', import.meta.url))],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => {
      const port = Number(/listening (\d+)/.exec(chunk.toString())?.[1]);
      if (!port) reject(new Error(`bare server: ${chunk}`));
      resolve({ url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`bare server exited (${code})`)));
  });
}

/** Each scenario: its HTTP request through the gateway, and the same work sent straight to the service. */
async function buildScenarios(opts, rpc) {
  const account = await signUpThroughApi(opts.base, 'vault-bench/load');
  const auth = { authorization: `Bearer ${account.access}`, 'user-agent': 'vault-bench/load' };
  const ctx = contextOf(account.access);
  const scenarios = {};
  const wanted = (name) => opts.only.includes(name);

  if (wanted('me'))
    scenarios.me = {
      http: { url: `${opts.base}/api/auth/me`, headers: auth },
      direct: () => rpc.call('auth.me', ctx, undefined),
    };

  if (wanted('notes-list')) {
    const seconds = await seedNotes(opts.base, account, opts.notes);
    console.log(`seeded ${opts.notes} notes in ${round(seconds, 2)} s`);
    // What the gateway does for GET /api/notes without a limit: the service's pages, in order, their
    // notes as text (RawJson over TCP), counted by a scan of that text.
    const { RawJson } = require('@vault/contracts');
    const listAll = async () => {
      let cursor;
      let n = 0;
      do {
        const page = await rpc.call('notes.list', ctx, cursor ? { limit: 500, cursor } : { limit: 500 });
        n += RawJson.textOf(page.notes).split('"wrappedDEK":').length - 1;
        cursor = page.nextCursor;
      } while (cursor);
      if (n !== opts.notes) throw new Error(`listed ${n} notes, not ${opts.notes}`);
    };
    scenarios['notes-list'] = {
      http: { url: `${opts.base}/api/notes`, headers: auth },
      direct: listAll,
      bare: { path: `/notes?owner=${ctx.auth.userId}` },
    };
  }

  if (wanted('note-create')) {
    const template = await sealedNote(account.vaultKey, 0);
    const body = () => ({ ...template, id: randomUUID() });
    scenarios['note-create'] = {
      http: {
        url: `${opts.base}/api/notes`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify(body()) }),
      },
      direct: () => rpc.call('notes.create', ctx, body()),
    };
  }

  if (wanted('upload-url')) {
    const template = await uploadBody(account);
    const body = () => ({ ...template, fileId: randomUUID() });
    scenarios['upload-url'] = {
      http: {
        url: `${opts.base}/api/files/upload-url`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify(body()) }),
      },
      direct: () => rpc.call('files.create-upload', ctx, body()),
    };
  }

  if (wanted('signin')) {
    const login = { identifier: account.username, authKey: account.authKey };
    scenarios.signin = {
      http: {
        url: `${opts.base}/api/auth/login`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'vault-bench/load' },
        body: JSON.stringify(login),
      },
      direct: () => rpc.call('auth.login', { ...ctx, auth: undefined }, login),
    };
  }

  if (wanted('admin-stats')) {
    const cookie = await adminSession(opts.base, opts.databaseUrl);
    const token = decodeURIComponent(cookie.slice('vault_admin='.length));
    const base = { ...ctx, auth: undefined };
    scenarios['admin-stats'] = {
      http: { url: `${opts.base}/api/admin/stats`, headers: { cookie, 'user-agent': 'vault-bench/load' } },
      // The gateway's admin guard asks auth for the session, then the admin service for the stats.
      direct: async () => {
        const { session, key } = await rpc.call('auth.admin.session', base, { token });
        const { id, username, role, permissions } = session.admin;
        await rpc.call(
          'admin.stats',
          { ...base, admin: { id, label: username, role, permissions, sessionKey: key } },
          undefined,
        );
      },
    };
  }
  return scenarios;
}

/** Below the per-user API limit nothing fails; above it, only 429s with a code and Retry-After. */
async function rateLimitCheck(opts) {
  const account = await signUpThroughApi(opts.base, 'vault-bench/load');
  const bad = [];
  let retryAfter = 0;
  const result = await httpLoop(50, 3, {
    url: `${opts.base}/api/auth/me`,
    headers: { authorization: `Bearer ${account.access}` },
    setupClient: (client) =>
      client.on('body', (buf) => {
        const text = buf.toString();
        if (text.includes('"RATE_LIMITED"')) return;
        if (!text.includes('"username"')) bad.push(text.slice(0, 200));
      }),
  });
  const probe = await fetch(`${opts.base}/api/auth/me`, {
    headers: { authorization: `Bearer ${account.access}` },
  });
  retryAfter = Number(probe.headers.get('retry-after'));
  const other = Object.entries(result.statuses).filter(([code]) => !['200', '429'].includes(code));
  const ok = result.statuses['200'] ?? 0;
  const limited = result.statuses['429'] ?? 0;
  console.log(
    `rate limit: ${ok} answered 200, ${limited} answered 429 (Retry-After ${retryAfter} s), other: ${JSON.stringify(other)}`,
  );
  const pass =
    other.length === 0 && limited > 0 && probe.status === 429 && retryAfter > 0 && bad.length === 0;
  return { ok, limited, retryAfter, other, badBodies: bad.slice(0, 3), pass };
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.rateLimited) {
    const check = await rateLimitCheck(opts);
    emitResult({ rateLimit: check }, opts.json);
    if (!check.pass) process.exit(1);
    return;
  }
  const rpc = new RpcClients({
    transport: 'tcp',
    natsUrl: '',
    timeoutMs: 30_000,
    peers: {
      auth: { host: opts.host, port: opts.authPort },
      notes: { host: opts.host, port: opts.notesPort },
      files: { host: opts.host, port: opts.filesPort },
      admin: { host: opts.host, port: opts.adminPort },
    },
  });
  const scenarios = await buildScenarios(opts, rpc);
  const bare = scenarios['notes-list'] ? await startBareServer(opts.databaseUrl) : undefined;
  const rows = [];
  try {
    for (const [name, s] of Object.entries(scenarios)) {
      // Warm-up: connections opened, JIT warm, caches filled.
      await httpLoop(4, 2, s.http);
      await closedLoop(4, 2, s.direct);
      for (const connections of opts.connections) {
        const runs = { gateway: [], direct: [], bare: [] };
        for (let round_ = 0; round_ < opts.rounds; round_ += 1) {
          // ABBA: the order flips each round.
          const order = round_ % 2 ? ['gateway', 'direct'] : ['direct', 'gateway'];
          if (s.bare) order.push('bare');
          for (const side of order) {
            if (side === 'gateway') runs.gateway.push(await httpLoop(connections, opts.seconds, s.http));
            if (side === 'direct') runs.direct.push(await closedLoop(connections, opts.seconds, s.direct));
            if (side === 'bare')
              runs.bare.push(await httpLoop(connections, opts.seconds, { url: `${bare.url}${s.bare.path}` }));
          }
        }
        const g = summarise(runs.gateway);
        const d = summarise(runs.direct);
        const b = s.bare ? summarise(runs.bare) : undefined;
        const row = {
          scenario: name,
          connections,
          gateway: {
            rps: round(g.rps),
            p50: round(g.p50),
            p99: round(g.p99),
            errors: g.errors,
            statuses: g.kinds,
          },
          direct: {
            rps: round(d.rps),
            p50: round(d.p50),
            p99: round(d.p99),
            errors: d.errors,
            kinds: d.kinds,
          },
          gatewayToDirect: round(g.rps / d.rps, 2),
          ...(b && {
            bare: { rps: round(b.rps), p50: round(b.p50), p99: round(b.p99), errors: b.errors },
            gatewayToBare: round(g.rps / b.rps, 2),
          }),
        };
        rows.push(row);
        console.log(
          `${name} @${connections}: gateway ${row.gateway.rps} req/s (p50 ${row.gateway.p50} ms, p99 ${row.gateway.p99} ms, ${g.errors} errors), ` +
            `direct ${row.direct.rps} req/s (p50 ${row.direct.p50}, p99 ${row.direct.p99}, ${d.errors} errors) ×${row.gatewayToDirect}` +
            (b
              ? `; bare ${row.bare.rps} req/s (p50 ${row.bare.p50}, p99 ${row.bare.p99}) ×${row.gatewayToBare}`
              : ''),
        );
      }
    }
  } finally {
    bare?.stop();
    await rpc.close();
  }
  console.log('');
  printTable(
    [
      'scenario',
      'conns',
      'gateway req/s',
      'p50',
      'p99',
      'errors',
      'direct req/s',
      'p50',
      'p99',
      '× direct',
      'bare req/s',
      '× bare',
    ],
    rows.map((r) => [
      r.scenario,
      r.connections,
      r.gateway.rps,
      r.gateway.p50,
      r.gateway.p99,
      r.gateway.errors + r.direct.errors,
      r.direct.rps,
      r.direct.p50,
      r.direct.p99,
      r.gatewayToDirect,
      r.bare?.rps ?? '',
      r.gatewayToBare ?? '',
    ]),
  );
  const errors = rows.reduce((n, r) => n + r.gateway.errors + r.direct.errors, 0);
  emitResult({ opts: { ...opts, databaseUrl: undefined }, rows, errors }, opts.json);
  if (errors > 0) {
    console.error(`${errors} errors below the rate limits`);
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
