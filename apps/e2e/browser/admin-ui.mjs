/* global document, getComputedStyle, localStorage, sessionStorage */
// The admin console in headless Chromium against a running stack (scripts/browser-e2e.mjs starts
// one and passes DATABASE_URL for the real role command, apps/auth README "The first admin").
// Accounts come from the API (real client crypto), admins from `apps/auth/dist/cli/promote.js`;
// the rest goes through the screens, checking what the admin and the affected user see: the gate,
// /admin/login (a user, an admin without 2FA, a 2FA admin; the HttpOnly cookie, nothing in web
// storage), fewer permissions; every tab with real data, a lock and unlock felt by the user's own
// sign-in and told in their Settings, a revoked session sending their browser back to sign-in; a
// failing call with Retry; the keyboard; axe-core; 375 px. No CSP violation, page error or
// third-party request. Screenshots go to OUT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 DATABASE_URL=postgres://… node apps/e2e/browser/admin-ui.mjs
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import { apiSignUp, axeViolations, createNote, pageOverflow, startSpec, submitSignIn } from './support.mjs';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const PROMOTE = join(ROOT, 'apps', 'auth', 'dist', 'cli', 'promote.js');
const TWO_FA_REQUIRED =
  'Two-factor authentication is required for admin accounts. Sign in to the vault, turn it on in ' +
  'Settings → Security, then sign in here again.';
const TABS = [
  'Overview',
  'User Management',
  'Security Events',
  'Active Sessions',
  'System Health',
  'Audit log',
];
const started = Date.now();
const spec = await startSpec({ out: '.data/admin-ui-shots', shotPrefix: 'admin-', started });
const { base: BASE, step, shot, problems } = spec;
const RUN = `ga${randomBytes(3).toString('hex')}`;
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set (the role command needs it)');

/** `<run>_<name>`, signed up through the API (see apiSignUp). */
const apiAccount = (name, options) => apiSignUp(BASE, `${RUN}_${name}`, options);

/** The real role command: super_admin, or admin with exactly `permissions`. */
async function promote(acct, permissions) {
  const args = permissions ? ['--role', 'admin', '--permissions', permissions.join(',')] : [];
  await promisify(execFile)(process.execPath, [PROMOTE, ...args, acct.username], {
    env: process.env,
    timeout: 30_000,
  });
}

const a11y = [];
async function checkAxe(page, label) {
  for (const v of await axeViolations(page)) a11y.push(`${label}: ${v}`);
}

const alert = (page, text) => page.getByRole('alert').filter({ hasText: text });
const status = (page, text) => page.getByRole('status').filter({ hasText: text });
const codeField = (page) => page.getByLabel('2FA code', { exact: true });

/** Identifier and password on /admin/login, then Sign in. */
async function adminCredentials(page, acct) {
  await page.goto(`${BASE}/admin/login`);
  await page.getByLabel('Email or username', { exact: true }).fill(acct.username);
  await page.getByLabel('Password', { exact: true }).fill(acct.password);
  assert.equal(await codeField(page).count(), 0, 'no 2FA field before the first answer');
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** A 2FA admin through /admin/login up to the console. */
async function adminSignIn(page, acct) {
  await adminCredentials(page, acct);
  await codeField(page).fill(await acct.totp());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Admin Console' }).waitFor({ timeout: 30_000 });
}

async function openTab(page, name) {
  await page.getByRole('tab', { name, exact: true }).click();
  await page.getByRole('tab', { name, exact: true, selected: true }).waitFor({ timeout: 5000 });
}

/** The user list filtered by `search` (typing is debounced): waits until every row matches it. */
async function searchUsers(page, search) {
  await page.getByLabel('Search users by username or e-mail').fill(search);
  await page.waitForFunction((s) => {
    const rows = [...document.querySelectorAll('[role="region"][aria-label="Users"] tbody tr')];
    return rows.length > 0 && rows.every((r) => r.textContent.includes(s));
  }, search);
}

/** A user's details dialog from the list. */
async function openUser(page, username) {
  await searchUsers(page, username);
  await page
    .getByRole('region', { name: 'Users' })
    .getByRole('button', { name: username, exact: true })
    .click();
  const dialog = page.getByRole('dialog', { name: `User: ${username}` });
  await dialog.waitFor();
  return dialog;
}

/** An account action from the details: its pane, then its submit button; waits for the success note. */
async function userAction(page, username, button, title, fill, success) {
  const dialog = await openUser(page, username);
  await dialog.getByRole('group', { name: 'Account actions' }).getByRole('button', { name: button }).click();
  const pane = dialog.getByRole('form', { name: title });
  await fill(pane);
  await pane.getByRole('button', { name: title }).click();
  await status(dialog, success).waitFor({ timeout: 30_000 });
  return dialog;
}

/** The user's sign-in on /login as it ends: 'vault' or 'locked'. */
async function userSignIn(page, acct) {
  await page.goto(`${BASE}/login`);
  await submitSignIn(page, acct.username, acct.password);
  const vault = page.getByRole('heading', { name: 'Personal Vault' });
  const locked = alert(page, 'Account Temporarily Locked');
  await vault.or(locked).first().waitFor({ timeout: 30_000 });
  return (await vault.isVisible()) ? 'vault' : 'locked';
}

try {
  step('accounts through the API: admins promoted with the real role command, users, fillers');
  const [superAdmin, limited, no2fa, plain, target] = await Promise.all([
    apiAccount('super', { twoFactor: true }),
    apiAccount('limited', { twoFactor: true }),
    apiAccount('no2fa'),
    apiAccount('plain'),
    apiAccount('target'),
  ]);
  for (let i = 0; i < 10; i += 1) await apiAccount(`fill${i}`);
  await promote(superAdmin);
  await promote(no2fa);
  await promote(limited, ['stats:read', 'users:read']);

  step('/admin without a session: Access Denied, Admin Login goes to /admin/login');
  const { page } = await spec.newPage('admin', { allowedErrors: /status of (4\d\d|500)/ });
  let injecting = false;
  page.on('response', (r) => {
    if (r.status() >= 500 && !injecting) problems.push(`admin: ${r.status()} from ${r.url()}`);
  });
  await page.goto(`${BASE}/admin`);
  await page.getByRole('heading', { name: 'Access Denied' }).waitFor({ timeout: 30_000 });
  await page.getByText('You need admin privileges to access this page.', { exact: true }).waitFor();
  await page.getByRole('link', { name: 'Admin Login' }).click();
  await page.getByRole('heading', { name: 'Admin sign-in' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/admin/login');
  await checkAxe(page, 'admin login');
  await shot(page, 'login');

  step('/admin/login: a regular account, then an admin without 2FA');
  await adminCredentials(page, plain);
  await alert(page, 'Admin privileges required').waitFor({ timeout: 30_000 });
  assert.equal(await codeField(page).count(), 0);
  await adminCredentials(page, no2fa);
  await alert(page, TWO_FA_REQUIRED).waitFor({ timeout: 30_000 });
  const link = page.getByRole('link', { name: 'Turn on two-factor authentication in Settings' });
  assert.equal(await link.getAttribute('href'), '/settings?tab=security');
  await shot(page, 'login-2fa-required');

  step('a 2FA admin: the code field after the first answer, empty and wrong codes, then /admin');
  await adminCredentials(page, superAdmin);
  await codeField(page).waitFor({ timeout: 30_000 });
  assert.equal(await codeField(page).getAttribute('autocomplete'), 'one-time-code');
  assert.equal(await codeField(page).getAttribute('maxlength'), '6');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await alert(page, 'Please enter your 2FA code').waitFor();
  // A code valid for no step in the window (the current one plus one), spending none.
  const current = await generate({ secret: superAdmin.secret, epoch: Math.floor(Date.now() / 1000) });
  await codeField(page).fill(String((Number(current) + 1) % 1_000_000).padStart(6, '0'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await alert(page, 'Login failed').waitFor({ timeout: 30_000 });
  assert.equal(await page.getByRole('heading', { name: 'Admin Console' }).count(), 0);
  await codeField(page).fill(await superAdmin.totp());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Admin Console' }).waitFor({ timeout: 30_000 });
  assert.equal(new URL(page.url()).pathname, '/admin');

  step('the admin session is an HttpOnly cookie; nothing admin-related in web storage');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'vault_admin');
  assert.ok(cookie, 'the vault_admin cookie is set');
  assert.equal(cookie.httpOnly, true);
  assert.equal(cookie.sameSite, 'Strict');
  assert.equal(cookie.path, '/api/admin');
  const seen = await page.evaluate(() => ({
    cookie: document.cookie,
    stored: [...Object.entries(localStorage), ...Object.entries(sessionStorage)],
  }));
  assert.ok(!seen.cookie.includes('vault_admin'), 'document.cookie does not show the admin cookie');
  for (const [key, value] of seen.stored) {
    assert.doesNotMatch(key, /admin/i, `web storage key ${key}`);
    assert.ok(!value.includes(cookie.value), `web storage ${key} holds no admin token`);
  }

  step("Overview: six cards, Refresh with Last updated, the chart with this run's sign-ups");
  const tabNames = await page
    .getByRole('tablist', { name: 'Admin sections' })
    .getByRole('tab')
    .allTextContents();
  assert.deepEqual(tabNames, TABS);
  const panel = page.getByRole('tabpanel');
  await panel.getByRole('term').first().waitFor();
  assert.deepEqual(await panel.getByRole('term').allTextContents(), [
    'Total Users',
    'Active Users (30d)',
    'Locked Accounts',
    'Total Files',
    'Active Sessions',
    'New Users (7d)',
  ]);
  const values = (await panel.getByRole('definition').allTextContents()).map((v) =>
    Number(v.replace(/\D/g, '')),
  );
  assert.ok(values[0] >= 15 && values[5] >= 15, `15 accounts of this run counted: ${values}`);
  await status(page, /^Last updated /).waitFor();
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/admin/stats') && r.status() === 200);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await refreshed;
  const chart = page.getByRole('img', { name: /Activity per hour, last 7 days/ });
  const chartName = await chart.evaluate((el) => el.querySelector('desc')?.textContent ?? '');
  const signups = Number(/(\d+) sign-ups/.exec(chartName)?.[1] ?? -1);
  assert.ok(signups >= 15, `the chart counts this run's sign-ups: ${chartName}`);
  await checkAxe(page, 'Overview');
  await shot(page, 'overview');

  step('a failing admin call: the message with the status, Retry recovers');
  injecting = true;
  await page.route('**/api/admin/stats', (r) =>
    r.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal error"}' }),
  );
  await page.getByRole('button', { name: 'Refresh' }).click();
  const failed = alert(page, 'Failed to load admin data');
  await failed.waitFor({ timeout: 30_000 });
  assert.match(await failed.textContent(), /Admin API Error: 500/);
  await shot(page, 'overview-error');
  await page.unroute('**/api/admin/stats');
  await failed.getByRole('button', { name: 'Retry' }).click();
  await failed.waitFor({ state: 'detached', timeout: 30_000 });
  await panel.getByRole('term').nth(5).waitFor({ timeout: 30_000 });
  injecting = false;

  step('keyboard: Tab reaches the selected tab; arrow keys, Home and End switch');
  await page.getByRole('button', { name: 'Sign out' }).focus();
  await page.keyboard.press('Tab');
  const focused = page.getByRole('tab', { name: 'Overview', selected: true });
  assert.ok(await focused.evaluate((el) => el === document.activeElement), 'Tab lands on the selected tab');
  for (const [key, name] of [
    ['ArrowRight', 'User Management'],
    ['ArrowRight', 'Security Events'],
    ['ArrowLeft', 'User Management'],
    ['End', 'Audit log'],
    ['Home', 'Overview'],
  ]) {
    await page.keyboard.press(key);
    // The selection goes through the URL (?tab=), a render later than the key press.
    const tab = page.getByRole('tab', { name, exact: true, selected: true });
    await tab.waitFor({ timeout: 5000 });
    assert.ok(await tab.evaluate((el) => el === document.activeElement), `${name} has the focus`);
  }

  step('the user signs in in another browser and writes a note');
  const userRun = await spec.newPage('user');
  const user = userRun.page;
  assert.equal(await userSignIn(user, target), 'vault');
  await createNote(user, { title: `Counted ${RUN}`, content: 'Only counted by the admin.' });

  step('User Management: search, paging, the Admin badge, details with counts, focus trap, Escape');
  await openTab(page, 'User Management');
  await searchUsers(page, RUN);
  const pager = page.getByRole('navigation', { name: 'User pages' });
  await pager.getByText('Page 1 of 2 (15 users)').waitFor();
  const rows = () => page.getByRole('region', { name: 'Users' }).locator('tbody tr');
  assert.equal(await rows().count(), 10);
  await pager.getByRole('button', { name: 'Next' }).click();
  await pager.getByText('Page 2 of 2 (15 users)').waitFor();
  assert.equal(await rows().count(), 5);
  await pager.getByRole('button', { name: 'Previous' }).click();
  await pager.getByText('Page 1 of 2').waitFor();
  await searchUsers(page, superAdmin.username);
  // A super admin's badge says so; the role is never shown twice ("admin Admin").
  await rows().getByText('Super admin', { exact: true }).waitFor();
  assert.equal(await rows().count(), 1);
  await searchUsers(page, limited.username);
  await rows().getByText('Admin', { exact: true }).waitFor();
  await searchUsers(page, target.username);
  assert.equal(await rows().getByText('Admin', { exact: true }).count(), 0, 'no badge for a user');
  await rows().getByText('User', { exact: true }).waitFor();
  await checkAxe(page, 'User Management');
  const details = await openUser(page, target.username);
  await details.getByText('1 (0 in trash)').waitFor({ timeout: 30_000 });
  await details.getByRole('heading', { name: /^Sessions \([1-9]\d*\)$/ }).waitFor();
  await checkAxe(page, 'user details');
  await shot(page, 'user-details');
  for (let i = 0; i < 25; i += 1) {
    await page.keyboard.press(i % 5 === 4 ? 'Shift+Tab' : 'Tab');
    const inside = await page.evaluate(() => !!document.activeElement?.closest('[role="dialog"]'));
    assert.ok(inside, `focus stays in the dialog (Tab ${i + 1})`);
  }
  await page.keyboard.press('Escape');
  await details.waitFor({ state: 'detached' });
  const opener = page.getByRole('region', { name: 'Users' }).getByRole('button', { name: target.username });
  assert.ok(await opener.evaluate((el) => el === document.activeElement), 'focus back on the opener');

  step("Active Sessions: Revoke the user's browser session; their next action asks to sign in");
  await openTab(page, 'Active Sessions');
  const revoke = page.getByRole('button', {
    name: new RegExp(`^Revoke session of ${target.username}: (Headless )?Chrome`),
  });
  await revoke.first().waitFor({ timeout: 30_000 });
  await checkAxe(page, 'Active Sessions');
  await revoke.first().click();
  const confirm = page.getByRole('alertdialog', { name: 'Revoke session' });
  await confirm.getByRole('button', { name: 'Revoke' }).click();
  await status(page, `Session of ${target.username} revoked`).waitFor();
  await user.getByRole('button', { name: 'New Note' }).click();
  await user.getByRole('dialog').getByLabel('Title', { exact: true }).fill('After the revoke');
  await user.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
  await user.getByRole('heading', { name: 'Sign in to your vault' }).waitFor({ timeout: 30_000 });
  await shot(user, 'user-revoked');

  step("Lock with the spec defaults; the user's sign-in shows the lock");
  await openTab(page, 'User Management');
  const lockDialog = await userAction(
    page,
    target.username,
    'Lock',
    'Lock account',
    async (pane) => {
      assert.equal(await pane.getByLabel('Reason', { exact: true }).inputValue(), 'Manual admin lock');
      assert.equal(await pane.getByLabel('Duration (minutes)', { exact: true }).inputValue(), '60');
    },
    `${target.username} is locked`,
  );
  await lockDialog.getByText(/^Locked: Manual admin lock/).waitFor();
  await lockDialog.getByRole('button', { name: 'Close' }).last().click();
  assert.equal(await userSignIn(user, target), 'locked');
  await shot(user, 'user-locked');

  step('Security Events: the lock is listed; the type filter keeps only locks by an administrator');
  await openTab(page, 'Security Events');
  const events = page.getByRole('region', { name: 'Security events' });
  await events.getByRole('row').filter({ hasText: 'Locked by an administrator' }).first().waitFor();
  await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Locked by an administrator' });
  await page.waitForResponse((r) => r.url().includes('type=admin_account_locked') && r.status() === 200);
  await events.locator('tbody tr').first().waitFor();
  const types = await events.locator('tbody tr td:nth-child(2)').allTextContents();
  assert.ok(types.length >= 1 && types.every((t) => t === 'Locked by an administrator'), `${types}`);
  assert.ok((await events.locator('tbody').textContent()).includes(target.username));
  await checkAxe(page, 'Security Events');
  await shot(page, 'events');

  step('Unlock; the user signs in, and Settings → Security tells of the lock and its reason');
  await openTab(page, 'User Management');
  const unlockDialog = await userAction(
    page,
    target.username,
    'Unlock',
    'Unlock account',
    (pane) => pane.getByLabel('Reason (optional)', { exact: true }).fill('Checked with the owner'),
    `${target.username} is unlocked`,
  );
  await unlockDialog.getByRole('button', { name: 'Close' }).last().click();
  assert.equal(await userSignIn(user, target), 'vault');
  // Through the app's own navigation: a reload would ask for the password again to unlock.
  await user.getByRole('navigation').getByRole('link', { name: 'Settings' }).click();
  await user.getByRole('tab', { name: 'Security' }).click();
  const activity = user.getByRole('list', { name: 'Recent security activity' });
  const locked = activity.getByRole('listitem').filter({ hasText: 'An administrator locked your account' });
  await locked.waitFor({ timeout: 30_000 });
  await locked.getByText(/Reason: Manual admin lock/).waitFor();
  await activity.getByText('An administrator unlocked your account').waitFor();
  await shot(user, 'user-activity');

  step('System Health: services up, queues, storage, the scanner');
  await openTab(page, 'System Health');
  const services = page.getByRole('region', { name: 'Services' });
  await services.locator('tbody tr').first().waitFor({ timeout: 30_000 });
  for (const row of await services.locator('tbody tr').all()) {
    assert.equal(await row.getByText('Up', { exact: true }).count(), 1, await row.textContent());
  }
  const stores = await page
    .getByRole('region', { name: 'Database and Redis' })
    .locator('tbody')
    .textContent();
  assert.match(stores, /Database\s*Up.*Redis\s*Up/s);
  await page.getByRole('region', { name: 'Queues' }).getByRole('rowheader', { name: 'All queues' }).waitFor();
  const storage = page.getByRole('region', { name: 'Storage drivers' });
  await storage.getByRole('rowheader', { name: 'local' }).waitFor();
  const scanner = page.getByRole('term').filter({ hasText: 'Scanner (clamd)' }).locator('xpath=..');
  assert.match(await scanner.textContent(), /Up/);
  const version = page.getByRole('term').filter({ hasText: /^Version$/ });
  assert.doesNotMatch(await version.locator('xpath=..').textContent(), /Unknown/);
  await checkAxe(page, 'System Health');
  await shot(page, 'health');

  step('Audit log: the lock and unlock, newest first; Verify chain says intact');
  await openTab(page, 'Audit log');
  const audit = page.getByRole('region', { name: 'Audit log entries' });
  await audit.locator('tbody tr').first().waitFor({ timeout: 30_000 });
  // This run's entries about the user (the stack may hold other runs'), newest first.
  const entries = audit.locator('tbody tr').filter({ hasText: target.id });
  // Readable names (the raw action is the cell's title); views of the details are left out here.
  const actions = (await entries.getByRole('rowheader').allTextContents()).filter(
    (a) => a !== 'Viewed an account',
  );
  assert.deepEqual(
    actions.slice(0, 3),
    ['Unlocked an account', 'Locked an account', 'Revoked a session (its owner recorded)'],
    `${actions}`,
  );
  const unlocked = entries.filter({ has: page.getByRole('rowheader', { name: 'Unlocked an account' }) });
  await unlocked.first().getByText('Checked with the owner').waitFor();
  await page.getByRole('button', { name: 'Verify chain' }).click();
  await status(page, 'Audit chain intact').waitFor({ timeout: 30_000 });
  await checkAxe(page, 'Audit log');
  await shot(page, 'audit');

  step('375 px: no sideways scrolling of the page; tables scroll in their own region');
  await page.setViewportSize({ width: 375, height: 800 });
  for (const name of TABS) {
    await openTab(page, name);
    await page.getByRole('tabpanel').locator('table, dl').first().waitFor({ timeout: 30_000 });
    const overflow = await pageOverflow(page);
    assert.equal(overflow.by, 0, `${name} scrolls sideways at 375 px: ${overflow.culprits}`);
    for (const region of await page.locator('.admin-table').all()) {
      const overflowX = await region.evaluate((el) => getComputedStyle(el).overflowX);
      assert.ok(['auto', 'scroll'].includes(overflowX), `${name}: a table region scrolls (${overflowX})`);
    }
    await shot(page, `narrow-${name.toLowerCase().replace(/\s+/g, '-')}`);
  }

  step('an admin with fewer permissions: only their tabs; without stats:read, Insufficient Permissions');
  const { page: lp } = await spec.newPage('limited');
  await adminSignIn(lp, limited);
  assert.deepEqual(await lp.getByRole('tab').allTextContents(), ['Overview', 'User Management']);
  await promote(limited, ['users:read']);
  await lp.reload();
  await lp.getByRole('heading', { name: 'Insufficient Permissions' }).waitFor({ timeout: 30_000 });
  await lp.getByText("You don't have permission to access this resource.", { exact: true }).waitFor();
  await checkAxe(lp, 'Insufficient Permissions');
  await shot(lp, 'insufficient');

  for (const p of spec.openPages()) await spec.checkCsp(p);
  assert.deepEqual(a11y, [], `axe serious/critical violations:\n${a11y.join('\n')}`);
  assert.deepEqual(problems, [], problems.join('\n'));
  console.log('admin-ui: all steps passed');
} catch (error) {
  for (const [i, p] of spec.openPages().entries()) {
    await p.screenshot({ path: join(spec.out, `admin-failure-${i}.png`), fullPage: true }).catch(() => {});
  }
  if (problems.length) console.error(problems.join('\n'));
  if (a11y.length) console.error(a11y.join('\n'));
  throw error;
} finally {
  await spec.close();
}
