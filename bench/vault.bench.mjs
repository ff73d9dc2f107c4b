#!/usr/bin/env node
/* global window, document, Worker, URLSearchParams, PerformanceObserver, MutationObserver, requestAnimationFrame */
// Web vault benchmark (issue 3): in headless Chromium, the time from the click on "Unlock" to the first
// note card in the DOM and to the full list ("Notes (N)" with N the vault's size), for vaults of 1,000 and
// 10,000 notes, beside a baseline measured in the same page of the same run: the bare KDF (the app's own
// crypto worker, `unlockVault` with the account's DEFAULT_KDF_PARAMS, in a fresh worker) plus fetching the
// same notes JSON (`GET /api/notes?limit=500` following `nextCursor`). Only ratios are comparable between
// runs (these machines are noisy).
//
//   node bench/vault.bench.mjs --base http://127.0.0.1:8080 [--sizes 1000,10000] [--runs 3] [--warmup 1]
//     [--concurrency 16] [--web-root apps/web/dist] [--chromium /usr/bin/chromium] [--json out.json]
//     [--profile prefix]   (a main-thread CPU profile of each size's last run: <prefix>-<size>.cpuprofile)
//     [--threads 1]        (each run's core-seconds by thread on the machine, bench/lib/threads.mjs)
//     [--trace prefix]     (a Chromium trace of each size's last run, every thread: <prefix>-<size>.json)
//
// The stack must be up, serve the built web app (WEB_ROOT) and have its API rate limit raised (the harness,
// scripts/bench.mjs, passes a high RATE_LIMIT_API_PER_MINUTE). The vault is seeded through the API with the
// real client crypto (@vault/crypto, built in libs/crypto/dist): sign-up with DEFAULT_KDF_PARAMS (so the
// unlock measures the real KDF), notes sealed in Node with `encryptNote` and posted `--concurrency` at a
// time. One account serves both sizes: it is topped up from 1,000 to 10,000 between them.
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_PATH, launchChromium } from '../scripts/lib/chromium.mjs';
import { loadVaultCrypto, signInThroughUi, signUpThroughApi } from './lib/app.mjs';
import { emitResult, median, printTable, round, runMain } from './lib/output.mjs';
import { parseFlags } from './lib/flags.mjs';
import { threadDelta, threadTicks } from './lib/threads.mjs';

// The BUILT lib (libs/crypto/dist), as bench/crypto.bench.mjs times it.
const { DEFAULT_KDF_PARAMS, encryptNote, newItemId } = await loadVaultCrypto();

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The API's largest page (the baseline fetches with it). */
const PAGE_LIMIT = 500;

/** What --trace records: the page's and workers' tasks, V8 and the renderer's work by name. */
const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
  'v8',
  'blink',
  'toplevel',
];

function parseArgs(argv) {
  const opts = {
    base: 'http://127.0.0.1:8080',
    sizes: [1000, 10000],
    runs: 3,
    warmup: 1,
    concurrency: 16,
    webRoot: process.env.WEB_ROOT ?? join(ROOT, 'apps', 'web', 'dist'),
    chromium: CHROMIUM_PATH,
    json: undefined,
    profile: undefined,
    threads: false,
    trace: undefined,
  };
  const sizes = (v) => v.split(',').map((x) => Number(x.trim()));
  const names = {
    '--base': ['base', String],
    '--sizes': ['sizes', sizes],
    '--runs': ['runs', Number],
    '--warmup': ['warmup', Number],
    '--concurrency': ['concurrency', Number],
    '--web-root': ['webRoot', String],
    '--chromium': ['chromium', String],
    '--json': ['json', String],
    '--profile': ['profile', String],
    '--threads': ['threads', (v) => v === 'true' || v === '1'],
    '--trace': ['trace', String],
  };
  parseFlags(argv, opts, names);
  const bad = (n) => !Number.isInteger(n) || n < 0;
  if (opts.sizes.some((n) => bad(n) || n < 1)) throw new Error('--sizes: positive integers');
  if (bad(opts.runs) || opts.runs < 1 || bad(opts.warmup) || bad(opts.concurrency) || opts.concurrency < 1)
    throw new Error('--runs and --concurrency must be at least 1, --warmup at least 0');
  opts.sizes = [...opts.sizes].sort((a, b) => a - b);
  return opts;
}

async function api(base, method, path, body, token) {
  const headers = { 'user-agent': 'vault-bench/vault' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers['authorization'] = `Bearer ${token}`;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, body: json, text };
}

function expectStatus(res, status, what) {
  if (res.status !== status) throw new Error(`${what}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
  return res.body;
}

const WORDS =
  'alpha bravo cedar delta ember fjord garnet harbor island juniper kestrel lantern meadow nectar orchid pebble quartz river saffron timber umber violet willow xenon yarrow zephyr'.split(
    ' ',
  );
const TAGS = ['work', 'home', 'ideas', 'travel', 'recipes', 'books', 'health', 'finance', 'music', 'todo'];

function plaintext(n) {
  const w = (k) => WORDS[(n * 7 + k * 13) % WORDS.length];
  const sentence = (k) => `${w(k)} ${w(k + 1)} ${w(k + 2)} ${w(k + 3)} ${w(k + 4)} ${w(k + 5)}.`;
  return {
    title: `Note ${n}: ${w(0)} ${w(1)}`,
    // ~400 characters, a typical short note.
    content: Array.from({ length: 9 }, (_, k) => sentence(k)).join(' '),
    tags: [TAGS[n % TAGS.length], TAGS[(n * 3 + 1) % TAGS.length]].filter((t, i, a) => a.indexOf(t) === i),
  };
}

/** Seals notes `from`..`to-1` in Node and posts them `concurrency` at a time; returns the seconds taken. */
async function seed(base, account, from, to, concurrency) {
  const t0 = performance.now();
  let next = from;
  async function worker() {
    while (next < to) {
      const n = next++;
      const sealed = await encryptNote(account.vaultKey, newItemId(), plaintext(n));
      const body = {
        id: sealed.id,
        title: sealed.title,
        content: sealed.content,
        tags: [...sealed.tags],
        wrappedDEK: sealed.wrappedDEK,
      };
      let res = await api(base, 'POST', '/api/notes', body, account.access);
      if (res.status === 401) throw new Error('seed: the access token expired before seeding ended');
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, 200));
        res = await api(base, 'POST', '/api/notes', body, account.access);
      }
      expectStatus(res, 201, `create note ${n}`);
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - t0) / 1000;
}

function cryptoWorkerUrl(webRoot) {
  const assets = join(webRoot, 'assets');
  const file = readdirSync(assets).find((f) => /^crypto\.worker-.*\.js$/.test(f));
  if (!file) throw new Error(`no crypto.worker-*.js in ${assets} (build the web app first)`);
  return `/assets/${file}`;
}

/**
 * In the page (on the unlock screen, the app idle): the app's crypto worker, fresh, runs `unlockVault`
 * (Argon2id with the account's parameters + unwrapping the vault key), then every note is fetched as JSON.
 */
async function baseline(page, { token, workerUrl, password, limit }) {
  return page.evaluate(
    async ({ token, workerUrl, password, limit }) => {
      const headers = { authorization: token };
      const t0 = performance.now();
      const me = await (await fetch('/api/auth/me', { headers })).json();
      const t1 = performance.now();
      const worker = new Worker(workerUrl, { type: 'module', name: 'bench-kdf' });
      const answer = await new Promise((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message || 'worker error'));
        // A call as the app's own page makes it (apps/web/src/workers/worker-rpc.ts).
        worker.postMessage({ id: 1, method: 'unlockVault', args: [password, me.vault] });
      });
      const t2 = performance.now();
      worker.terminate();
      if (!answer.ok) throw new Error(`baseline unlockVault: ${answer.error.message}`);
      let cursor = null;
      let count = 0;
      let bytes = 0;
      let pages = 0;
      do {
        const q = new URLSearchParams({ limit: String(limit) });
        if (cursor) q.set('cursor', cursor);
        const res = await fetch(`/api/notes?${q}`, { headers });
        const text = await res.text();
        if (!res.ok) throw new Error(`baseline fetch: HTTP ${res.status}`);
        bytes += text.length;
        const page = JSON.parse(text);
        count += page.notes.length;
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor);
      const t3 = performance.now();
      return { meMs: t1 - t0, kdfMs: t2 - t1, fetchMs: t3 - t2, count, bytes, pages };
    },
    { token, workerUrl, password, limit },
  );
}

/** Arms the observers, clicks Unlock, and waits until 'Notes (N)' shows N. Times are from the click. */
async function unlockRun(page, { password, size }) {
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.evaluate((size) => {
    const b = { t0: null, firstCard: null, full: null, longTasks: [] };
    window.__vaultBench = b;
    try {
      const po = new PerformanceObserver((list) => {
        for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration });
      });
      po.observe({ type: 'longtask' });
      b.po = po;
    } catch {
      /* no Long Tasks API */
    }
    performance.clearMarks();
    document.addEventListener(
      'click',
      () => {
        b.t0 = performance.now();
      },
      { capture: true, once: true },
    );
    const want = `Notes (${size})`;
    const check = () => {
      if (b.t0 === null) return;
      const now = performance.now();
      if (b.firstCard === null && document.querySelector('.note-card')) b.firstCard = now;
      if (b.full === null && document.getElementById('notes-heading')?.textContent?.trim() === want) {
        b.full = now;
        b.mo.disconnect();
      }
    };
    b.mo = new MutationObserver(check);
    b.mo.observe(document.body, { childList: true, subtree: true, characterData: true });
  }, size);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.waitForFunction(() => window.__vaultBench.full !== null, null, {
    timeout: 120_000,
    polling: 50,
  });
  // Let the frame after the last mutation paint before reading.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
  return page.evaluate(() => {
    const b = window.__vaultBench;
    b.po?.disconnect();
    const markAt = (name) => {
      const m = performance.getEntriesByName(name, 'mark')[0];
      return m ? m.startTime - b.t0 : null;
    };
    const inWindow = b.longTasks.filter((t) => t.start >= b.t0 && t.start <= b.full);
    // The app's own note page requests during the run (Resource Timing): when the last one ended.
    const pages = performance
      .getEntriesByType('resource')
      .filter((e) => /\/api\/notes\?/.test(e.name) && e.startTime >= b.t0);
    const unlockMe = performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime >= b.t0 && !/\/api\/notes/.test(e.name));
    return {
      firstPageStartMs: pages.length ? pages[0].startTime - b.t0 : null,
      lastPageEndMs: pages.length ? Math.max(...pages.map((e) => e.responseEnd)) - b.t0 : null,
      pages: pages.length,
      otherRequests: unlockMe.length,
      firstCardMs: b.firstCard - b.t0,
      fullListMs: b.full - b.t0,
      firstBatchMarkMs: markAt('vault:notes-first-batch'),
      completeMarkMs: markAt('vault:notes-complete'),
      longTasks: inWindow.length,
      longTaskMs: inWindow.reduce((s, t) => s + t.duration, 0),
      longestTaskMs: inWindow.reduce((m, t) => Math.max(m, t.duration), 0),
    };
  });
}

async function measureSize(page, ctx, size, opts) {
  const samples = [];
  const total = opts.warmup + opts.runs;
  for (let i = 0; i < total; i += 1) {
    const me = page.waitForResponse((r) => r.url().endsWith('/api/auth/me') && r.status() === 200, {
      timeout: 30_000,
    });
    await page.goto(`${opts.base}/vault`);
    await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
    await me; // the unlock screen fetches /auth/me on mount; the app is idle afterwards
    if (!ctx.token) throw new Error('no access token seen in the page');
    const base = await baseline(page, {
      token: ctx.token,
      workerUrl: ctx.workerUrl,
      password: ctx.password,
      limit: PAGE_LIMIT,
    });
    if (base.count !== size) throw new Error(`baseline fetched ${base.count} notes, expected ${size}`);
    const last = i === total - 1;
    const profiler = opts.profile && last ? await page.context().newCDPSession(page) : null;
    if (profiler) {
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
      await profiler.send('Profiler.start');
    }
    const tracer = opts.trace && last ? page.context().browser() : null;
    if (tracer)
      await tracer.startTracing(page, { path: `${opts.trace}-${size}.json`, categories: TRACE_CATEGORIES });
    const ticks = opts.threads ? threadTicks() : null;
    const run = await unlockRun(page, { password: ctx.password, size });
    const threads = ticks ? threadDelta(ticks, threadTicks()) : null;
    if (tracer) {
      await tracer.stopTracing();
      console.log(`Chromium trace of the last run: ${opts.trace}-${size}.json`);
    }
    if (profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      const file = `${opts.profile}-${size}.cpuprofile`;
      writeFileSync(file, JSON.stringify(profile));
      console.log(`main-thread CPU profile of the last run: ${file}`);
      await profiler.detach();
    }
    const sample = {
      ...run,
      kdfMs: base.kdfMs,
      fetchMs: base.fetchMs,
      baselineMs: base.kdfMs + base.fetchMs,
      jsonBytes: base.bytes,
    };
    const warm = i < opts.warmup;
    console.log(
      `${String(size).padStart(6)} ${warm ? 'warmup' : `run ${i - opts.warmup + 1}/${opts.runs}`}: first card ${round(sample.firstCardMs)} ms, full list ${round(sample.fullListMs)} ms | KDF ${round(sample.kdfMs)} + fetch ${round(sample.fetchMs)} ms | app pages ${sample.pages}: first sent ${round(sample.firstPageStartMs)}, last in ${round(sample.lastPageEndMs)} ms | long tasks ${sample.longTasks} (${round(sample.longTaskMs)} ms, max ${round(sample.longestTaskMs)})`,
    );
    if (threads) {
      const top = threads
        .slice(0, 14)
        .map(([k, v]) => `${k} ${v}`)
        .join('; ');
      console.log(`       threads (core-s, the click to the full list and a frame after): ${top}`);
    }
    if (!warm) samples.push(sample);
  }
  const med = (k) => median(samples.map((s) => s[k]));
  const summary = {
    notes: size,
    runs: samples.length,
    firstCardMs: round(med('firstCardMs')),
    fullListMs: round(med('fullListMs')),
    kdfMs: round(med('kdfMs')),
    fetchMs: round(med('fetchMs')),
    baselineMs: round(med('baselineMs')),
    ratioFullToBaseline: round(median(samples.map((s) => s.fullListMs / s.baselineMs)), 2),
    firstBatchMarkMs: round(med('firstBatchMarkMs')),
    firstPageStartMs: round(med('firstPageStartMs')),
    lastPageEndMs: round(med('lastPageEndMs')),
    completeMarkMs: round(med('completeMarkMs')),
    longTaskMs: round(med('longTaskMs')),
    longestTaskMs: round(med('longestTaskMs')),
    jsonBytes: samples[0]?.jsonBytes ?? null,
    samples: samples.map((s) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, round(v)]))),
  };
  return summary;
}

function printResults(rows) {
  const cols = [
    'notes',
    'first card ms',
    'full list ms',
    'KDF ms',
    'fetch ms',
    'baseline ms',
    'full/baseline',
  ];
  const lines = rows.map((r) => [
    r.notes,
    r.firstCardMs,
    r.fullListMs,
    r.kdfMs,
    r.fetchMs,
    r.baselineMs,
    r.ratioFullToBaseline,
  ]);
  printTable(cols, lines);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const workerUrl = cryptoWorkerUrl(opts.webRoot);
  const account = await signUpThroughApi(opts.base, 'vault-bench/vault');
  console.log(`account ${account.username} (KDF ${JSON.stringify(DEFAULT_KDF_PARAMS)})`);

  const browser = await launchChromium({ executablePath: opts.chromium });
  const results = [];
  const seeding = [];
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const ctx = { token: null, workerUrl, password: account.password };
    page.on('request', (r) => {
      const h = r.headers()['authorization'];
      if (h && r.url().startsWith(opts.base)) ctx.token = h;
    });
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));

    // Sign in through the UI once, so that the session (refresh cookie) exists; every run then reloads.
    await signInThroughUi(page, opts.base, account);

    let have = 0;
    for (const size of opts.sizes) {
      const seconds = await seed(opts.base, account, have, size, opts.concurrency);
      seeding.push({
        from: have,
        to: size,
        seconds: round(seconds, 2),
        notesPerSecond: round((size - have) / seconds),
      });
      console.log(
        `seeded ${have} → ${size} notes in ${round(seconds, 2)} s (${round((size - have) / seconds)} notes/s)`,
      );
      have = size;
      results.push(await measureSize(page, ctx, size, opts));
    }
    await context.close();
  } finally {
    await browser.close();
  }

  console.log('');
  printResults(results);
  const result = {
    bench: 'vault',
    goal: { notes: 10000, fullListMs: 1500 },
    baseline:
      "KDF: the app's crypto worker (fresh) running unlockVault with DEFAULT_KDF_PARAMS in the same page; fetch: GET /api/notes?limit=500 following nextCursor, parsed, in the same page",
    kdfParams: DEFAULT_KDF_PARAMS,
    runs: opts.runs,
    warmup: opts.warmup,
    seeding,
    results,
    totalSeconds: round((performance.now() - started) / 1000, 1),
  };
  emitResult(result, opts.json);
}

runMain(main);
