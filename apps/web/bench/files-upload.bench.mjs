/* global window, setInterval, clearInterval */
// Memory of the File Vault's upload path in real Chromium: a 100 MiB file (a disk-backed File, as a
// picked file is) sealed by the web app's own prepareUpload (apps/web/src/workers/files-ops.ts) in a
// Worker, staged, then PUT with XMLHttpRequest to a local server that counts the bytes.
//
//   node apps/web/bench/files-upload.bench.mjs [--size-mib 100] [--modes opfs,slabs,naive] [--gc]
//
// Each mode runs in a fresh browser. With --gc the worker's garbage is collected every 100 ms
// (V8 --expose-gc), so the figures show memory held rather than garbage not yet collected.
//
// Three stagings: 'opfs' (what the app uses: a staging file in the origin-private file system),
// 'slabs' (the app's fallback: Blob slabs of 4 MiB) and 'naive' (every chunk kept in a JS array, one
// Blob at the end: what the app avoids). RSS of every Chromium process is sampled every 50 ms;
// the report gives the peak above the idle baseline, per phase, for the renderer (page + worker)
// and for all processes together.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  CHROMIUM_PATH,
  chromiumProcessTree,
  launchPersistentChromium,
} from '../../../scripts/lib/chromium.mjs';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const SIZE = Number(arg('--size-mib', '100')) * 1024 * 1024;
const MODES = arg('--modes', 'opfs,slabs,naive').split(',');
const FORCE_GC = args.includes('--gc');
if (!existsSync(CHROMIUM_PATH)) {
  console.error(`No Chromium at ${CHROMIUM_PATH}`);
  process.exit(1);
}

async function bundle(entry) {
  const out = await build({
    entryPoints: [here(entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome120'],
    write: false,
    logLevel: 'silent',
    alias: { '@vault/crypto': here('../../../libs/crypto/src/index.ts') },
  });
  return out.outputFiles[0].contents;
}

const [workerJs, pageJs] = await Promise.all([
  bundle('./files-upload/worker.ts'),
  bundle('./files-upload/page.ts'),
]);
const html =
  '<!doctype html><meta charset="utf-8"><title>upload memory</title><script src="/page.js"></script>';

const server = createServer((req, res) => {
  if (req.method === 'PUT' && req.url === '/upload') {
    let n = 0;
    req.on('data', (c) => (n += c.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end(String(n)));
    return;
  }
  const body = req.url === '/worker.js' ? workerJs : req.url === '/page.js' ? pageJs : html;
  const type = req.url?.endsWith('.js') ? 'text/javascript' : 'text/html';
  res.writeHead(200, { 'content-type': type }).end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const MARKER = `--vault-upload-bench=${process.pid}`;
// A persistent profile on disk: an incognito context (browser.newContext()) keeps OPFS in the
// browser process's memory, which is not what a user's profile does.
const launch = (dir) =>
  launchPersistentChromium(dir, { args: [MARKER, ...(FORCE_GC ? ['--js-flags=--expose-gc'] : [])] });

/** Every process under the browser's (found by its marker argument), with its RSS (KiB) and type. */
const processes = () => chromiumProcessTree(MARKER);

let samples = [];
let currentPhase = 'idle';
const sampler = setInterval(async () => {
  const tree = await processes();
  if (tree.length === 0) return;
  const byType = {};
  for (const p of tree) byType[p.type] = (byType[p.type] ?? 0) + p.rss;
  const total = tree.reduce((n, p) => n + p.rss, 0);
  samples.push({ phase: currentPhase, byType, total });
}, 50);

const mib = (kib) => (kib / 1024).toFixed(1);
console.log(
  `${SIZE / 1024 / 1024} MiB file${FORCE_GC ? ', garbage collected every 100 ms' : ''}; peaks above the idle baseline:`,
);
try {
  for (const mode of MODES) {
    const profile = mkdtempSync(join(tmpdir(), 'vault-upload-bench-'));
    const browser = await launch(profile);
    try {
      const page = await browser.newPage();
      await page.exposeFunction('phase', (name) => {
        currentPhase = name;
      });
      await page.goto(origin);
      await page.evaluate((size) => window.makeSource(size), SIZE);
      await page.evaluate(() => new Promise((r) => setTimeout(r, 2000)));
      samples = [];
      currentPhase = `${mode}:baseline`;
      await page.evaluate(() => new Promise((r) => setTimeout(r, 1000)));
      const result = await page.evaluate(([m, size]) => window.runUpload(m, size), [mode, SIZE]);
      const base = samples.filter((s) => s.phase === `${mode}:baseline`);
      const types = [...new Set(samples.flatMap((s) => Object.keys(s.byType)))];
      const baseOf = (key) =>
        Math.min(...base.map((s) => (key === 'total' ? s.total : (s.byType[key] ?? 0))));
      const peak = (phase, key) =>
        Math.max(
          0,
          ...samples
            .filter((s) => s.phase === `${mode}:${phase}`)
            .map((s) => (key === 'total' ? s.total : (s.byType[key] ?? 0))),
        );
      console.log(
        `${mode.padEnd(6)} encrypt ${(result.encryptMs / 1000).toFixed(2)} s, upload ${(result.uploadMs / 1000).toFixed(2)} s, ` +
          `${result.received === result.encryptedSize ? 'every byte arrived' : `ONLY ${result.received} of ${result.encryptedSize} bytes`}` +
          (result.maxHeldBytes
            ? `; the worker held at most ${mib(result.maxHeldBytes / 1024)} MiB of slab`
            : ''),
      );
      for (const phase of ['encrypt', 'upload']) {
        const parts = types.map((t) => `${t} +${mib(Math.max(0, peak(phase, t) - baseOf(t)))}`).join(', ');
        console.log(
          `        ${phase.padEnd(7)} all +${mib(peak(phase, 'total') - baseOf('total'))} MiB (${parts})`,
        );
      }
    } finally {
      await browser.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    }
  }
} finally {
  clearInterval(sampler);
  server.close();
}
