/* global document */
// The testing dashboard's server runner (/testing, issue 15; docs/testing-dashboard.md "Server
// runner") in headless Chromium against a running stack whose admin service has
// TEST_RUNNER_ENABLED=true (scripts/browser-e2e.mjs). Accounts come from the API (real client
// crypto), the admin from the real role command (apps/auth/dist/cli/promote.js), as admin-ui.mjs.
//
// A regular user on /testing sees what the runner is and that it is for admins, and no Run; their
// bearer token opens nothing under /api/admin. A super admin signed in to the admin console (2FA)
// and to the vault in the same browser sees the fixed suites, runs `contracts`: output lines while
// it runs, then Passed with the coverage table; CI/CD Status shows the last result and View
// Coverage the server coverage; `unit` started, then Stop: Cancelled within a few seconds. The
// admin calls carry no bearer token. axe-core (no serious or critical), 375 px without sideways
// scrolling; no CSP violation, page error or third-party request. Screenshots go to OUT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 DATABASE_URL=postgres://… node apps/e2e/browser/testing-server-runner-ui.mjs
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { apiCall, apiSignUp, axeViolations, pageOverflow, startSpec, submitSignIn } from './support.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PROMOTE = join(ROOT, 'apps', 'auth', 'dist', 'cli', 'promote.js');
const ADMINS_ONLY =
  "You are not signed in to the admin console in this browser. The runner is off unless the admin service's " +
  'TEST_RUNNER_ENABLED is true; when it is on, an admin signed in to the admin console in this browser can run it here.';
/** The contracts suite with coverage on a slow shared machine. */
const RUN_MS = 180_000;
/** Stop: SIGTERM, SIGKILL after 5 s, and the next read of the output. */
const STOP_MS = 15_000;

const started = Date.now();
const spec = await startSpec({
  out: '.data/testing-server-runner-ui-shots',
  shotPrefix: 'server-runner-',
  started,
});
const { base: BASE, step, shot, problems } = spec;
const RUN = `sr${randomBytes(3).toString('hex')}`;
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set (the role command needs it)');

async function promote(acct) {
  await promisify(execFile)(process.execPath, [PROMOTE, acct.username], {
    env: process.env,
    timeout: 30_000,
  });
}

const panelOf = (page) => page.getByRole('region', { name: 'Server runner', exact: true });
const badgeOf = (page) => panelOf(page).locator('.testing-server__status .testing-badge');
const logOf = (page) => panelOf(page).getByRole('log', { name: 'Server runner output' });

/** /login with the account's password (and its 2FA code when it has one), then the sidebar's Testing Dashboard. */
async function openDashboard(page, acct) {
  await page.goto(`${BASE}/login`);
  await submitSignIn(page, acct.username, acct.password);
  if (acct.totp) {
    const code = page.getByLabel('Verification code', { exact: true });
    await code.waitFor({ timeout: 30_000 });
    await code.fill(await acct.totp());
    await page.getByRole('button', { name: 'Verify', exact: true }).click();
  }
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /Testing Dashboard/ })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Testing Dashboard' }).waitFor({ timeout: 30_000 });
}

/** /admin/login with the password and a 2FA code, up to the console. */
async function adminSignIn(page, acct) {
  await page.goto(`${BASE}/admin/login`);
  await page.getByLabel('Email or username', { exact: true }).fill(acct.username);
  await page.getByLabel('Password', { exact: true }).fill(acct.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const code = page.getByLabel('2FA code', { exact: true });
  await code.waitFor({ timeout: 30_000 });
  await code.fill(await acct.totp());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Admin Console' }).waitFor({ timeout: 30_000 });
}

/** Waits until `button` can be pressed (an action's answer may come just after the badge changed). */
async function enabled(button, timeout = 30_000) {
  const until = Date.now() + timeout;
  while (!(await button.isEnabled())) {
    if (Date.now() > until) throw new Error('the button stayed disabled');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A table's rows as text, cells joined with "|". */
const rowsOf = (table) =>
  table
    .locator('tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent.trim()).join('|')));

/** The coverage table: the four totals with covered/total and a percentage, then folder rows. */
async function expectCoverageTable(table) {
  const rows = await rowsOf(table);
  assert.equal(rows[0], 'Measure|Covered|Total|Coverage', rows.join('\n'));
  for (const [i, name] of ['Lines', 'Statements', 'Functions', 'Branches'].entries()) {
    assert.match(rows[i + 1], new RegExp(`^${name}\\|\\d+\\|\\d+\\|\\d+\\.\\d%$`), rows.join('\n'));
  }
  assert.ok(
    rows.some((r) => /^libs\/contracts\|\d+\|\d+\|\d+\.\d%$/.test(r)),
    `a folder row for libs/contracts:\n${rows.join('\n')}`,
  );
  return rows;
}

try {
  step('accounts through the API: a regular user; a super admin with 2FA (the real role command)');
  const [plain, admin] = await Promise.all([
    apiSignUp(BASE, `${RUN}_plain`),
    apiSignUp(BASE, `${RUN}_admin`, { twoFactor: true }),
  ]);
  await promote(admin);

  step('a regular user on /testing: what the runner is, for admins only; no Run');
  const { page: up } = await spec.newPage('user');
  await openDashboard(up, plain);
  await panelOf(up).getByText(ADMINS_ONLY, { exact: true }).waitFor({ timeout: 30_000 });
  assert.equal(
    await panelOf(up).getByRole('link', { name: 'Open the admin console' }).getAttribute('href'),
    '/admin',
  );
  assert.equal(await panelOf(up).getByRole('button', { name: 'Run on server' }).count(), 0);
  assert.equal(await panelOf(up).getByRole('radio').count(), 0);
  // The user's bearer token is no admin session: it only decides the refusal (403 ADMIN_REQUIRED).
  const asUser = await apiCall(BASE, '/admin/test-runner', { method: 'GET', token: plain.token });
  assert.equal(asUser.status, 403, `GET /api/admin/test-runner with a user's token: ${asUser.status}`);
  assert.equal(asUser.body.code, 'ADMIN_REQUIRED');
  const startAsUser = await apiCall(BASE, '/admin/test-runner/runs', {
    body: { suite: 'contracts' },
    token: plain.token,
  });
  assert.equal(startAsUser.status, 403);
  assert.equal(startAsUser.body.code, 'ADMIN_REQUIRED');
  for (const v of await axeViolations(up)) problems.push(`axe (user): ${v}`);
  await shot(up, 'user');

  step('a super admin signed in to the console and the vault: the fixed suites, Run ready');
  const { page } = await spec.newPage('admin');
  const adminCalls = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/admin/')) adminCalls.push(r.headers()['authorization']);
  });
  await adminSignIn(page, admin);
  await openDashboard(page, admin);
  const panel = panelOf(page);
  const group = panel.getByRole('radiogroup', { name: 'Suite to run on the server' });
  await group.waitFor({ timeout: 30_000 });
  const labels = await group.locator('label').allTextContents();
  assert.equal(labels.length, 3, labels.join('\n'));
  assert.match(labels[0], /^API contracts \(about 15\.0 s\)/);
  assert.match(labels[1], /^Crypto library \(about 30\.0 s\)/);
  assert.match(labels[2], /^All unit tests \(about 5 min\)/);
  const runButton = panel.getByRole('button', { name: 'Run on server' });
  const stopButton = panel.getByRole('button', { name: 'Stop server run' });
  assert.equal(await runButton.isEnabled(), true);
  assert.equal(await stopButton.isEnabled(), false);

  step('Run `contracts`: output lines while it runs, then Passed with the coverage table');
  await group.getByRole('radio', { name: /^API contracts/ }).check();
  await runButton.click();
  await badgeOf(page).filter({ hasText: 'Running' }).waitFor({ timeout: 30_000 });
  assert.equal(await runButton.isEnabled(), false, 'one run at a time');
  const bar = panel.getByRole('progressbar', { name: 'Server run progress' });
  assert.ok(Number(await bar.getAttribute('value')) < 100, 'below 100 % until it ends');
  // Lines shown while the badge still says Running (read from the page as it changes).
  await page.waitForFunction(
    () => {
      const section = [...document.querySelectorAll('section')].find(
        (s) => s.querySelector('h2')?.textContent === 'Server runner',
      );
      const log = section?.querySelector('[role="log"]');
      const badge = section?.querySelector('.testing-server__status .testing-badge');
      return badge?.textContent === 'Running' && log && log.textContent !== 'No output yet.';
    },
    undefined,
    { timeout: RUN_MS, polling: 100 },
  );
  const whileRunning = await logOf(page).textContent();
  await shot(page, 'running');
  await badgeOf(page)
    .filter({ hasText: /Passed|Failed|Error|Cancelled/ })
    .waitFor({ timeout: RUN_MS });
  assert.equal(
    await badgeOf(page).textContent(),
    'Passed',
    `the contracts run ended ${await badgeOf(page).textContent()}`,
  );
  const finalLog = await logOf(page).textContent();
  assert.ok(finalLog.startsWith(whileRunning), 'the lines stay in order, later ones appended');
  assert.ok(finalLog.split('\n').length > whileRunning.split('\n').length - 1);
  assert.equal(await bar.getAttribute('value'), '100');
  const counts = await panel.locator('.testing-server__result dd').first().textContent();
  const [, passed, failed, , total] =
    /^(\d+) passed, (\d+) failed, (\d+) skipped, (\d+) total$/.exec(counts) ?? [];
  assert.ok(Number(total) > 0 && Number(passed) > 0 && failed === '0', `tests: ${counts}`);
  const table = panel.getByRole('table', { name: 'Coverage of this API contracts run' });
  const rows = await expectCoverageTable(table);
  console.log(`  contracts: ${counts}; ${rows[1]}`);
  await enabled(runButton);
  for (const v of await axeViolations(page)) problems.push(`axe (finished run): ${v}`);
  await shot(page, 'passed');

  step("CI/CD Status: the server runner's last result; View Coverage: the server coverage");
  await page.getByRole('button', { name: 'CI/CD Status' }).click();
  const ci = page.getByRole('dialog', { name: 'CI/CD Status' });
  const last = ci.getByRole('region', { name: "Server runner's last result" });
  await last.getByText('API contracts', { exact: true }).waitFor();
  await last.getByText('Passed', { exact: true }).waitFor();
  await last.getByText(counts, { exact: true }).waitFor();
  await last.getByText(/^\d+\.\d% \(\d+ of \d+ lines\)$/).waitFor();
  await shot(page, 'ci', false);
  await page.keyboard.press('Escape');
  await ci.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'View Coverage' }).click();
  const coverage = page.getByRole('dialog', { name: 'Coverage' });
  const serverCoverage = coverage.getByRole('region', { name: 'Server runner coverage' });
  assert.deepEqual(
    await expectCoverageTable(
      serverCoverage.getByRole('table', { name: 'Coverage of the last API contracts run' }),
    ),
    rows,
  );
  await page.keyboard.press('Escape');
  await coverage.waitFor({ state: 'detached' });

  step('`unit` started, then Stop: Cancelled within a few seconds');
  await group.getByRole('radio', { name: /^All unit tests/ }).check();
  await runButton.click();
  await badgeOf(page).filter({ hasText: 'Running' }).waitFor({ timeout: 30_000 });
  await panel.getByText(/All unit tests, started by /).waitFor();
  await page.waitForTimeout(2000);
  const stopAt = Date.now();
  await stopButton.click();
  await badgeOf(page)
    .filter({ hasText: /Cancelled|Passed|Failed|Error/ })
    .waitFor({ timeout: STOP_MS });
  assert.equal(await badgeOf(page).textContent(), 'Cancelled');
  console.log(`  unit stopped in ${Date.now() - stopAt} ms`);
  await enabled(runButton);
  await panel.getByText('This run reported no coverage summary.').waitFor();
  await shot(page, 'cancelled');

  step('the admin calls carried no bearer token; axe-core; 375 px');
  assert.ok(adminCalls.length > 3, `admin calls seen: ${adminCalls.length}`);
  assert.ok(
    adminCalls.every((a) => a === undefined),
    'no Authorization header on /api/admin/*',
  );
  await panel.scrollIntoViewIfNeeded();
  for (const v of await axeViolations(page)) problems.push(`axe (admin): ${v}`);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(200);
  const overflow = await pageOverflow(page);
  if (overflow.by > 0)
    problems.push(`375 px: page overflows by ${overflow.by} px (${overflow.culprits.join(', ')})`);
  await panel.screenshot({ path: join(spec.out, 'server-runner-phone.png') });

  for (const p of spec.openPages()) await spec.checkCsp(p);
  step(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (error) {
  problems.push(`FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  for (const page of spec.openPages()) await shot(page, 'failure').catch(() => undefined);
} finally {
  await spec.close();
  spec.report();
}
