/* global document, localStorage, indexedDB */
// A real-browser smoke of the web app against a running stack (headless Chromium, playwright-core):
// the sign-up errors in the spec's order (no account created), sign up, reload → unlock (wrong
// then right password), settings, sign out, sign in, five wrong passwords → lockout banner, a taken
// username and e-mail, the inactivity warning with Stay Logged In, Logout Now and the timeout, and
// no CSP violation, page error or third-party request anywhere. Screenshots go to OUT_DIR for a
// human to look at.
//
//   BASE_URL=http://127.0.0.1:8080 node apps/e2e/browser/web-smoke.mjs
//   (OUT_DIR defaults to .data/web-smoke; the gateway must serve the built app: WEB_ROOT=apps/web/dist)
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import {
  cspViolations,
  fillSignUp,
  launchChromium,
  newWatchedPage,
  passRecoveryKit,
  specSetup,
  submitSignIn,
  testAccount,
} from './support.mjs';

const { base: BASE_URL, problems, step, shot } = specSetup({ out: '.data/web-smoke' });
const id = randomBytes(3).toString('hex');
const account = testAccount('smoke', id);
// Spec section 5, "Sign-up, checked in this order" (the exact texts), and the server's answers
// to a taken username or e-mail (libs/contracts errors.ts), which the sign-up screen shows as is.
const SIGNUP_MESSAGES = {
  fillAll: 'Please fill in all fields',
  usernameShort: 'Username must be at least 3 characters long',
  passwordShort: 'Password must be at least 8 characters long',
  passwordLower: 'Password must contain at least one lowercase letter',
  passwordUpper: 'Password must contain at least one uppercase letter',
  passwordNumber: 'Password must contain at least one number',
  passwordMismatch: 'Passwords do not match',
  email: 'Please enter a valid email address',
  phone: 'Please enter a valid phone number',
  usernameTaken: 'Username already taken',
  emailTaken: 'Email already registered',
  phoneTaken: 'Phone number already registered',
};

/**
 * A watched page in a context of its own at 1280×860. A 503 (the lockout) is expected here as
 * well as the 4xx answers.
 */
const newPage = (browser, { label = 'page' } = {}) =>
  newWatchedPage(browser, {
    label,
    problems,
    base: BASE_URL,
    allowedErrors: /status of 4\d\d|status of 503/,
    viewport: { width: 1280, height: 860 },
  });

/**
 * The keys the app keeps on the device ("Stay unlocked": IndexedDB vault-device, store vault-keys),
 * each as its class name and whether it is extractable.
 */
const deviceKeys = (page) =>
  page.evaluate(
    () =>
      new Promise((resolve) => {
        const req = indexedDB.open('vault-device');
        req.onsuccess = () => {
          const get = req.result.transaction('vault-keys').objectStore('vault-keys').getAll();
          get.onsuccess = () => {
            resolve(get.result.map((key) => ({ type: key.constructor.name, extractable: key.extractable })));
            req.result.close();
          };
        };
      }),
  );

/** Waits for the one alert on the page to read exactly `message`. */
async function expectAlert(page, message, timeout = 5_000) {
  const alert = page.getByRole('alert');
  await alert.getByText(message, { exact: true }).waitFor({ timeout });
  assert.equal(await alert.count(), 1, `more than one alert next to '${message}'`);
  assert.equal((await alert.innerText()).trim(), message);
}

async function main() {
  step(`GET ${BASE_URL}/env-config.js`);
  const cfg = await fetch(`${BASE_URL}/env-config.js`);
  assert.equal(cfg.status, 200);
  assert.match(cfg.headers.get('content-type') ?? '', /javascript/);
  assert.equal(cfg.headers.get('cache-control'), 'no-store');
  const cfgText = await cfg.text();
  assert.match(cfgText, /^window\.__VAULT_CONFIG__ = Object\.freeze\(\{.*"inactivityTimeoutMs":\d+/);
  const html = await (await fetch(`${BASE_URL}/login`)).text();
  assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'index.html has an inline script');
  assert.doesNotMatch(html, /<style|\sstyle=/, 'index.html has inline style');

  const browser = await launchChromium();
  try {
    const { context, page } = await newPage(browser, { label: 'main' });

    step('sign-up screen');
    await page.goto(`${BASE_URL}/register`);
    await page.getByRole('heading', { name: 'Create your vault' }).waitFor();
    await shot(page, 'sign-up-1280');
    step('sign-up errors in the order of spec section 5; no account is created');
    // Every state below breaks all the rules after the one it expects, so each submit shows the
    // first failing rule only; the next state fixes that one rule.
    const signupCalls = [];
    const onSignupRequest = (request) => {
      if (new URL(request.url()).pathname === '/api/auth/signup') signupCalls.push(request.method());
    };
    page.on('request', onSignupRequest);
    const bad = { email: 'not-an-email', phone: 'call me', password: 'short', confirm: 'other' };
    const signupSteps = [
      [{ username: '', email: '', phone: '', password: '', confirm: '' }, SIGNUP_MESSAGES.fillAll],
      [{ ...bad, username: 'ab', phone: '' }, SIGNUP_MESSAGES.fillAll],
      [{ ...bad, username: '   ' }, SIGNUP_MESSAGES.fillAll],
      [{ ...bad, username: ' ab ' }, SIGNUP_MESSAGES.usernameShort],
      [{ ...bad, username: account.username }, SIGNUP_MESSAGES.passwordShort],
      [{ ...bad, username: account.username, password: 'NOLOWER123' }, SIGNUP_MESSAGES.passwordLower],
      [{ ...bad, username: account.username, password: 'noupper123' }, SIGNUP_MESSAGES.passwordUpper],
      [{ ...bad, username: account.username, password: 'NoNumberHere' }, SIGNUP_MESSAGES.passwordNumber],
      [{ ...bad, username: account.username, password: account.password }, SIGNUP_MESSAGES.passwordMismatch],
      [
        { ...bad, username: account.username, password: account.password, confirm: account.password },
        SIGNUP_MESSAGES.email,
      ],
      [
        {
          ...bad,
          username: account.username,
          email: account.email,
          password: account.password,
          confirm: account.password,
        },
        SIGNUP_MESSAGES.phone,
      ],
    ];
    for (const [fields, message] of signupSteps) {
      await fillSignUp(page, fields);
      await page.getByRole('button', { name: 'Create account' }).click();
      await expectAlert(page, message);
      assert.equal(new URL(page.url()).pathname, '/register', `navigated away after '${message}'`);
      if (message === SIGNUP_MESSAGES.passwordMismatch) await shot(page, 'sign-up-error-1280');
    }
    assert.deepEqual(signupCalls, [], 'a form the rules refuse must not reach the sign-up API');
    assert.equal(await page.evaluate(() => localStorage.getItem('vault.user')), null);
    page.off('request', onSignupRequest);

    step('sign up');
    await page.getByLabel('Phone number', { exact: true }).fill(account.phone);
    await page.getByRole('button', { name: 'Create account' }).click();
    await passRecoveryKit(page);
    assert.equal(new URL(page.url()).pathname, '/vault');
    await shot(page, 'shell-1280');

    step('the vault key is a non-extractable CryptoKey; nothing secret in localStorage');
    const stored = await page.evaluate(() => ({ ...localStorage }));
    const saved = JSON.parse(stored['vault.user'] ?? '{}');
    assert.deepEqual(Object.keys(saved).sort(), ['email', 'id', 'token']);
    assert.ok(!JSON.stringify(stored).includes(account.password));

    step('settings: account tab');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'Account' }).click();
    await page.getByText('Member since').waitFor();
    assert.equal(new URL(page.url()).searchParams.get('tab'), 'account');
    await shot(page, 'settings-account-1280');

    step('narrow screen (800 px): the sidebar is a drawer');
    await page.setViewportSize({ width: 800, height: 900 });
    await page.getByRole('link', { name: 'All Notes' }).waitFor({ state: 'hidden' });
    await shot(page, 'shell-800');
    await page.getByRole('button', { name: 'Show navigation' }).click();
    await page.getByRole('link', { name: 'All Notes' }).waitFor();
    await shot(page, 'shell-800-drawer');
    await page.keyboard.press('Escape');
    await page.getByRole('link', { name: 'All Notes' }).waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1280, height: 860 });

    step('reload → unlock step');
    await page.goto(`${BASE_URL}/vault`);
    await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor();
    await shot(page, 'unlock-1280');
    await page.getByLabel('Password', { exact: true }).fill('Wrong-password-1');
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('alert').filter({ hasText: 'Invalid password' }).waitFor({ timeout: 30_000 });
    await shot(page, 'unlock-wrong-1280');
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });

    step('sign out → /login');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    await shot(page, 'sign-in-1280');

    step('sign in with "Stay unlocked on this device"; a reload keeps the vault unlocked');
    await page.getByRole('checkbox', { name: 'Stay unlocked on this device' }).check();
    await submitSignIn(page, account.email, account.password);
    await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
    await page.reload();
    await page.getByRole('heading', { name: 'Personal Vault' }).waitFor();
    const storedKey = (await deviceKeys(page))[0] ?? null;
    assert.deepEqual(storedKey, { type: 'CryptoKey', extractable: false });

    step('sign out clears the stored key');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor();
    assert.equal((await deviceKeys(page)).length, 0);

    step('five wrong passwords → lockout banner with a countdown');
    await page.getByLabel('Username, email or phone').fill(account.username);
    let locked = false;
    for (let attempt = 1; attempt <= 6 && !locked; attempt += 1) {
      await page.getByLabel('Password', { exact: true }).fill(`Wrong-${attempt}-Pass`);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const outcome = await Promise.race([
        page
          .getByText('Account Temporarily Locked')
          .waitFor({ timeout: 30_000 })
          .then(() => 'locked'),
        page
          .getByRole('alert')
          .filter({ hasText: 'Invalid credentials' })
          .waitFor({ timeout: 30_000 })
          .then(() => 'invalid'),
      ]);
      locked = outcome === 'locked';
      if (!locked) await page.waitForFunction(() => !document.querySelector('button[aria-busy="true"]'));
    }
    assert.ok(locked, 'no lockout banner after five wrong passwords');
    const timer = await page.getByRole('timer').textContent();
    assert.match(timer ?? '', /^(09:5\d|10:00)$/);
    assert.ok(await page.getByRole('button', { name: 'Sign in' }).isDisabled());
    await shot(page, 'sign-in-lockout-1280');
    problems.push(...(await cspViolations(page)).map((v) => `main: CSP violation: ${v}`));
    await context.close();

    // A fresh account for the inactivity checks (the first one is locked now). Short timeouts are
    // served for this page: the warning 3 s after the last activity, the sign-out 6 s later.
    const idle = await newPage(browser, { label: 'idle' });
    await idle.page.route('**/env-config.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'window.__VAULT_CONFIG__ = {"inactivityTimeoutMs":9000,"inactivityWarningMs":6000};',
      }),
    );
    const idleAccount = {
      username: `smoke_i${id}`,
      email: `smoke_i${id}@example.org`,
      // Phone numbers are unique: the idle account has its own.
      phone: testAccount('smoke', `i${id}`).phone,
      password: account.password,
      confirm: account.password,
    };

    step('sign-up with a taken username, e-mail, then phone number: the server says so, no account');
    await idle.page.goto(`${BASE_URL}/register`);
    await fillSignUp(idle.page, { ...idleAccount, username: account.username.toUpperCase() });
    await idle.page.getByRole('button', { name: 'Create account' }).click();
    await expectAlert(idle.page, SIGNUP_MESSAGES.usernameTaken, 30_000);
    assert.equal(new URL(idle.page.url()).pathname, '/register');
    await fillSignUp(idle.page, { ...idleAccount, email: account.email.toUpperCase() });
    await idle.page.getByRole('button', { name: 'Create account' }).click();
    await expectAlert(idle.page, SIGNUP_MESSAGES.emailTaken, 30_000);
    assert.equal(new URL(idle.page.url()).pathname, '/register');
    await shot(idle.page, 'sign-up-email-taken-1280');
    // The same number written another way is the same number.
    const samePhone = `+${account.phone.replace(/\D/g, '').replace(/^(\d)(\d{3})/, '$1 ($2) ')}`;
    await fillSignUp(idle.page, { ...idleAccount, phone: samePhone });
    await idle.page.getByRole('button', { name: 'Create account' }).click();
    await expectAlert(idle.page, SIGNUP_MESSAGES.phoneTaken, 30_000);
    assert.equal(new URL(idle.page.url()).pathname, '/register');
    assert.equal(await idle.page.evaluate(() => localStorage.getItem('vault.user')), null);

    step('inactivity: warning → Stay Logged In → warning → Logout Now signs out at once');
    await fillSignUp(idle.page, idleAccount);
    await idle.page.getByRole('button', { name: 'Create account' }).click();
    await passRecoveryKit(idle.page);
    const warning = idle.page.getByRole('alertdialog', { name: 'Session Timeout Warning' });
    await warning.waitFor({ timeout: 15_000 });
    await shot(idle.page, 'inactivity-warning-1280');
    await idle.page.getByRole('button', { name: 'Stay Logged In' }).click();
    await warning.waitFor({ state: 'hidden' });
    assert.equal(new URL(idle.page.url()).pathname, '/vault');
    await warning.waitFor({ timeout: 15_000 });
    const left = await warning.getByRole('timer').textContent();
    assert.match(left ?? '', /^00:0[4-6]$/, `countdown ${left}`);
    const clicked = Date.now();
    await warning.getByRole('button', { name: 'Logout Now' }).click();
    await idle.page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor({ timeout: 3_000 });
    const logoutMs = Date.now() - clicked;
    assert.equal(new URL(idle.page.url()).pathname, '/login');
    // Well before the timeout (at least 4 s were left), and not the timeout's sign-out: no notice.
    assert.ok(logoutMs < 2_500, `Logout Now took ${logoutMs} ms`);
    assert.equal(await idle.page.getByText('You were signed out after').count(), 0);
    assert.equal(await idle.page.evaluate(() => localStorage.getItem('vault.user')), null);
    console.log(`  Logout Now → /login in ${logoutMs} ms`);
    await idle.page.goto(`${BASE_URL}/vault`);
    await idle.page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor();
    assert.equal(new URL(idle.page.url()).pathname, '/login');

    step('inactivity: the warning left alone signs out at the timeout, with a notice');
    await submitSignIn(idle.page, idleAccount.username, idleAccount.password);
    await idle.page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
    await warning.waitFor({ timeout: 15_000 });
    await idle.page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor({ timeout: 15_000 });
    await idle.page.getByText('You were signed out after 9 seconds of inactivity.').waitFor();
    assert.equal(await idle.page.evaluate(() => localStorage.getItem('vault.user')), null);
    await shot(idle.page, 'inactivity-signed-out-1280');
    problems.push(...(await cspViolations(idle.page)).map((v) => `idle: CSP violation: ${v}`));
    await idle.context.close();
  } finally {
    await browser.close();
  }

  if (problems.length > 0) {
    console.error(`\n${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\nweb smoke passed: no CSP violation, page error or third-party request');
}

main().catch((error) => {
  console.error(error);
  if (problems.length) console.error(problems.join('\n'));
  process.exit(1);
});
