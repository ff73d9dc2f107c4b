/* global window, document, Window, getComputedStyle */
// What the browser specs (apps/e2e/browser/*.mjs) share: the headless Chromium they drive, the
// watchers that turn a CSP violation, a console or page error or a third-party request into a
// problem, screenshots, step logging, sign-up / sign-in through the app's own screens, and reading
// the services' logs once they are written out. Each spec keeps its own base URL, problems array
// and accounts and passes them in.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

import { createAccount } from '@vault/crypto';
import { generate } from 'otplib';

// The same Chromium as the browser benchmarks and the crypto vectors' browser run drive.
import { launchChromium } from '../../../scripts/lib/chromium.mjs';

export { launchChromium };

/** BASE_URL (scripts/browser-e2e.mjs sets it) without a trailing slash. */
function baseUrl() {
  return (process.env.BASE_URL ?? 'http://127.0.0.1:8080').replace(/\/$/, '');
}

/** OUT_DIR (or the spec's default) as an absolute path, created: where screenshots and downloads go. */
function outDir(fallback) {
  const dir = resolve(process.env.OUT_DIR ?? fallback);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** `step(name)` logs a bullet; with `started` (ms), each bullet carries the seconds since then. */
function stepLogger(started) {
  return started === undefined
    ? (name) => console.log(`• ${name}`)
    : (name) => console.log(`• ${((Date.now() - started) / 1000).toFixed(1)} s: ${name}`);
}

/** `shot(page, name, fullPage = true)` saves `<dir>/<prefix><name>.png` and logs its path. */
function screenshotter(dir, prefix = '') {
  return async (page, name, fullPage = true) => {
    const file = join(dir, `${prefix}${name}.png`);
    await page.screenshot({ path: file, fullPage });
    console.log(`  screenshot ${file}`);
  };
}

/**
 * What every spec starts with: `base` (baseUrl), `out` (outDir of `out`, created), an empty
 * `problems` array, `step` (stepLogger, timed from `started` when given) and `shot`
 * (screenshotter into `out`, its file names starting with `shotPrefix`).
 */
export function specSetup({ out, shotPrefix = '', started }) {
  const dir = outDir(out);
  return {
    base: baseUrl(),
    out: dir,
    problems: [],
    step: stepLogger(started),
    shot: screenshotter(dir, shotPrefix),
  };
}

/**
 * What a spec starts with, specSetup's and a headless Chromium (launchChromium), with what the
 * specs do with it:
 * - `newPage(label, options)`: a watched page in a browser context of its own (newWatchedPage,
 *   reporting into the spec's `problems`, the app at its `base`; `options` as there);
 * - `contexts`: the contexts newPage made; `openPages()`: their pages still open;
 * - `checkCsp(page, label)`: pushes the page's CSP violations (cspViolations) onto `problems`; a
 *   page that can no longer be read (closed, crashed) has none to add;
 * - `close()`: closes the browser; `report()`: reportProblems.
 */
export async function startSpec(options) {
  const setup = specSetup(options);
  const { problems, base } = setup;
  const browser = await launchChromium();
  const contexts = [];
  return {
    ...setup,
    browser,
    contexts,
    async newPage(label, pageOptions = {}) {
      const opened = await newWatchedPage(browser, { label, problems, base, ...pageOptions });
      contexts.push(opened.context);
      return opened;
    },
    openPages: () => contexts.flatMap((context) => context.pages()),
    async checkCsp(page, label) {
      const csp = await cspViolations(page).catch(() => []);
      if (csp.length) problems.push(`${label ? `${label}: ` : ''}CSP violations: ${csp.join(', ')}`);
    },
    close: () => browser.close(),
    report: () => reportProblems(problems),
  };
}

/**
 * Records every CSP violation of the context's pages in `window.__csp` (read back with
 * cspViolations): a blocked resource may never reach the console.
 */
async function recordCsp(context) {
  await context.addInitScript(() => {
    window.__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
}

/** The CSP violations recordCsp saw in this page so far. */
export function cspViolations(page) {
  return page.evaluate(() => window.__csp ?? []);
}

/**
 * Pushes onto `problems`, prefixed with `label`: CSP messages and console errors (except those
 * matching `allowedErrors`: by default the browser's own line for a 4xx answer, which the specs
 * provoke), page errors, and (with `base`) any request that leaves the app's origin.
 */
export function watch(
  page,
  { label, problems, base, allowedErrors = /status of 4\d\d/, consoleErrors = true },
) {
  const prefix = label ? `${label}: ` : '';
  page.on('console', (msg) => {
    const text = msg.text();
    if (/Content Security Policy|Refused to/i.test(text)) problems.push(`${prefix}CSP: ${text}`);
    else if (consoleErrors && msg.type() === 'error' && !allowedErrors.test(text))
      problems.push(`${prefix}console error: ${text}`);
  });
  page.on('pageerror', (e) => problems.push(`${prefix}page error: ${e.message}`));
  if (base === undefined) return;
  const origin = new URL(base).origin;
  page.on('request', (r) => {
    const url = r.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:'))
      problems.push(`${prefix}third-party: ${url}`);
  });
}

/**
 * A browser context of its own (no storage shared with any other), at 1280×900 with reduced motion
 * (no transition caught halfway in a screenshot) unless `contextOptions` say otherwise, recording
 * CSP violations, and its first page watched as `label` (see watch for `allowedErrors`).
 * `initScript`, when given, runs in every page of the context before the app's own scripts (added
 * before the page opens, so that it is in force from the first navigation).
 */
export async function newWatchedPage(
  browser,
  { label, problems, base, allowedErrors, initScript, ...contextOptions },
) {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
    ...contextOptions,
  });
  await recordCsp(context);
  if (initScript) await context.addInitScript(initScript);
  const page = await context.newPage();
  watch(page, { label, problems, base, allowedErrors });
  return { context, page };
}

/**
 * An initScript for newWatchedPage: headless Chromium offers the File System Access save picker,
 * which a test cannot answer. Without it the app takes its other path (the plaintext collected in
 * memory, saved through a Blob link, as in Firefox and Safari), which Playwright sees as a
 * `download` event.
 */
export function withoutSaveFilePicker() {
  try {
    delete Window.prototype.showSaveFilePicker;
    delete window.showSaveFilePicker;
  } catch {
    /* not present */
  }
}

/**
 * A new account's sign-up fields: `<prefix>_<id>` as the username and the e-mail's name, and a
 * password that passes the sign-up rules (`Prefix-<id>-Pass1`). `id` keeps accounts of runs apart.
 */
export function testAccount(prefix, id, { phone = `+1 555 ${randomBytes(5).readUIntBE(0, 5)}` } = {}) {
  return {
    username: `${prefix}_${id}`,
    email: `${prefix}_${id}@example.org`,
    phone,
    password: `${prefix[0].toUpperCase()}${prefix.slice(1)}-${id}-Pass1`,
  };
}

/** Fills every field of the sign-up form (`confirm` defaults to the password); does not submit. */
export async function fillSignUp(page, { username, email, phone, password, confirm = password }) {
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Phone number', { exact: true }).fill(phone);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill(confirm);
}

/** After Create account: the recovery kit, shown once before the vault, saved; then the vault. */
export async function passRecoveryKit(page) {
  await page.getByRole('heading', { name: 'Save your recovery key' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
}

/** A new account through /register (account: username, email, phone, password), up to the vault. */
export async function signUp(page, base, account) {
  await page.goto(`${base}/register`);
  await fillSignUp(page, account);
  await page.getByRole('button', { name: 'Create account' }).click();
  await passRecoveryKit(page);
}

/**
 * A note through the New Note dialog (tags each entered with Enter), waiting for its card: the
 * dialog closes only once the note is encrypted and saved.
 */
export async function createNote(page, { title, tags = [], content = '' }) {
  await page.getByRole('button', { name: 'New Note' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title', { exact: true }).fill(title);
  for (const tag of tags) {
    await dialog.getByLabel('Tags', { exact: true }).fill(tag);
    await dialog.getByLabel('Tags', { exact: true }).press('Enter');
  }
  await dialog.getByLabel('Content', { exact: true }).fill(content);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: title, exact: true }).waitFor();
}

/** A minimal one-page PDF with a line of text and a correct cross-reference table. */
export function makePdf(text) {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Identifier and password on the sign-in screen shown, then Sign in; what follows is the caller's. */
export async function submitSignIn(page, identifier, password) {
  await page.getByLabel('Username, email or phone', { exact: true }).fill(identifier);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Prints the problems and fails the run (exit code 1) when there are any; otherwise says so. */
export function reportProblems(problems) {
  if (problems.length) {
    console.log('PROBLEMS:\n' + problems.join('\n'));
    process.exitCode = 1;
  } else console.log('OK, no problems');
}

/** Every file under `dir`, recursively, sorted. */
export function listFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the services have written out what they logged into `logDir` (pino writes
 * asynchronously, so a scan right after the browser closes can miss the last lines): sends the
 * gateway at `base` a request whose id it logs, waits for that id in a log file, then for the
 * folder to stop growing for a second. Returns the id, for a control that the scan sees it.
 */
export async function settleLogs(base, logDir) {
  const barrier = `e2e-log-barrier-${randomBytes(8).toString('hex')}`;
  await fetch(`${base}/api/health`, { headers: { 'x-request-id': barrier } });
  const until = Date.now() + 15_000;
  while (!listFiles(logDir).some((path) => readFileSync(path, 'utf8').includes(barrier))) {
    if (Date.now() > until) throw new Error('the log barrier never reached the log folder');
    await sleep(200);
  }
  const size = () => listFiles(logDir).reduce((sum, path) => sum + statSync(path).size, 0);
  let last = size();
  let stableSince = Date.now();
  while (Date.now() - stableSince < 1000 && Date.now() < until + 15_000) {
    await sleep(100);
    const now = size();
    if (now !== last) [last, stableSince] = [now, Date.now()];
  }
  return barrier;
}

/**
 * Stops (`stop`) or starts (`start`) one service of the stack through scripts/browser-e2e.mjs's
 * control endpoint (STACK_CONTROL_URL): a stop asked for, not a crash; `start` answers once
 * GET /api/health reports the service ok.
 */
export async function stackService(name, action) {
  const control = process.env.STACK_CONTROL_URL;
  if (!control) throw new Error('STACK_CONTROL_URL is not set (scripts/browser-e2e.mjs sets it)');
  const res = await fetch(`${control}/services/${name}/${action}`, { method: 'POST' });
  if (!res.ok) throw new Error(`${action} ${name}: ${res.status} ${await res.text()}`);
}

/**
 * JSON over the gateway at `base` from Node (User-Agent `node`: a device family of its own):
 * `{ status, body }`, the body parsed when there is one. `token` goes as the bearer.
 */
export async function apiCall(base, path, { method = 'POST', body, token } = {}) {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** The protocol's floor parameters: accounts without the real KDF's wait. */
const FAST_KDF = { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };

/**
 * An account signed up through the API with the real client side of the protocol (the fast KDF
 * parameters; the app signs it in with them): `{ username, password, token, id }`, and with
 * `twoFactor` 2FA turned on: its `secret` and `totp()` giving its codes (totpCodes).
 */
export async function apiSignUp(base, username, { twoFactor = false } = {}) {
  const password = `Pw-${randomBytes(4).toString('hex')}-Pass1`;
  // What the sign-up screen sends; the vault key stays on the "device".
  const { vaultKey: _kept, ...keys } = await createAccount(password, { kdfParams: FAST_KDF });
  const phoneNumber = `+1 555 ${randomBytes(5).readUIntBE(0, 5)}`;
  const body = { username, email: `${username}@example.org`, phoneNumber, ...keys };
  const res = await apiCall(base, '/auth/signup', { body });
  if (res.status !== 201) throw new Error(`sign-up of ${username} answered ${res.status}`);
  const acct = { username, password, token: res.body.access, id: res.body.user.id };
  if (!twoFactor) return acct;
  const enabled = await apiCall(base, '/auth/2fa/enable', { body: {}, token: acct.token });
  if (enabled.status !== 200) throw new Error(`2fa/enable answered ${enabled.status}`);
  acct.secret = new URL(enabled.body.otpauthUrl).searchParams.get('secret');
  acct.totp = totpCodes(acct.secret);
  const code = await acct.totp();
  const verified = await apiCall(base, '/auth/2fa/verify', { body: { code }, token: acct.token });
  if (verified.status !== 200) throw new Error(`2fa/verify answered ${verified.status}`);
  return acct;
}

const TOTP_PERIOD = 30;

/**
 * `next()` gives TOTP codes of `secret` as an authenticator app would. The server accepts the
 * previous, current and next 30-s step, each once, so every code comes from a step not spent yet;
 * not the previous step near its end (it stops being accepted when the next one starts).
 */
export function totpCodes(secret) {
  const spent = new Set();
  return async function next() {
    for (;;) {
      const now = Date.now() / 1000;
      const current = Math.floor(now / TOTP_PERIOD);
      const usable = [current, current + 1, current - 1].find((s) => !spent.has(s));
      const leftInStep = (current + 1) * TOTP_PERIOD - now;
      if (usable !== undefined && !(usable === current - 1 && leftInStep < 8)) {
        spent.add(usable);
        return generate({ secret, epoch: usable * TOTP_PERIOD + 1 });
      }
      await sleep(leftInStep * 1000 + 100);
    }
  };
}

let axeSource;
/**
 * axe-core (WCAG 2 A/AA rules) over the page as it is: its serious and critical violations, each
 * as `rule: target, …`. Evaluated through the DevTools protocol, which the page's CSP does not
 * govern, so the app's own policy stays as strict as it is.
 */
export async function axeViolations(page) {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
    }));
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/**
 * How far the page is wider than the viewport (`by`, 0: no sideways scrolling of the page), and
 * the first elements that stick out other than inside a scrolling region (`culprits`).
 */
export function pageOverflow(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clipped = (el) => {
      for (let a = el.parentElement; a; a = a.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(a).overflowX)) return true;
      }
      return false;
    };
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`);
    return { by: document.documentElement.scrollWidth - width, culprits };
  });
}
