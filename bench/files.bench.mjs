#!/usr/bin/env node
/* global window, document, navigator, XMLHttpRequest, MutationObserver, setInterval, clearInterval */
// File Vault benchmark (issue 4): in headless Chromium, a file uploaded and downloaded through the web
// app's real UI (sign-in, /files, Upload Files with 'Local disk' storage (or --storage s3), a disk file picked with
// setInputFiles, until the row says 'Completed'; then Download, the password prompt, until the card's
// progress says 'Completed'), beside a baseline measured in the same page of the same run: the same
// number of bytes sent UNENCRYPTED to the same storage (upload-url with sealed-looking metadata, an XHR
// PUT of a picked disk file of random bytes to the signed URL, upload-complete; download-url with the
// authKey the app itself sent, a fetch of the bytes streamed into a file of the same save picker).
// Throughput ratio = encrypted / unencrypted (goal ≥ 0.6). Each side reads its file from disk and
// writes its download to disk, so the ratio is the cost of the encryption alone.
// Chromium's RSS (every process under the browser) is sampled every 50 ms: the peak above the idle
// level of each phase, for each file size (memory should stay flat as the file grows).
//
//   node bench/files.bench.mjs --base http://127.0.0.1:8080 [--sizes-mib 25,100] [--runs 5]
//     [--storage local|s3] [--chromium /usr/bin/chromium] [--json out.json] [--threads 1]
//
// --storage picks the storage both sides upload to (default local): 's3' is the stack's S3 (s3rver
// in the benchmark's stack), which the browser reaches directly with presigned URLs.
//
// --threads 1 also prints, for each phase, the core-seconds of every busy thread on the machine
// (bench/lib/threads.mjs): which of the browser's threads and which service spent them.
//
// Downloads: Chromium has the File System Access API, so the app streams the plaintext to a file the
// user picks (showSaveFilePicker). Headless Chromium cannot show the picker, so the page's picker
// answers with a file in the origin-private file system (on disk: the profile is persistent, as in
// apps/web/bench/files-upload.bench.mjs) and the app's own streaming path runs as it does for a user.
// The upload timer starts at the click on Upload (sealing the metadata, upload-url, sealing the
// content while its 16 MiB parts are PUT, and upload-complete count); the download timer starts when the app's download-url answer arrives (the password's KDF is
// not part of the transfer: the baseline derives nothing either) and stops when the file is complete.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { CHROMIUM_PATH, chromiumProcessTree, launchPersistentChromium } from '../scripts/lib/chromium.mjs';
import { signInThroughUi, signUpThroughApi } from './lib/app.mjs';
import { emitResult, median, printTable, round, runMain } from './lib/output.mjs';
import { parseFlags } from './lib/flags.mjs';
import { CLOCK_TICKS, threadDelta, threadTicks } from './lib/threads.mjs';

const MIB = 1024 * 1024;
const CHUNK = 65_536;
const MARKER = `--vault-files-bench=${process.pid}`;
/** The upload dialog's label of each storage the benchmark can pick (STORAGE_LABELS in @vault/storage). */
const STORAGE_LABELS = { local: 'Local disk', s3: 'S3 / R2 / MinIO' };

function parseArgs(argv) {
  const opts = {
    base: 'http://127.0.0.1:8080',
    sizesMib: [25, 100],
    // Medians of five: one run of either side can land on a busy moment of the machine (single
    // runs of the unencrypted upload alone span 0.39-0.79 s for 100 MiB here).
    runs: 5,
    chromium: CHROMIUM_PATH,
    json: undefined,
    threads: false,
    storage: 'local',
  };
  const sizes = (v) => v.split(',').map((x) => Number(x.trim()));
  parseFlags(argv, opts, {
    '--base': ['base', String],
    '--sizes-mib': ['sizesMib', sizes],
    '--runs': ['runs', Number],
    '--chromium': ['chromium', String],
    '--json': ['json', String],
    '--threads': ['threads', (v) => v === 'true' || v === '1'],
    '--storage': ['storage', String],
  });
  if (!(opts.storage in STORAGE_LABELS)) throw new Error('--storage: local or s3');
  if (opts.sizesMib.some((n) => !(n > 0 && n <= 100))) throw new Error('--sizes-mib: 0 < size ≤ 100');
  if (!Number.isInteger(opts.runs) || opts.runs < 1) throw new Error('--runs: at least 1');
  opts.sizesMib = [...opts.sizesMib].sort((a, b) => a - b);
  return opts;
}

const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);

// ---- RSS of the browser's process tree (as apps/web/bench/files-upload.bench.mjs samples it) ----

async function treeRssKib() {
  const tree = await chromiumProcessTree(MARKER);
  if (tree.length === 0) return null;
  const byType = {};
  for (const p of tree) byType[p.type] = (byType[p.type] ?? 0) + p.rss;
  return { total: tree.reduce((n, p) => n + p.rss, 0), byType };
}

/** Wall-clock ms with sub-ms precision; the page's performance.timeOrigin + now() is on the same clock. */
const epochNow = () => performance.timeOrigin + performance.now();

/** Busy core-seconds of the whole machine so far (/proc/stat: everything but idle and iowait). */
function machineCpu() {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - cpu[3] - cpu[4]) / CLOCK_TICKS;
}

class Sampler {
  phase = 'idle';
  /** Also take CPU by thread over each phase (--threads). */
  threads = false;
  samples = [];
  /** [epoch ms, busy core-seconds so far], every 20 ms: the CPU of a window timed in the page. */
  cpuTicks = [];
  cpuTimer = setInterval(() => this.cpuTicks.push([epochNow(), machineCpu()]), 20);

  cpuAt(epoch) {
    const t = this.cpuTicks;
    let i = t.findIndex(([at]) => at >= epoch);
    if (i <= 0) i = i === 0 ? 1 : t.length - 1;
    const [a, ca] = t[i - 1];
    const [b, cb] = t[i];
    return b === a ? cb : ca + ((cb - ca) * (epoch - a)) / (b - a);
  }

  cpuBetween(fromEpoch, toEpoch) {
    if (!Number.isFinite(fromEpoch) || !Number.isFinite(toEpoch) || this.cpuTicks.length < 2) return {};
    const cpu = this.cpuAt(toEpoch) - this.cpuAt(fromEpoch);
    return { cpuSeconds: round(cpu, 2), coresBusy: round(cpu / ((toEpoch - fromEpoch) / 1000), 2) };
  }
  busy = false;
  timer = setInterval(async () => {
    if (this.busy) return;
    this.busy = true;
    try {
      const rss = await treeRssKib();
      if (rss !== null) this.samples.push({ phase: this.phase, kib: rss.total, byType: rss.byType });
    } finally {
      this.busy = false;
    }
  }, 50);

  /** Idle level: the lowest RSS over `ms` before a phase. */
  async idle(ms = 1000) {
    this.phase = 'idle';
    const from = this.samples.length;
    await new Promise((r) => setTimeout(r, ms));
    const idle = this.samples.slice(from);
    if (idle.length === 0) return { kib: NaN, byType: {} };
    return idle.reduce((low, s) => (s.kib < low.kib ? s : low));
  }

  async during(phase, fn) {
    const idle = await this.idle();
    const idleKib = idle.kib;
    this.phase = phase;
    const from = this.samples.length;
    // The UI phases take their snapshots around the timed window themselves (probe); the
    // others are timed inside one page.evaluate, so the whole call is close enough.
    const probe = this.threads ? { before: threadTicks(), after: null } : null;
    const value = await fn(probe);
    const threads = probe ? threadDelta(probe.before, probe.after ?? threadTicks()) : undefined;
    this.phase = 'idle';
    const samples = this.samples.slice(from);
    const peak = Math.max(...samples.map((s) => s.kib), idleKib);
    // Where the peak sits: each process type's own peak above its idle level (browser, renderer, ...).
    const byType = {};
    for (const s of samples) {
      for (const [type, kib] of Object.entries(s.byType)) {
        const above = round((kib - (idle.byType[type] ?? 0)) / 1024);
        if (!(type in byType) || above > byType[type]) byType[type] = above;
      }
    }
    return {
      value,
      // Core-seconds the whole machine spent in the timed window (browser, services, this script).
      ...this.cpuBetween(value.fromEpoch, value.toEpoch),
      peakAboveIdleMib: round((peak - idleKib) / 1024),
      idleMib: round(idleKib / 1024),
      byTypeMib: byType,
      threads,
    };
  }

  stop() {
    clearInterval(this.timer);
    clearInterval(this.cpuTimer);
  }
}

// ---- The app's UI ----

/**
 * --threads also logs each upload's requests (from the page and its workers) as ms after the
 * click on Upload: when each was sent and when its answer ended.
 */
const timeline = { on: false, events: [], failed: [] };
function watchRequests(page) {
  const keep = (r) =>
    /\/api\/(files\/(upload-url|upload-complete|blob\/)|auth\/settings)/.test(r.url()) ||
    (r.method() === 'PUT' && /[?&]X-Amz-Signature=/.test(r.url()));
  const name = (r) => {
    const u = new URL(r.url());
    const range = r.headers()['content-range'];
    const part = u.searchParams.get('partNumber');
    const path = u.pathname.startsWith('/api/')
      ? u.pathname.replace(/\/api\/files\/blob\/.*/, '/blob')
      : `s3${part ? ` part ${part}` : ''}`;
    return `${r.method()} ${path}${range ? ` ${range}` : ''}`;
  };
  page.on('request', (r) => timeline.on && keep(r) && timeline.events.push([epochNow(), `${name(r)} sent`]));
  page.on(
    'requestfinished',
    (r) => timeline.on && keep(r) && timeline.events.push([epochNow(), `${name(r)} done`]),
  );
  // Always kept: why a transfer failed, when one does (the URL without its query: signatures stay out).
  page.on('requestfailed', (r) => {
    if (keep(r)) timeline.failed.push(`${name(r)}: ${r.failure()?.errorText ?? 'failed'}`);
  });
}

/**
 * Waits until the transfer the page watches (window.__filesBench) is done or has failed, then takes
 * the probe's closing snapshot of the threads (--threads).
 */
async function uiTransferEnded(page, probe) {
  await page.waitForFunction(
    () => window.__filesBench.done !== null || window.__filesBench.error !== null,
    null,
    { timeout: 180_000, polling: 100 },
  );
  if (probe) probe.after = threadTicks();
}

/** Upload Files → the storage ('Local disk') → the file → Upload; ms from the click on Upload to the row's 'Completed'. */
async function uiUpload(page, path, storage, probe) {
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByRole('radio', { name: STORAGE_LABELS[storage] }).check();
  await dialog.locator('input[type=file]').setInputFiles(path);
  await dialog.locator('.upload-row--queued').waitFor();
  await page.evaluate(() => {
    const b = { t0: null, sending: null, done: null, error: null };
    window.__filesBench = b;
    document.addEventListener('click', () => (b.t0 = performance.now()), { capture: true, once: true });
    b.mo = new MutationObserver(() => {
      if (b.t0 === null) return;
      if (b.sending === null && document.querySelector('.upload-row--uploading'))
        b.sending = performance.now();
      if (document.querySelector('.upload-row--completed')) b.done = performance.now();
      else if (document.querySelector('.upload-row--error'))
        b.error = document.querySelector('.upload-row--error').textContent;
      if (b.done !== null || b.error !== null) b.mo.disconnect();
    });
    b.mo.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  });
  timeline.events = [];
  if (probe) probe.before = threadTicks();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await uiTransferEnded(page, probe);
  const r = await page.evaluate(() => ({ ...window.__filesBench, mo: null, origin: performance.timeOrigin }));
  if (r.error) {
    throw new Error(
      `upload failed in the app: ${r.error}; failed requests: ${timeline.failed.join('; ') || 'none'}`,
    );
  }
  timeline.failed = [];
  if (timeline.on) {
    const t0 = r.origin + r.t0;
    const line = timeline.events.map(([at, what]) => `${Math.round(at - t0)} ${what}`).join('; ');
    console.log(
      `       requests after the click (ms): ${line}; row 'Completed' ${Math.round(r.done - r.t0)}`,
    );
    timeline.events = [];
  }
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await dialog.waitFor({ state: 'detached' }).catch(() => undefined);
  // The split: until the row says 'uploading' (sealing into staging), then the PUT and upload-complete.
  return {
    ms: r.done - r.t0,
    sealMs: r.sending === null ? NaN : r.sending - r.t0,
    fromEpoch: r.origin + r.t0,
    toEpoch: r.origin + r.done,
  };
}

/**
 * Download → password → Download; ms from the download-url answer to the card's 'Completed'. The
 * page's save picker (see the header) writes to an OPFS file; its size is checked afterwards.
 */
async function uiDownload(page, name, password, expectSize, probe) {
  await page.evaluate(() => {
    const b = { decrypting: null, done: null, error: null };
    window.__filesBench = b;
    b.mo = new MutationObserver(() => {
      if (b.decrypting === null && document.querySelector('.transfer-progress--decrypting'))
        b.decrypting = performance.now();
      if (document.querySelector('.transfer-progress--completed')) b.done = performance.now();
      else if (document.querySelector('.transfer-progress--error'))
        b.error = document.querySelector('.transfer-progress--error').textContent;
      if (b.done !== null || b.error !== null) b.mo.disconnect();
    });
    b.mo.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
  });
  await page.getByRole('button', { name: `Download ${name}` }).click();
  const prompt = page.getByRole('dialog', { name: 'Authenticate Download' });
  await prompt.getByLabel('Current Password', { exact: true }).fill(password);
  if (probe) probe.before = threadTicks();
  await prompt.getByRole('button', { name: 'Download' }).click();
  await uiTransferEnded(page, probe);
  const r = await page.evaluate(() => {
    const b = window.__filesBench;
    const answer = performance
      .getEntriesByType('resource')
      .filter((e) => /\/download-url$/.test(e.name))
      .pop();
    return {
      done: b.done,
      decrypting: b.decrypting,
      error: b.error,
      answered: answer ? answer.responseEnd : null,
      origin: performance.timeOrigin,
    };
  });
  if (r.error) throw new Error(`download failed in the app: ${r.error}`);
  const saved = await page.evaluate(async () => {
    const f = await window.__lastSaved?.getFile();
    return f ? f.size : -1;
  });
  if (saved !== expectSize) throw new Error(`the saved file has ${saved} bytes, expected ${expectSize}`);
  await page.evaluate(() => performance.clearResourceTimings());
  // The split: the last stored byte arrived ('decrypting' shows), then the rest is decrypted and saved.
  return {
    ms: r.done - r.answered,
    tailMs: r.decrypting === null ? NaN : r.done - r.decrypting,
    fromEpoch: r.origin + r.answered,
    toEpoch: r.origin + r.done,
  };
}

// ---- Baseline: the same bytes, unencrypted, to the same storage from the same page ----

const hex = (n) => randomBytes(n).toString('hex');

function baselineMetadata(size, storageType) {
  return {
    fileId: randomUUID(),
    size,
    encryptedSize: size + 16 * Math.max(1, Math.ceil(size / CHUNK)),
    chunkSize: CHUNK,
    iv: hex(12),
    storageType,
  };
}

/**
 * Waits until every file of the account has been scanned. Each upload queues a ClamAV scan that
 * reads the whole object in the background; left running, it would take the cores from whichever
 * phase comes next (the download, or the other side's upload), encrypted or not.
 */
async function scansSettled(page, token) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const pending = await page.evaluate(async (token) => {
      const res = await fetch('/api/files', { headers: { authorization: token } });
      if (!res.ok) throw new Error(`list: HTTP ${res.status}`);
      const { files } = await res.json();
      return files.filter((f) => !f.virusScanned).length;
    }, token);
    if (pending === 0) return;
    if (Date.now() > deadline) throw new Error(`${pending} file(s) still waiting for their scan`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The baseline's body: a disk file of random bytes, as long as the encrypted object, picked in
 * the page as the app's file is, made before its phase so that neither its time nor its CPU
 * counts making it. Sent as the File (as an unencrypted uploader would send the picked file: the
 * browser reads it from disk, as the app reads the user's file).
 */
async function makeBaselineBody(page, dir, size) {
  const { encryptedSize } = baselineMetadata(size, 'local');
  const path = join(dir, `baseline-${size}.bin`);
  writeFileSync(path, randomBytes(encryptedSize));
  await page.evaluate(() => {
    if (document.getElementById('bench-baseline-file')) return;
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-baseline-file';
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles('#bench-baseline-file', path);
  await page.evaluate(() => {
    window.__baselineBody = document.getElementById('bench-baseline-file').files[0];
  });
  return path;
}

async function baselineUpload(page, token, sealed, size, storage) {
  const meta = { ...sealed, ...baselineMetadata(size, storage) };
  return page.evaluate(
    async ({ token, meta }) => {
      const headers = { authorization: token, 'content-type': 'application/json' };
      const body = window.__baselineBody;
      delete window.__baselineBody;
      if (!body || body.size !== meta.encryptedSize) throw new Error('baseline body not made');
      const t0 = performance.now();
      const res = await fetch('/api/files/upload-url', {
        method: 'POST',
        headers,
        body: JSON.stringify(meta),
      });
      if (res.status !== 201 && res.status !== 200)
        throw new Error(`upload-url: HTTP ${res.status} ${await res.text()}`);
      const { uploadUrl } = await res.json();
      await new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('PUT', new URL(uploadUrl, window.location.href).toString());
        xhr.setRequestHeader('content-type', 'application/octet-stream');
        xhr.onload = () => (xhr.status < 300 ? resolve() : reject(new Error(`PUT: HTTP ${xhr.status}`)));
        xhr.onerror = () => reject(new Error('PUT: network error'));
        xhr.send(body);
      });
      const done = await fetch('/api/files/upload-complete', {
        method: 'POST',
        headers,
        body: JSON.stringify({ fileId: meta.fileId }),
      });
      if (!done.ok) throw new Error(`upload-complete: HTTP ${done.status} ${await done.text()}`);
      const end = performance.now();
      return {
        ms: end - t0,
        fileId: meta.fileId,
        bytes: body.size,
        fromEpoch: performance.timeOrigin + t0,
        toEpoch: performance.timeOrigin + end,
      };
    },
    { token, meta },
  );
}

async function baselineDownload(page, token, fileId, authKey) {
  return page.evaluate(
    async ({ token, fileId, authKey }) => {
      const headers = { authorization: token, 'content-type': 'application/json' };
      const res = await fetch(`/api/files/${fileId}/download-url`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ authKey }),
      });
      if (!res.ok) throw new Error(`download-url: HTTP ${res.status} ${await res.text()}`);
      const { downloadUrl } = await res.json();
      const t0 = performance.now();
      const blob = await fetch(new URL(downloadUrl, window.location.href).toString());
      if (!blob.ok) throw new Error(`GET blob: HTTP ${blob.status}`);
      // Saved as an unencrypted download would be: streamed into the same kind of file the app's
      // download writes (the save picker's, here an OPFS file).
      const handle = await window.showSaveFilePicker();
      await blob.body.pipeTo(await handle.createWritable());
      const bytes = (await handle.getFile()).size;
      const end = performance.now();
      return {
        ms: end - t0,
        bytes,
        fromEpoch: performance.timeOrigin + t0,
        toEpoch: performance.timeOrigin + end,
      };
    },
    { token, fileId, authKey },
  );
}

function printResults(rows) {
  const cols = [
    'MiB',
    'up enc MB/s',
    'up plain MB/s',
    'up ratio',
    'down enc MB/s',
    'down plain MB/s',
    'down ratio',
    'up RSS +MiB',
    'down RSS +MiB',
  ];
  const lines = rows.map((r) => [
    r.sizeMib,
    r.upload.encryptedMBps,
    r.upload.plainMBps,
    r.upload.ratio,
    r.download.encryptedMBps,
    r.download.plainMBps,
    r.download.ratio,
    r.upload.peakRssAboveIdleMib,
    r.download.peakRssAboveIdleMib,
  ]);
  printTable(cols, lines);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const account = await signUpThroughApi(opts.base, 'vault-bench/files');
  console.log(`account ${account.username}`);
  const dir = mkdtempSync(join(tmpdir(), 'vault-files-bench-'));
  const sampler = new Sampler();
  sampler.threads = opts.threads;
  timeline.on = opts.threads;
  const context = await launchPersistentChromium(join(dir, 'profile'), {
    executablePath: opts.chromium,
    args: [MARKER],
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const results = [];
  try {
    // The save picker, answered with an OPFS file (headless Chromium cannot show one).
    await context.addInitScript(() => {
      let n = 0;
      window.showSaveFilePicker = async () => {
        const root = await navigator.storage.getDirectory();
        const handle = await root.getFileHandle(`bench-download-${++n}`, { create: true });
        window.__lastSaved = handle;
        return handle;
      };
    });
    const page = context.pages()[0] ?? (await context.newPage());
    const seen = { token: null, authKey: null, sealed: null };
    page.on('request', (r) => {
      if (!r.url().startsWith(opts.base)) return;
      const h = r.headers()['authorization'];
      if (h) seen.token = h;
      if (r.method() === 'POST' && /\/download-url$/.test(r.url())) seen.authKey = r.postDataJSON()?.authKey;
      if (r.method() === 'POST' && /\/upload-url$/.test(r.url())) {
        const b = r.postDataJSON();
        seen.sealed = {
          wrappedKey: b.wrappedKey,
          encryptedName: b.encryptedName,
          encryptedMimeType: b.encryptedMimeType,
          encryptedTags: b.encryptedTags,
        };
      }
    });
    page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
    watchRequests(page);

    await signInThroughUi(page, opts.base, account);
    await page.getByRole('link', { name: 'File Vault' }).click();
    await page.getByRole('button', { name: 'Upload Files' }).first().waitFor({ timeout: 30_000 });

    for (const sizeMib of opts.sizesMib) {
      const size = Math.round(sizeMib * MIB);
      const samples = [];
      for (let run = 0; run < opts.runs; run += 1) {
        const name = `bench-${sizeMib}mib-${run + 1}-${hex(3)}.zip`;
        const path = join(dir, name);
        writeFileSync(path, randomBytes(size));
        await scansSettled(page, seen.token);
        const up = await sampler.during(`upload-${sizeMib}`, (probe) =>
          uiUpload(page, path, opts.storage, probe),
        );
        rmSync(path);
        await page.getByRole('button', { name: `Download ${name}` }).waitFor({ timeout: 30_000 });
        await scansSettled(page, seen.token);
        const down = await sampler.during(`download-${sizeMib}`, (probe) =>
          uiDownload(page, name, account.password, size, probe),
        );
        if (!seen.token || !seen.authKey || !seen.sealed) throw new Error('no token, authKey or upload seen');
        const baselinePath = await makeBaselineBody(page, dir, size);
        await scansSettled(page, seen.token);
        const bUp = await sampler.during(`baseline-upload-${sizeMib}`, () =>
          baselineUpload(page, seen.token, seen.sealed, size, opts.storage),
        );
        rmSync(baselinePath);
        await scansSettled(page, seen.token);
        const bDown = await sampler.during(`baseline-download-${sizeMib}`, () =>
          baselineDownload(page, seen.token, bUp.value.fileId, seen.authKey),
        );
        if (bDown.value.bytes !== bUp.value.bytes) throw new Error('baseline: bytes differ');
        await page.evaluate(async () => {
          const root = await navigator.storage.getDirectory();
          const saved = [];
          for await (const name of root.keys()) if (name.startsWith('bench-download-')) saved.push(name);
          await Promise.all(saved.map((name) => root.removeEntry(name).catch(() => undefined)));
        });
        const s = {
          uploadMs: up.value.ms,
          uploadSealMs: up.value.sealMs,
          downloadMs: down.value.ms,
          downloadTailMs: down.value.tailMs,
          baselineUploadMs: bUp.value.ms,
          baselineDownloadMs: bDown.value.ms,
          uploadRssMib: up.peakAboveIdleMib,
          downloadRssMib: down.peakAboveIdleMib,
          baselineUploadRssMib: bUp.peakAboveIdleMib,
          baselineDownloadRssMib: bDown.peakAboveIdleMib,
          idleMib: up.idleMib,
          uploadCpuS: up.cpuSeconds,
          uploadCores: up.coresBusy,
          downloadCpuS: down.cpuSeconds,
          downloadCores: down.coresBusy,
          baselineUploadCpuS: bUp.cpuSeconds,
          baselineUploadCores: bUp.coresBusy,
          baselineDownloadCpuS: bDown.cpuSeconds,
          baselineDownloadCores: bDown.coresBusy,
          uploadRssByType: up.byTypeMib,
          downloadRssByType: down.byTypeMib,
        };
        console.log(
          `${String(sizeMib).padStart(4)} MiB run ${run + 1}/${opts.runs}: upload ${round(s.uploadMs)} ms (sealed after ${round(s.uploadSealMs)}; plain ${round(s.baselineUploadMs)} ms), download ${round(s.downloadMs)} ms (${round(s.downloadTailMs)} after the last byte; plain ${round(s.baselineDownloadMs)} ms) | RSS above idle (${s.idleMib} MiB): upload +${s.uploadRssMib}, download +${s.downloadRssMib}, plain +${s.baselineUploadRssMib} / +${s.baselineDownloadRssMib} MiB`,
        );
        const types = (t) =>
          Object.entries(t)
            .map(([k, v]) => `${k} +${v}`)
            .join(', ');
        console.log(
          `       per process type, upload: ${types(s.uploadRssByType)}; download: ${types(s.downloadRssByType)}`,
        );
        console.log(
          `       machine CPU (core-seconds, cores busy): upload ${s.uploadCpuS} (${s.uploadCores}) vs plain ${s.baselineUploadCpuS} (${s.baselineUploadCores}); download ${s.downloadCpuS} (${s.downloadCores}) vs plain ${s.baselineDownloadCpuS} (${s.baselineDownloadCores})`,
        );
        if (opts.threads) {
          for (const [phase, r] of [
            ['upload', up],
            ['plain upload', bUp],
            ['download', down],
            ['plain download', bDown],
          ]) {
            const top = r.threads
              .slice(0, 14)
              .map(([k, v]) => `${k} ${v}`)
              .join('; ');
            console.log(`       threads, ${phase} (core-s): ${top}`);
          }
        }
        samples.push(s);
      }
      const med = (k) => median(samples.map((s) => s[k]));
      const max = (k) => Math.max(...samples.map((s) => s[k]));
      /** One direction's medians (`upload` or `download`), encrypted beside plain (`baseline…`). */
      const direction = (name) => {
        const plainName = `baseline${name[0].toUpperCase()}${name.slice(1)}`;
        const encrypted = mbps(size, med(`${name}Ms`));
        const plain = mbps(size, med(`${plainName}Ms`));
        return {
          encryptedMs: round(med(`${name}Ms`)),
          plainMs: round(med(`${plainName}Ms`)),
          encryptedMBps: round(encrypted),
          plainMBps: round(plain),
          ratio: round(encrypted / plain, 2),
          peakRssAboveIdleMib: max(`${name}RssMib`),
          plainPeakRssAboveIdleMib: max(`${plainName}RssMib`),
          cpuSeconds: round(med(`${name}CpuS`), 2),
          plainCpuSeconds: round(med(`${plainName}CpuS`), 2),
          coresBusy: round(med(`${name}Cores`), 2),
          plainCoresBusy: round(med(`${plainName}Cores`), 2),
        };
      };
      results.push({
        sizeMib,
        bytes: size,
        runs: samples.length,
        upload: direction('upload'),
        download: direction('download'),
        samples: samples.map((s) =>
          Object.fromEntries(Object.entries(s).map(([k, v]) => [k, typeof v === 'number' ? round(v) : v])),
        ),
      });
    }
  } finally {
    sampler.stop();
    await context.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }

  console.log('');
  console.log(`storage: ${STORAGE_LABELS[opts.storage]}`);
  printResults(results);
  const result = {
    bench: 'files',
    storage: opts.storage,
    goal: { throughputRatio: 0.6, memory: 'flat as the file grows' },
    measured:
      "the web app's UI in headless Chromium: Upload Files with the storage of --storage (click on Upload → row 'Completed': encryption, and PUTs of 16 MiB parts as they are sealed, upload-complete) and Download through the password prompt (download-url answer → card 'Completed': fetch, decrypt, streamed to the save picker's file, here an OPFS file)",
    baseline:
      'the same number of bytes, unencrypted, from the same page to the same storage: upload-url + XHR PUT of a picked disk file of random bytes + upload-complete; download-url (timer starts after it) + fetch of the bytes, streamed into a file of the same save picker',
    rss: 'peak RSS of every Chromium process together, sampled every 50 ms, above the lowest level in the second before the phase',
    cpu: 'busy core-seconds of the whole machine in the timed window (/proc/stat every 20 ms), and their average in cores: browser, services and this script share the cores',
    runs: opts.runs,
    results,
    totalSeconds: round((performance.now() - started) / 1000, 1),
  };
  emitResult(result, opts.json);
}

runMain(main);
