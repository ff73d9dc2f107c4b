// Runs every crypto-vectors-v1.json check (and a few refusals) through the real @vault/crypto source in
// headless Chromium, in the page and in a dedicated Web Worker.
//
//   node libs/crypto/test/browser/run-vectors.mjs
//
// Bundles vectors.entry.ts with esbuild (IIFE, platform browser), serves it from a throwaway http server on
// 127.0.0.1 (a secure context, so WebCrypto is there), drives Chromium (scripts/lib/chromium.mjs) with playwright-core, prints
// one line per check and a closing "N passed, N failed" line. Exits non-zero on any failure, on a missing
// Chromium, or when the overall timeout hits; always closes the browser and the server.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { CHROMIUM_PATH, launchChromium } from '../../../../scripts/lib/chromium.mjs';

const OVERALL_TIMEOUT_MS = 180_000;
const entry = fileURLToPath(new URL('./vectors.entry.ts', import.meta.url));

let browser;
let server;
let finished = false;
let timedOut = false;

async function cleanup() {
  const b = browser;
  browser = undefined;
  if (b) await b.close().catch(() => undefined);
  const s = server;
  server = undefined;
  if (s) await new Promise((resolve) => s.close(() => resolve(undefined)));
}

const overall = setTimeout(() => {
  if (finished) return;
  timedOut = true;
  console.error(`Timed out after ${OVERALL_TIMEOUT_MS / 1000} s`);
  console.log('0 passed, 1 failed');
  void cleanup().finally(() => process.exit(1));
}, OVERALL_TIMEOUT_MS);

async function bundle() {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome110'],
    write: false,
    sourcemap: 'inline',
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output');
  return file.contents;
}

function serve(js) {
  const html =
    '<!doctype html><meta charset="utf-8"><title>vault crypto vectors</title><script src="/vectors.js"></script>';
  return new Promise((resolve, reject) => {
    const s = createServer((req, res) => {
      if (req.url === '/') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(html);
      } else if (req.url === '/vectors.js') {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        res.end(js);
      } else if (req.url === '/favicon.ico') {
        res.writeHead(204).end();
      } else {
        res.writeHead(404).end();
      }
    });
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => resolve(s));
  });
}

async function main() {
  if (!existsSync(CHROMIUM_PATH)) {
    console.error(`Chromium not found at ${CHROMIUM_PATH}; run scripts/ensure-tools.sh`);
    return 1;
  }
  const js = await bundle();
  server = await serve(js);
  const { port } = server.address();
  browser = await launchChromium();
  const page = await browser.newPage();
  const pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(String(err)));
  page.on('console', (msg) => {
    if (msg.type() === 'error') pageErrors.push(`${msg.text()} (${msg.location().url || 'page'})`);
  });
  page.setDefaultTimeout(OVERALL_TIMEOUT_MS);
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => typeof globalThis.__vaultCryptoVectors === 'function', undefined, {
    timeout: 15_000,
  });
  const run = await page.evaluate(() => globalThis.__vaultCryptoVectors());

  console.log(`Chromium: ${run.userAgent}`);
  let passed = 0;
  let failed = 0;
  for (const r of run.results) {
    if (r.ok) {
      passed++;
      console.log(`ok   ${r.name} (${r.ms} ms)`);
    } else {
      failed++;
      console.log(`FAIL ${r.name}: ${r.error ?? 'failed'}`);
    }
  }
  for (const e of pageErrors) {
    failed++;
    console.log(`FAIL page error: ${e}`);
  }
  if (passed === 0) failed++;
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  code = 1;
  if (!timedOut) {
    console.error(e instanceof Error ? (e.stack ?? e.message) : String(e));
    console.log('0 passed, 1 failed');
  }
} finally {
  finished = true;
  clearTimeout(overall);
  await cleanup();
}
if (!timedOut) process.exit(code);
