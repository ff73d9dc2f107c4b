/* global window, document, performance, MutationObserver */
// The sign-in screen's second steps in headless Chromium against a running stack
// (scripts/browser-e2e.mjs starts one). Accounts are made through the sign-up screen and 2FA is
// turned on through the API (Settings has its own spec); the codes are computed with otplib from
// the otpauth URL's secret.
//   - authenticator code: nothing stored before the step succeeds, the input keeps 6 digits,
//     the empty/short and wrong-code messages, the back link, then the vault with its note;
//   - backup code: the input's A-F/0-9/hyphen filter, the empty and wrong messages, a code that
//     signs in, the low-codes warning that holds /vault back ~3 s, a spent code refused;
//   - emergency verification (the unusual-activity rule of apps/auth/README.md: 3 failed sign-ins,
//     then the right password from a browser family the account has not used): the message, the
//     form with identifier and password carried, its messages, then the vault, or the code step
//     when 2FA is on.
// The lockout banner and its countdown are covered by web-smoke.mjs. No CSP violation, page error
// or third-party request. Screenshots go to OUT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 node apps/e2e/browser/signin-2fa-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { generate } from 'otplib';
import { apiCall, createNote, signUp, startSpec, submitSignIn, testAccount, totpCodes } from './support.mjs';

// Another browser family than headless Chromium's: a device these accounts have never used.
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
const EMERGENCY_MESSAGE =
  'Unusual activity detected. Please verify your identity with additional information.';
/** apps/auth README "Emergency verification": 3 failures in 15 minutes (the stack's defaults). */
const FAILURES_THAT_COUNT = 3;
const started = Date.now();
const spec = await startSpec({ out: '.data/signin-2fa-ui-shots', shotPrefix: 'signin-2fa-', started });
const { base: BASE, step, shot } = spec;

function freshAccount(tag) {
  const suffix = randomBytes(3).toString('hex');
  return {
    ...testAccount('tfa', `${tag}_${suffix}`),
    note: { title: `Second step ${tag} ${suffix}`, content: `Readable after the second step (${suffix}).` },
  };
}

/** JSON over the gateway from Node (User-Agent `node`: its own device family). */
const api = (path, body, token) => apiCall(BASE, path, { body, token });

/** TOTP codes of the first account, each from a step not spent yet (totpCodes); set once it is known. */
let totpSecret = '';
let totp;

/** Failed sign-ins through the API (random keys), the first half of the unusual-activity rule. */
async function failedSignIns(acct, n = FAILURES_THAT_COUNT) {
  for (let i = 0; i < n; i += 1) {
    const res = await api('/auth/login', {
      identifier: acct.username,
      authKey: randomBytes(32).toString('hex'),
    });
    assert.equal(res.status, 401, `a wrong key is refused (got ${res.status})`);
  }
}

/**
 * A browser context of its own (a signed-out device), watched. 4xx answers (wrong codes, the 418)
 * are part of the test: the watcher lets their console lines pass.
 */
async function newPage(label, options = {}) {
  return (await spec.newPage(label, options)).page;
}

/** The vault is open and the note decrypts. */
async function expectVault(page, { title, content }) {
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
  assert.equal(new URL(page.url()).pathname, '/vault');
  await page.getByRole('button', { name: title, exact: true }).click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog');
  assert.equal(await dialog.getByLabel('Content', { exact: true }).inputValue(), content);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

/** Identifier and password on /login; the next screen is up to the caller. */
async function submitCredentials(page, acct) {
  await page.goto(`${BASE}/login`);
  await submitSignIn(page, acct.username, acct.password);
}

async function waitForCodeStep(page) {
  await page.getByText('Enter the 6-digit code from your authenticator app.').waitFor({ timeout: 30_000 });
}

/** The message banner of the current step (waits for it). */
async function expectMessage(page, text) {
  await page.getByText(text, { exact: true }).waitFor({ timeout: 30_000 });
}

/** Nothing of a session on the device: no saved user, no JWT anywhere in storage, no refresh cookie. */
async function expectNoSession(page) {
  const stored = await page.evaluate(() => ({
    local: { ...window.localStorage },
    session: { ...window.sessionStorage },
  }));
  assert.equal(stored.local['vault.user'], undefined, 'no saved user before the second step');
  for (const [area, values] of Object.entries(stored)) {
    for (const [key, value] of Object.entries(values)) {
      assert.doesNotMatch(value, /eyJ[\w-]+\.[\w-]+\.[\w-]+/, `${area} ${key} holds no token`);
    }
  }
  const cookies = await page.context().cookies();
  assert.deepEqual(
    cookies.map((c) => c.name),
    [],
    'no cookie (no refresh token) before the second step',
  );
}

/**
 * Emergency verification for an account without 2FA: failed sign-ins, then the right password
 * from a new browser family. Runs alongside the 2FA checks (another account, another device).
 */
async function emergencyWithoutTwoFactor(b) {
  step('emergency verification: failed sign-ins, then the right password from a new browser family');
  await failedSignIns(b);
  const p4 = await newPage('emergency', { userAgent: FIREFOX_WINDOWS });
  await submitCredentials(p4, b);
  await expectMessage(p4, EMERGENCY_MESSAGE);
  await p4.getByRole('button', { name: 'Verify and sign in' }).waitFor();
  await shot(p4, 'emergency');
  assert.equal(await p4.getByLabel('Username, email or phone', { exact: true }).inputValue(), b.username);
  assert.equal(await p4.getByLabel('Password', { exact: true }).inputValue(), b.password);
  await expectNoSession(p4);
  await p4.getByLabel('Phone number', { exact: true }).fill(b.phone);
  await p4.getByRole('button', { name: 'Verify and sign in' }).click();
  await expectMessage(p4, 'Please fill in all verification fields');
  await p4.getByLabel('Username', { exact: true }).fill(b.username);
  await p4.getByLabel('Phone number', { exact: true }).fill('+1 555 0199');
  await p4.getByRole('button', { name: 'Verify and sign in' }).click();
  await expectMessage(p4, 'Emergency verification failed');
  await expectNoSession(p4);
  // The same number in another notation, the username in another case.
  await p4.getByLabel('Username', { exact: true }).fill(b.username.toUpperCase());
  await p4.getByLabel('Phone number', { exact: true }).fill(`+${b.phone.replace(/\D/g, '')}`);
  await p4.getByRole('button', { name: 'Verify and sign in' }).click();
  await expectVault(p4, b.note);
}

const codeField = (page) => page.getByLabel('Verification code', { exact: true });
const backupField = (page) => page.getByLabel('Backup code', { exact: true });
const verify = (page) => page.getByRole('button', { name: 'Verify', exact: true });

try {
  step('two accounts through the sign-up screen, each with a note; 2FA on for the first (API)');
  const a = freshAccount('totp');
  const b = freshAccount('plain');
  const owner = await newPage('owner');
  const ownerB = await newPage('owner-plain');
  // Both at once: most of a sign-up is waiting for the key derivation and the server.
  await Promise.all([
    signUp(owner, BASE, a).then(() => createNote(owner, a.note)),
    signUp(ownerB, BASE, b).then(() => createNote(ownerB, b.note)),
  ]);
  const token = await owner.evaluate(
    () => JSON.parse(window.localStorage.getItem('vault.user') ?? '{}').token,
  );
  assert.ok(token, 'the signed-up device holds an access token');
  const enabled = await api('/auth/2fa/enable', {}, token);
  assert.equal(enabled.status, 200, `2fa/enable answered ${enabled.status}`);
  const otpauth = new URL(enabled.body.otpauthUrl);
  assert.equal(otpauth.protocol, 'otpauth:');
  totpSecret = otpauth.searchParams.get('secret') ?? '';
  assert.match(totpSecret, /^[A-Z2-7]+=*$/);
  totp = totpCodes(totpSecret);
  const verified = await api('/auth/2fa/verify', { code: await totp() }, token);
  assert.equal(verified.status, 200, `2fa/verify answered ${verified.status}`);
  const backupCodes = verified.body.backupCodes;
  assert.equal(backupCodes.length, 10);
  // Its outcome is awaited at the end; caught here so a failure is reported, not left unhandled.
  const emergencyLane = emergencyWithoutTwoFactor(b).then(
    () => null,
    (error) => error,
  );

  step('authenticator code: the step appears with nothing stored; digits only, at most 6; messages');
  const p1 = await newPage('code');
  await submitCredentials(p1, a);
  await waitForCodeStep(p1);
  await shot(p1, 'code-step');
  await expectNoSession(p1);
  assert.equal(await codeField(p1).getAttribute('inputmode'), 'numeric');
  await codeField(p1).pressSequentially('12ab3-4 5678');
  assert.equal(await codeField(p1).inputValue(), '123456', 'non-digits stripped, at most 6 digits');
  await codeField(p1).fill('');
  await verify(p1).click();
  await expectMessage(p1, 'Please enter the 6-digit verification code');
  await codeField(p1).fill('98x7');
  assert.equal(await codeField(p1).inputValue(), '987');
  await verify(p1).click();
  await expectMessage(p1, 'Please enter the 6-digit verification code');
  // A code that is valid for no step in the window (the current code plus one, mod 10^6).
  const current = await generate({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) });
  await codeField(p1).fill(String((Number(current) + 1) % 1_000_000).padStart(6, '0'));
  await verify(p1).click();
  await expectMessage(p1, 'Invalid verification code');
  await expectNoSession(p1);
  await shot(p1, 'code-invalid');

  step('the right code opens the vault; the note reads');
  await codeField(p1).fill(await totp());
  await verify(p1).click();
  await expectVault(p1, a.note);
  const saved = await p1.evaluate(() => JSON.parse(window.localStorage.getItem('vault.user') ?? '{}'));
  assert.ok(saved.token, 'the user is stored once the step succeeds');

  step('backup code: uppercased, A-F 0-9 and hyphen only, at most 9; messages; a code signs in');
  const p2 = await newPage('backup');
  // The sign-in's authKey, kept (never printed) to spend backup codes through the API below.
  let authKey = '';
  p2.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/auth/login') {
      authKey = r.postDataJSON()?.authKey ?? authKey;
    }
  });
  await submitCredentials(p2, a);
  await waitForCodeStep(p2);
  await p2.getByRole('button', { name: 'Use a backup code instead' }).click();
  await backupField(p2).waitFor();
  assert.equal(await codeField(p2).count(), 0);
  await backupField(p2).pressSequentially('ab12-zz9fk0q77');
  assert.equal(await backupField(p2).inputValue(), 'AB12-9F07');
  await backupField(p2).fill('');
  await verify(p2).click();
  await expectMessage(p2, 'Please enter a backup code');
  await backupField(p2).fill('0000-0000');
  await verify(p2).click();
  await expectMessage(p2, 'Invalid backup code');
  await expectNoSession(p2);
  await shot(p2, 'backup-invalid');
  // Typed in lower case: the field uppercases it.
  await backupField(p2).fill('');
  await backupField(p2).pressSequentially(backupCodes[0].toLowerCase());
  assert.equal(await backupField(p2).inputValue(), backupCodes[0]);
  await verify(p2).click();
  await expectVault(p2, a.note);
  assert.equal(await p2.getByText(/backup codes? left/).count(), 0, 'no warning with 9 codes left');
  assert.match(authKey, /^[0-9a-f]{64}$/, 'the sign-in sent an authKey');

  step('2 codes left: the warning shows and /vault waits ~3 s');
  const spent = await Promise.all(
    backupCodes
      .slice(1, 7)
      .map((code) => api('/auth/2fa/backup-login', { identifier: a.username, authKey, backupCode: code })),
  );
  assert.deepEqual(
    spent.map((r) => r.status),
    [200, 200, 200, 200, 200, 200],
    'six more codes spent through the API',
  );
  const p3 = await newPage('backup-warning');
  await submitCredentials(p3, a);
  await waitForCodeStep(p3);
  await p3.getByRole('button', { name: 'Use a backup code instead' }).click();
  await backupField(p3).fill(backupCodes[7]);
  const warningText = 'You have 2 backup codes left. Generate new ones in Settings.';
  // Timed in the page (its own clock, at the DOM changes) so a busy test process cannot skew it:
  // when the warning first shows, and when the app is first on /vault.
  await p3.evaluate((text) => {
    const seen = () => {
      const now = performance.now();
      if (window.__warnAt === undefined && document.body.textContent?.includes(text)) window.__warnAt = now;
      if (window.__vaultAt === undefined && window.location.pathname === '/vault') window.__vaultAt = now;
    };
    new MutationObserver(seen).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    });
  }, warningText);
  await verify(p3).click();
  await p3.getByText(warningText, { exact: true }).waitFor({ timeout: 30_000 });
  assert.equal(new URL(p3.url()).pathname, '/login', 'still on the sign-in screen with the warning');
  await shot(p3, 'backup-warning');
  await p3.waitForURL((url) => url.pathname === '/vault', { timeout: 30_000 });
  await p3.waitForFunction(() => window.__vaultAt !== undefined);
  const waited = (await p3.evaluate(() => window.__vaultAt - window.__warnAt)) / 1000;
  console.log(`  /vault ${waited.toFixed(2)} s after the warning`);
  assert.ok(waited >= 2.5 && waited <= 6, `navigation waited ${waited} s, not ~3 s`);
  await expectVault(p3, a.note);

  step('emergency verification with 2FA on: then the code step');
  await failedSignIns(a);
  const p5 = await newPage('emergency-2fa', { userAgent: FIREFOX_WINDOWS });
  await submitCredentials(p5, a);
  await expectMessage(p5, EMERGENCY_MESSAGE);
  await p5.getByLabel('Username', { exact: true }).fill(a.username);
  await p5.getByLabel('Phone number', { exact: true }).fill(a.phone);
  await p5.getByRole('button', { name: 'Verify and sign in' }).click();
  await waitForCodeStep(p5);
  assert.equal(await p5.getByText(EMERGENCY_MESSAGE).count(), 0, 'the emergency notice is gone');
  await expectNoSession(p5);
  await shot(p5, 'emergency-then-code');
  await codeField(p5).fill(await totp());
  await verify(p5).click();
  await expectVault(p5, a.note);

  step('a spent backup code is refused the second time');
  const p6 = await newPage('backup-reused');
  await submitCredentials(p6, a);
  await waitForCodeStep(p6);
  await p6.getByRole('button', { name: 'Use a backup code instead' }).click();
  await backupField(p6).fill(backupCodes[7]);
  await verify(p6).click();
  await expectMessage(p6, 'Invalid backup code');
  await expectNoSession(p6);
  // And back to the authenticator: the code field again.
  await p6.getByRole('button', { name: 'Use your authenticator app instead' }).click();
  await codeField(p6).waitFor();

  step('back link: the credentials step again, password cleared');
  await p6.getByRole('button', { name: 'Back to sign in' }).click();
  await p6.getByRole('button', { name: 'Sign in' }).waitFor();
  assert.equal(await p6.getByLabel('Username, email or phone', { exact: true }).inputValue(), a.username);
  assert.equal(await p6.getByLabel('Password', { exact: true }).inputValue(), '');
  assert.equal(await codeField(p6).count(), 0);
  assert.equal(await backupField(p6).count(), 0);
  await expectNoSession(p6);

  const emergencyError = await emergencyLane;
  if (emergencyError) throw emergencyError;

  for (const p of spec.openPages()) await spec.checkCsp(p);
} catch (error) {
  // What each open page showed when it went wrong.
  for (const [i, ctx] of spec.contexts.entries()) {
    for (const p of ctx.pages()) {
      await shot(p, `failure-${i}`).catch(() => {});
      console.log(`  page ${i}: ${p.url()}`);
    }
  }
  throw error;
} finally {
  await spec.close();
}

spec.report();
