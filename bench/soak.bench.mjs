#!/usr/bin/env node
/* global AbortSignal */
// Soak benchmark (issue 17): minutes of mixed load through the gateway, as a handful of users
// would make it (sign-ins, /me, the notes list, notes created, edited and deleted, small files
// uploaded, downloaded and deleted through the signed blob route, the admin console's stats),
// while every service's memory is sampled. Goal: every answer the expected 2xx, no service
// restarted, and the memory of each flat: the memory a service keeps (the lowest sample of each
// minute: what is left after its collections) rises by less than 5 % from the first minute after
// the warm-up to the last, along its least-squares line. What it keeps is its RSS less the part of
// the V8 heap that V8 has committed and holds nothing: V8 grows and gives back that reserve with its
// collections (the notes service's swung between 77 and 101 MiB in one run, its heap in use flat),
// which moved the RSS floors by ±5 % by chance; a leak of JavaScript objects (the heap in use) or
// of native memory (everything outside the heap) still raises it. The RSS floors are reported
// beside it. Medians swing with the garbage collector, so they are reported, not judged.
//
//   node bench/soak.bench.mjs --base http://127.0.0.1:8080 --database-url postgres://... \
//     --pids gateway=123,auth=124,notes=125,files=126,admin=127,scan-worker=128 \
//     [--metrics gateway=http://127.0.0.1:9101,auth=...] [--minutes 10] [--warmup 2] [--window 2]
//     [--users 12] [--sample 2] [--think 20] [--max-growth 5] [--json out.json]
//
// RSS is read from /proc/<pid>/status; with --metrics (each service's HEALTH_PORT listener), the V8
// heap (in use and committed) is read from its /metrics too; without them the rule judges the RSS. A pid
// that is gone (or reused) means the service crashed and was restarted: the soak fails.
// scripts/bench.mjs starts the stack with the rate limits raised and passes all of the above.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { adminSession } from './lib/admin-session.mjs';
import { loadVaultCrypto, signUpThroughApi } from './lib/app.mjs';
import { parseFlags } from './lib/flags.mjs';
import { emitResult, median, printTable, round } from './lib/output.mjs';

const require = createRequire(import.meta.url);
const { expectedEncryptedSize } = require('@vault/contracts');

const UA = 'vault-bench/soak';
const MiB = 1024 * 1024;

/** `a=1,b=2` → {a: '1', b: '2'}. */
const pairs = (raw) =>
  Object.fromEntries(
    raw
      .split(',')
      .filter(Boolean)
      .map((p) => {
        const at = p.indexOf('=');
        if (at < 1) throw new Error(`not name=value: ${p}`);
        return [p.slice(0, at), p.slice(at + 1)];
      }),
  );

function parseArgs(argv) {
  const opts = {
    base: 'http://127.0.0.1:8080',
    databaseUrl: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/vault',
    pids: {},
    metrics: {},
    minutes: 10,
    warmup: 2,
    window: 2,
    users: 12,
    sample: 2,
    think: 20,
    maxGrowth: 5,
    seedNotes: 40,
    json: undefined,
  };
  parseFlags(argv, opts, {
    '--base': ['base', String],
    '--database-url': ['databaseUrl', String],
    '--pids': ['pids', pairs],
    '--metrics': ['metrics', pairs],
    '--minutes': ['minutes', Number],
    '--warmup': ['warmup', Number],
    '--window': ['window', Number],
    '--users': ['users', Number],
    '--sample': ['sample', Number],
    '--think': ['think', Number],
    '--max-growth': ['maxGrowth', Number],
    '--seed-notes': ['seedNotes', Number],
    '--json': ['json', String],
  });
  opts.pids = Object.fromEntries(Object.entries(opts.pids).map(([name, pid]) => [name, Number(pid)]));
  if (Object.keys(opts.pids).length === 0) throw new Error('--pids is required (name=pid,...)');
  if (opts.warmup + opts.window > opts.minutes) throw new Error('--warmup + --window exceed --minutes');
  return opts;
}

// ---- requests ------------------------------------------------------------------------------

/** Per kind of request: latencies of the expected answers, and everything else counted by status. */
const stats = {};
const errorSamples = [];

function record(kind, ms, outcome) {
  const s = (stats[kind] ??= { latencies: [], errors: {} });
  if (outcome === 'ok') s.latencies.push(ms);
  else {
    s.errors[outcome] = (s.errors[outcome] ?? 0) + 1;
    if (errorSamples.length < 20) errorSamples.push({ kind, outcome, at: new Date().toISOString() });
  }
}

/**
 * One request, timed and recorded under `kind`. Answers the parsed body (or the bytes, with `raw`)
 * when the status is `expect`, else undefined: the caller's action stops there.
 */
async function call(kind, url, { method = 'GET', expect = 200, json, bytes, headers = {}, raw } = {}) {
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method,
      headers: {
        'user-agent': UA,
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(bytes !== undefined ? { 'content-type': 'application/octet-stream' } : {}),
        ...headers,
      },
      body: json !== undefined ? JSON.stringify(json) : bytes,
      // A hung request is an error too, not a stalled worker.
      signal: AbortSignal.timeout(30_000),
    });
    const body = raw ? Buffer.from(await res.arrayBuffer()) : await res.text();
    const ms = performance.now() - started;
    if (res.status !== expect) {
      // The error code of a JSON error answer says why; never the body itself.
      let code = '';
      try {
        code = JSON.parse(body).code ?? '';
      } catch {
        /* not JSON */
      }
      record(kind, ms, `HTTP ${res.status}${code ? ` ${code}` : ''}`);
      return undefined;
    }
    record(kind, ms, 'ok');
    if (raw) return body;
    return body ? JSON.parse(body) : {};
  } catch (error) {
    record(kind, performance.now() - started, error?.cause?.code ?? error?.name ?? String(error));
    return undefined;
  }
}

// ---- the users and what they do ------------------------------------------------------------

async function sealedNote(crypto, vaultKey, id, n) {
  const sealed = await crypto.encryptNote(vaultKey, id, {
    title: `Soak note ${n}`,
    content: `soak ${n} `.repeat(20 + (n % 40)),
    tags: ['soak', n % 2 ? 'odd' : 'even'],
  });
  return {
    title: sealed.title,
    content: sealed.content,
    tags: [...sealed.tags],
    wrappedDEK: sealed.wrappedDEK,
  };
}

/** A file sealed as the web app seals it: metadata under a fresh file key, bytes in 64 KiB chunks. */
async function sealedFile(crypto, vaultKey, n) {
  const fileId = crypto.newItemId();
  const plaintext = randomBytes(1024 + Math.floor(Math.random() * 47 * 1024));
  const meta = await crypto.encryptFileMetadata(vaultKey, fileId, {
    name: `soak-${n}.bin`,
    mimeType: 'application/octet-stream',
    tags: ['soak'],
  });
  const iv = randomBytes(12);
  const ciphertext = await crypto.encryptFileBytes(
    { fileKey: meta.fileKey, fileId, iv, chunkSize: crypto.FILE_CHUNK_SIZE },
    plaintext,
  );
  return {
    ciphertext: Buffer.from(ciphertext),
    body: {
      fileId,
      size: plaintext.length,
      encryptedSize: expectedEncryptedSize(plaintext.length, crypto.FILE_CHUNK_SIZE),
      chunkSize: crypto.FILE_CHUNK_SIZE,
      iv: crypto.bytesToHex(iv),
      wrappedKey: meta.wrappedKey,
      encryptedName: meta.encryptedName,
      encryptedMimeType: meta.encryptedMimeType,
      encryptedTags: meta.encryptedTags,
      storageType: 'local',
    },
  };
}

/** How many of its own notes and files a user keeps: beyond that the oldest is deleted for good. */
const KEEP_NOTES = 20;
const KEEP_FILES = 4;

/**
 * What a user does, with how often (weights). Each action is a few requests in the order a client
 * makes them; a failed request ends the action (it is counted, the next action goes on).
 */
function actions(opts, crypto, admin) {
  const api = (path) => `${opts.base}${path}`;
  const bearer = (user) => ({ authorization: `Bearer ${user.access}` });
  let n = 0;

  async function purgeNote(user) {
    const id = user.notes.shift();
    if (
      !(await call('note-delete', api(`/api/notes/${id}`), {
        method: 'DELETE',
        expect: 204,
        headers: bearer(user),
      }))
    )
      return;
    await call('note-purge', api(`/api/notes/${id}/permanent`), {
      method: 'DELETE',
      expect: 204,
      headers: bearer(user),
    });
  }

  async function purgeFile(user) {
    const { id } = user.files.shift();
    if (
      !(await call('file-delete', api(`/api/files/${id}`), {
        method: 'DELETE',
        expect: 204,
        headers: bearer(user),
      }))
    )
      return;
    await call('file-purge', api(`/api/files/${id}/permanent`), {
      method: 'DELETE',
      expect: 204,
      headers: bearer(user),
    });
  }

  return [
    { weight: 20, run: (user) => call('me', api('/api/auth/me'), { headers: bearer(user) }) },
    { weight: 12, run: (user) => call('notes-list', api('/api/notes'), { headers: bearer(user) }) },
    { weight: 5, run: (user) => call('files-list', api('/api/files'), { headers: bearer(user) }) },
    {
      weight: 10,
      async run(user) {
        const id = crypto.newItemId();
        const note = await sealedNote(crypto, user.vaultKey, id, (n += 1));
        const made = await call('note-create', api('/api/notes'), {
          method: 'POST',
          expect: 201,
          json: { id, ...note },
          headers: bearer(user),
        });
        if (!made) return;
        user.notes.push(id);
        if (user.notes.length > KEEP_NOTES) await purgeNote(user);
      },
    },
    {
      weight: 10,
      async run(user) {
        if (user.notes.length === 0) return;
        const id = user.notes[Math.floor(Math.random() * user.notes.length)];
        const note = await sealedNote(crypto, user.vaultKey, id, (n += 1));
        await call('note-update', api(`/api/notes/${id}`), {
          method: 'PUT',
          json: note,
          headers: bearer(user),
        });
      },
    },
    {
      weight: 6,
      async run(user) {
        const sealed = await sealedFile(crypto, user.vaultKey, (n += 1));
        const started = await call('upload-url', api('/api/files/upload-url'), {
          method: 'POST',
          expect: 201,
          json: sealed.body,
          headers: bearer(user),
        });
        if (!started) return;
        const put = await call('blob-put', new URL(started.uploadUrl, opts.base).toString(), {
          method: 'PUT',
          expect: 204,
          bytes: sealed.ciphertext,
        });
        if (!put) return;
        const done = await call('upload-complete', api('/api/files/upload-complete'), {
          method: 'POST',
          json: { fileId: sealed.body.fileId },
          headers: bearer(user),
        });
        if (!done) return;
        user.files.push({ id: sealed.body.fileId, ciphertext: sealed.ciphertext });
        if (user.files.length > KEEP_FILES) await purgeFile(user);
      },
    },
    {
      weight: 4,
      async run(user) {
        if (user.files.length === 0) return;
        const file = user.files[Math.floor(Math.random() * user.files.length)];
        const link = await call('download-url', api(`/api/files/${file.id}/download-url`), {
          method: 'POST',
          json: { authKey: user.authKey },
          headers: bearer(user),
        });
        if (!link) return;
        const got = await call('blob-get', new URL(link.downloadUrl, opts.base).toString(), { raw: true });
        // The bytes that went up must come back, every one.
        if (got && !got.equals(file.ciphertext)) record('blob-get', 0, 'bytes differ');
      },
    },
    {
      weight: 3,
      run: () => call('admin-stats', api('/api/admin/stats'), { headers: { cookie: admin } }),
    },
    {
      weight: 2,
      async run(user) {
        // As the app signs in: prelogin, login; then the previous session ends (nothing else of
        // this user is in flight: each user's actions run one after another).
        if (
          !(await call('prelogin', api('/api/auth/prelogin'), {
            method: 'POST',
            json: { identifier: user.username },
          }))
        )
          return;
        const login = await call('signin', api('/api/auth/login'), {
          method: 'POST',
          json: { identifier: user.username, authKey: user.authKey },
        });
        if (!login?.access) return;
        const old = user.access;
        user.access = login.access;
        await call('logout', api('/api/auth/logout'), {
          method: 'POST',
          expect: 204,
          headers: { authorization: `Bearer ${old}` },
        });
      },
    },
  ];
}

function picker(list) {
  const total = list.reduce((s, a) => s + a.weight, 0);
  return () => {
    let r = Math.random() * total;
    for (const a of list) if ((r -= a.weight) < 0) return a;
    return list.at(-1);
  };
}

async function makeUsers(opts, crypto) {
  const users = [];
  // A few at a time: each sign-up runs the real KDF here and the server's hash there.
  for (let i = 0; i < opts.users; i += 4) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(4, opts.users - i) }, () => signUpThroughApi(opts.base, UA)),
    );
    users.push(...batch.map((a) => ({ ...a, notes: [], files: [] })));
  }
  // A list worth reading: notes that stay for the whole run.
  for (const user of users) {
    const notes = await Promise.all(
      Array.from({ length: opts.seedNotes }, async (_, k) => {
        const id = crypto.newItemId();
        return { id, ...(await sealedNote(crypto, user.vaultKey, id, k)) };
      }),
    );
    const res = await fetch(`${opts.base}/api/notes/batch`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${user.access}`,
        'user-agent': UA,
      },
      body: JSON.stringify({ notes }),
    });
    if (res.status !== 201) throw new Error(`seed notes: HTTP ${res.status}`);
  }
  return users;
}

// ---- memory ---------------------------------------------------------------------------------

/** RSS (bytes) of `pid` and its start time (clock ticks since boot: tells a reused pid apart). */
function procMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; starttime is field 22 (the 20th of those).
    const startTime = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const kB = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
    // RSS is anonymous memory (what the process allocated: heaps, arenas) plus file-backed pages
    // (the node binary and libraries as their code is first touched; the kernel may drop them).
    return { rss: kB('VmRSS'), rssAnon: kB('RssAnon'), rssFile: kB('RssFile'), startTime };
  } catch {
    return undefined;
  }
}

/** The V8 heap in use and the process start time, from a service's Prometheus /metrics. */
async function scrapeMetrics(url) {
  try {
    const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) });
    const text = await res.text();
    const value = (name, labels = '(?:\\{[^}]*\\})?') =>
      Number(new RegExp(`^${name}${labels}\\s+(\\S+)`, 'm').exec(text)?.[1]);
    return {
      heapUsed: value('nodejs_heap_size_used_bytes'),
      // What V8 has committed (used or not), and of it the young generation, which V8 grows under
      // allocation pressure (up to its semi-space limit) and keeps.
      heapTotal: value('nodejs_heap_size_total_bytes'),
      newSpace: value('nodejs_heap_space_size_total_bytes', '\\{[^}]*space="new"[^}]*\\}'),
      // Buffers and other memory held outside the V8 heap: where RSS grows when the heap does not.
      external: value('nodejs_external_memory_bytes'),
      startedAt: value('process_start_time_seconds'),
    };
  } catch {
    return undefined;
  }
}

/** RSS less the V8 heap committed but empty (the rule's measure); RSS alone without the heap's figures. */
function keptOf(rss, metrics) {
  const spare = (metrics?.heapTotal ?? NaN) - (metrics?.heapUsed ?? NaN);
  return Number.isFinite(spare) ? rss - Math.max(0, spare) : rss;
}

function memorySampler(opts, t0) {
  const services = Object.fromEntries(
    Object.entries(opts.pids).map(([name, pid]) => [
      name,
      { pid, startTime: procMemory(pid)?.startTime, startedAt: undefined, restarted: false, samples: [] },
    ]),
  );
  for (const [name, s] of Object.entries(services))
    if (!s.startTime) throw new Error(`${name}: no process ${s.pid}`);

  async function sampleOnce() {
    const t = (performance.now() - t0) / 1000;
    await Promise.all(
      Object.entries(services).map(async ([name, s]) => {
        const proc = procMemory(s.pid);
        const metrics = opts.metrics[name] ? await scrapeMetrics(opts.metrics[name]) : undefined;
        // A restart is a crash the runner hid: the pid is gone, or its /metrics started again.
        if (!proc || proc.startTime !== s.startTime) s.restarted = true;
        if (metrics?.startedAt) {
          s.startedAt ??= metrics.startedAt;
          if (metrics.startedAt !== s.startedAt) s.restarted = true;
        }
        if (proc && !s.restarted)
          s.samples.push({
            t: round(t, 1),
            rss: proc.rss,
            kept: keptOf(proc.rss, metrics),
            rssAnon: proc.rssAnon,
            rssFile: proc.rssFile,
            heapUsed: metrics?.heapUsed ?? null,
            heapTotal: metrics?.heapTotal ?? null,
            newSpace: metrics?.newSpace ?? null,
            external: metrics?.external ?? null,
          });
      }),
    );
  }
  return { services, sampleOnce };
}

/**
 * Memory over the run after the warm-up. The rule: the floors (the lowest sample of each minute,
 * what the process keeps after its collections; a leak raises them), their least-squares line
 * across every minute, and its rise from the first minute to the last as a share of where it
 * starts. One line through eight floors is not moved by one minute that happened to catch a
 * collection late, as a comparison of two windows was (a service swings by a third between
 * samples). Also the medians of the first and last window, reported only.
 */
function growthOf(samples, key, opts) {
  const from = opts.warmup * 60;
  const values = (a, b) => samples.filter((s) => s.t >= a && s.t < b).map((s) => s[key]);
  const finite = (v) => v.filter(Number.isFinite);
  const early = finite(values(from, from + opts.window * 60));
  const late = finite(values((opts.minutes - opts.window) * 60, Infinity));
  const floors = [];
  for (let t = from; t + 60 <= opts.minutes * 60 + 1; t += 60) {
    const minute = finite(values(t, t + 60));
    if (minute.length > 0) floors.push([t + 30, Math.min(...minute)]);
  }
  return {
    early: median(early),
    late: median(late),
    growth: median(late) / median(early) - 1,
    floors: floors.map(([, y]) => y),
    floorTrend: trendOf(floors),
    samples: [early.length, late.length],
  };
}

/** The rise of the least-squares line through `points` ([x, y]) from the first x to the last, over its start. */
function trendOf(points) {
  if (points.length < 2) return NaN;
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const slope =
    points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) /
    points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  const [first] = points[0];
  const [last] = points[n - 1];
  const start = my + slope * (first - mx);
  return (slope * (last - first)) / start;
}

// ---- the run --------------------------------------------------------------------------------

const quantile = (sorted, q) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const crypto = await loadVaultCrypto();
  console.log(
    `soak: ${opts.users} users, ${opts.minutes} min (warm-up ${opts.warmup} min), sampling every ${opts.sample} s`,
  );
  const users = await makeUsers(opts, crypto);
  const admin = await adminSession(opts.base, opts.databaseUrl);
  const pick = picker(actions(opts, crypto, admin));

  const t0 = performance.now();
  const until = t0 + opts.minutes * 60_000;
  const sampler = memorySampler(opts, t0);
  await sampler.sampleOnce();
  let sampling = false;
  const timer = setInterval(async () => {
    // A slow scrape on a busy machine must not pile samples up.
    if (sampling) return;
    sampling = true;
    await sampler.sampleOnce();
    sampling = false;
  }, opts.sample * 1000);
  let minute = 0;
  const progress = setInterval(() => {
    minute += 1;
    const done = Object.values(stats).reduce((s, k) => s + k.latencies.length, 0);
    const failed = Object.values(stats).reduce(
      (s, k) => s + Object.values(k.errors).reduce((a, b) => a + b, 0),
      0,
    );
    const rss = Object.entries(sampler.services)
      .map(([name, s]) => `${name} ${round((s.samples.at(-1)?.rss ?? NaN) / MiB)}`)
      .join(', ');
    console.log(`soak: minute ${minute}: ${done} answers, ${failed} errors; RSS MiB: ${rss}`);
  }, 60_000);

  async function worker(user) {
    while (performance.now() < until) {
      await pick().run(user);
      if (opts.think) await sleep(Math.random() * 2 * opts.think);
    }
  }
  await Promise.all(users.map(worker));
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(progress);
  clearInterval(timer);
  while (sampling) await sleep(50);
  await sampler.sampleOnce();

  // Requests by kind.
  const requests = Object.fromEntries(
    Object.entries(stats)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, s]) => {
        const sorted = s.latencies.toSorted((a, b) => a - b);
        const errors = Object.values(s.errors).reduce((a, b) => a + b, 0);
        return [
          kind,
          {
            ok: sorted.length,
            errors,
            p50: round(quantile(sorted, 0.5)),
            p99: round(quantile(sorted, 0.99)),
            kinds: s.errors,
          },
        ];
      }),
  );
  const errors = Object.values(requests).reduce((n, r) => n + r.errors, 0);
  const answered = Object.values(requests).reduce((n, r) => n + r.ok, 0);
  console.log('');
  printTable(
    ['request', 'ok', 'errors', 'p50 ms', 'p99 ms'],
    Object.entries(requests).map(([kind, r]) => [kind, r.ok, r.errors, r.p50, r.p99]),
  );
  console.log(
    `${answered} answers in ${round(seconds)} s (${round(answered / seconds)} per second), ${errors} errors`,
  );

  // Memory by service.
  const memory = Object.fromEntries(
    Object.entries(sampler.services).map(([name, s]) => {
      const rss = growthOf(s.samples, 'rss', opts);
      const kept = growthOf(s.samples, 'kept', opts);
      const heap = growthOf(s.samples, 'heapUsed', opts);
      const external = growthOf(s.samples, 'external', opts);
      // Where RSS went, each as the floors of every minute (reported, not judged).
      const parts = Object.fromEntries(
        ['rssAnon', 'rssFile', 'heapTotal', 'newSpace'].map((key) => {
          const g = growthOf(s.samples, key, opts);
          return [
            key,
            {
              floorsMiB: g.floors.map((v) => round(v / MiB)),
              floorTrendPercent: round(g.floorTrend * 100, 2),
            },
          ];
        }),
      );
      const pass = !s.restarted && Number.isFinite(kept.floorTrend) && kept.floorTrend * 100 < opts.maxGrowth;
      return [
        name,
        {
          pid: s.pid,
          restarted: s.restarted,
          rssAfterWarmupMiB: round(rss.early / MiB),
          rssAtEndMiB: round(rss.late / MiB),
          rssGrowthPercent: round(rss.growth * 100, 2),
          heapAfterWarmupMiB: round(heap.early / MiB),
          heapAtEndMiB: round(heap.late / MiB),
          heapGrowthPercent: round(heap.growth * 100, 2),
          externalAfterWarmupMiB: round(external.early / MiB),
          externalAtEndMiB: round(external.late / MiB),
          keptFloorsMiB: kept.floors.map((v) => round(v / MiB)),
          keptFloorTrendPercent: round(kept.floorTrend * 100, 2),
          rssFloorsMiB: rss.floors.map((v) => round(v / MiB)),
          rssFloorTrendPercent: round(rss.floorTrend * 100, 2),
          heapFloorTrendPercent: round(heap.floorTrend * 100, 2),
          heapFloorsMiB: heap.floors.map((v) => round(v / MiB)),
          parts,
          windowSamples: rss.samples,
          pass,
          samples: s.samples,
        },
      ];
    }),
  );
  console.log('');
  printTable(
    [
      'service',
      'kept each minute after warm-up (RSS less V8 spare), MiB',
      'trend % (the rule)',
      'RSS floors, MiB',
      'RSS trend %',
      'RSS median → MiB',
      'median %',
      'heap kept each minute, MiB',
      'heap trend %',
      'pass',
    ],
    Object.entries(memory).map(([name, m]) => [
      name,
      m.keptFloorsMiB.map((v) => Math.round(v)).join(' '),
      m.keptFloorTrendPercent ?? '',
      m.rssFloorsMiB.map((v) => Math.round(v)).join(' '),
      m.rssFloorTrendPercent ?? '',
      `${m.rssAfterWarmupMiB} → ${m.rssAtEndMiB}`,
      m.rssGrowthPercent ?? '',
      m.heapFloorsMiB.map((v) => Math.round(v)).join(' '),
      m.heapFloorTrendPercent ?? '',
      m.restarted ? 'RESTARTED' : m.pass ? 'yes' : 'NO',
    ]),
  );
  console.log('');
  const floors = (part) =>
    `${part.floorsMiB.map((v) => Math.round(v)).join(' ')} (${part.floorTrendPercent ?? ''} %)`;
  printTable(
    [
      'service',
      'anonymous RSS kept, MiB (trend)',
      'file-backed RSS kept',
      'V8 heap committed',
      'of it young generation',
    ],
    Object.entries(memory).map(([name, m]) => [
      name,
      floors(m.parts.rssAnon),
      floors(m.parts.rssFile),
      floors(m.parts.heapTotal),
      floors(m.parts.newSpace),
    ]),
  );
  const pass = errors === 0 && Object.values(memory).every((m) => m.pass);
  const result = {
    opts: { ...opts, databaseUrl: undefined },
    seconds: round(seconds),
    answered,
    errors,
    errorSamples,
    requests,
    memory,
    pass,
  };
  // Every sample goes to the file; the line printed leaves them out (thousands of numbers).
  if (opts.json) writeFileSync(opts.json, `${JSON.stringify(result, null, 2)}\n`);
  const memoryWithoutSamples = Object.fromEntries(
    Object.entries(memory).map(([name, { samples: _samples, ...rest }]) => [name, rest]),
  );
  emitResult({ ...result, memory: memoryWithoutSamples });
  if (!pass) {
    console.error(
      `soak failed: ${errors} errors; memory: ${
        Object.entries(memory)
          .filter(([, m]) => !m.pass)
          .map(([name, m]) => `${name} ${m.restarted ? 'restarted' : `${m.keptFloorTrendPercent} %`}`)
          .join(', ') || 'flat'
      }`,
    );
    process.exit(1);
  }
}

main().catch((e) => {
  console.error(e?.stack ?? e);
  process.exit(1);
});
