/* global document */
// The Settings screen in headless Chromium against a running stack (scripts/browser-e2e.mjs starts
// one): two-step verification set up by reading the QR code the page drew (its pixels decoded with
// jsQR, the code computed with otplib), the backup codes shown once and downloaded; security
// questions saved (and then accepted by the recovery screen with answers typed differently); a
// recovery key made (and then used on the recovery screen: the vault comes back, the note still
// decrypts); the devices list; the password changed on the device, then a sign-in with the new
// password and a backup code; backup codes regenerated and 2FA disabled with the password; the
// malware-fingerprint opt-in; finally the account deleted, after which its credentials no longer
// sign in. No CSP violation, page error or third-party request (the QR code is drawn in the
// browser, never by an image service).
//
//   BASE_URL=http://127.0.0.1:8080 node apps/e2e/browser/settings-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { generate } from 'otplib';
import { createNote, signUp, startSpec, submitSignIn, testAccount } from './support.mjs';

const spec = await startSpec({ out: '.data/settings-ui-shots', shotPrefix: 'settings-' });
const { base: BASE, out: OUT, problems, step, shot } = spec;
const id = randomBytes(3).toString('hex');
const account = testAccount('settings', id);
const newPassword = `Changed-${id}-Pass2`;
const recoveredPassword = `Recovered-${id}-Pass3`;
const note = {
  title: `Travel plans ${id}`,
  content: 'Train to Lyon on Friday 08:12, seat 42, then the museum of miniatures.',
};

const nav = (page) => page.getByRole('navigation', { name: 'Main' });

/** Settings through the app's own links (a page load would lock the vault). */
async function openSettings(page, tab) {
  await nav(page).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: tab }).click();
}

/** The QR code's pixels, read from a canvas it is drawn on in the page, decoded here with jsQR. */
async function readQrCode(page) {
  const img = page.getByTestId('totp-qr');
  await img.waitFor();
  const pixels = await img.evaluate(async (el) => {
    await el.decode();
    const size = 400;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size, size);
    ctx.drawImage(el, 0, 0, size, size);
    return { width: size, height: size, data: Array.from(ctx.getImageData(0, 0, size, size).data) };
  });
  const decoded = jsQR(Uint8ClampedArray.from(pixels.data), pixels.width, pixels.height);
  assert.ok(decoded, 'the QR code on the page decodes');
  return decoded.data;
}

async function readDownload(download) {
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

try {
  const { page } = await spec.newPage('main', { acceptDownloads: true });
  const pagesToCheck = [page];

  step('sign up and write a note');
  await signUp(page, BASE, account);
  await createNote(page, note);

  step('Account tab: the real creation date, 2FA off');
  await openSettings(page, 'Account');
  // Formatted by the browser, in its own locale, as the page does.
  const today = await page.evaluate(() =>
    new Date().toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' }),
  );
  await page.locator('time').filter({ hasText: today }).waitFor();
  assert.equal(await page.getByText('Demo', { exact: true }).count(), 0);
  await page.getByText('Disabled', { exact: true }).waitFor();

  step('2FA: Enable, decode the QR code from its pixels, verify with a TOTP code');
  await page.getByRole('link', { name: 'Manage' }).click();
  await page.getByRole('tab', { name: 'Security', selected: true }).waitFor();
  await page.getByRole('button', { name: 'Enable 2FA' }).click();
  const otpauthUrl = await readQrCode(page);
  const url = new URL(otpauthUrl);
  assert.equal(url.protocol, 'otpauth:');
  const secret = url.searchParams.get('secret');
  assert.match(secret, /^[A-Z2-7]+=*$/);
  assert.match(decodeURIComponent(url.pathname), new RegExp(account.email.replace(/\./g, '\\.')));
  // The key shown for typing by hand is the same secret.
  const shown = (await page.getByTestId('totp-secret').textContent()).replace(/\s+/g, '');
  assert.equal(shown, secret.replace(/=+$/, ''));
  await shot(page, '2fa-setup');
  const verify = page.getByRole('button', { name: 'Verify and enable' });
  assert.ok(await verify.isDisabled(), 'Verify is off until 6 digits are typed');
  await page.getByLabel('Verification code').fill('000000');
  await verify.click();
  // 000000 is almost never the current code; when it is, the next check simply passes.
  const codeField = page.getByLabel('Verification code');
  await page
    .getByText('Invalid verification code')
    .or(page.getByTestId('backup-codes'))
    .first()
    .waitFor({ timeout: 15_000 });
  if (await codeField.isVisible()) {
    await codeField.fill(await generate({ secret }));
    await verify.click();
  }
  const codeList = page.getByTestId('backup-codes');
  await codeList.waitFor({ timeout: 15_000 });
  const codes = await codeList.locator('li').allTextContents();
  assert.equal(codes.length, 10);
  for (const c of codes) assert.match(c, /^[A-F0-9]{4}-[A-F0-9]{4}$/);
  await shot(page, '2fa-backup-codes');

  step('backup codes: Download (.txt) holds all ten, then they are gone from the page');
  const [codesFile] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download (.txt)' }).click(),
  ]);
  const downloadedCodes = await readDownload(codesFile);
  assert.match(downloadedCodes.name, /^vault-backup-codes-\d{4}-\d{2}-\d{2}\.txt$/);
  for (const c of codes) assert.ok(downloadedCodes.text.includes(c));
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await page.getByRole('button', { name: 'Disable 2FA' }).waitFor();
  assert.equal(await page.getByTestId('backup-codes').count(), 0);
  await page.getByTestId('backup-codes-info').filter({ hasText: '10 of 10' }).waitFor();

  step('security questions: counters, then saved (answers hashed on the device)');
  const questions = [
    'What was the name of your first pet?',
    'In which city did your parents meet?',
    'What was your first concert?',
  ];
  const answers = ['Biscuit', 'Marseille', 'Daft Punk 2007'];
  const qForm = page.getByRole('form', { name: 'Security questions' });
  for (let i = 0; i < 3; i++) {
    await qForm.getByLabel(`Question ${i + 1}`, { exact: true }).fill(questions[i]);
    await qForm.getByLabel(`Answer ${i + 1}`, { exact: true }).fill(answers[i]);
  }
  await qForm.getByText(`${questions[2].length}/10`).waitFor();
  await qForm.getByRole('button', { name: 'Save questions' }).click();
  await page.getByText('Security questions saved.').waitFor({ timeout: 30_000 });
  const listed = await page
    .getByRole('list', { name: 'Your security questions' })
    .locator('li')
    .allTextContents();
  assert.deepEqual(listed, questions);

  step('recovery key: made on the device, shown once, kit downloaded');
  const keyForm = page.getByRole('form', { name: 'Create recovery key' });
  await keyForm.getByLabel('Password', { exact: true }).fill(account.password);
  await keyForm.getByRole('button', { name: 'Create recovery key' }).click();
  const keyText = (await page.getByTestId('recovery-key').textContent({ timeout: 30_000 })).trim();
  assert.match(keyText.replace(/-/g, ''), /^[A-Z2-7]{52}$/);
  const [kitFile] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('group', { name: 'Your recovery key' })
      .getByRole('button', { name: 'Download (.txt)' })
      .click(),
  ]);
  const kit = await readDownload(kitFile);
  assert.ok(kit.text.includes(keyText));
  assert.ok(kit.text.includes(account.email));
  await page.getByRole('button', { name: 'I have saved my recovery key' }).click();

  step('devices: this one is listed and marked');
  const devices = page.getByRole('list', { name: 'Signed-in devices' });
  await devices.getByText('This device').waitFor();
  assert.match(await devices.textContent(), /Chrome \d+ on Linux/);

  step('change password: re-wrapped on the device');
  const pwForm = page.getByRole('form', { name: 'Change password' });
  await pwForm.getByLabel('Current password', { exact: true }).fill(account.password);
  await pwForm.getByLabel('New password', { exact: true }).fill(newPassword);
  await pwForm.getByLabel('Confirm new password', { exact: true }).fill(`${newPassword}x`);
  await pwForm.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('New passwords do not match').waitFor();
  await pwForm.getByLabel('Confirm new password', { exact: true }).fill(newPassword);
  await pwForm.getByRole('button', { name: 'Change password' }).click();
  await page.getByText('Password changed successfully').waitFor({ timeout: 30_000 });
  await shot(page, 'security-after');

  step('sign out, sign in with the new password and a backup code; the note still decrypts');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor();
  await submitSignIn(page, account.email, account.password);
  await page.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Two-step verification', level: 1 }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Use a backup code instead' }).click();
  await page.getByLabel('Backup code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: note.title, exact: true }).click();
  const opened = page.getByRole('dialog');
  assert.equal(await opened.getByLabel('Content', { exact: true }).inputValue(), note.content);
  await opened.getByRole('button', { name: 'Close' }).first().click();
  await opened.waitFor({ state: 'detached' });

  step('backup codes: one used; Regenerate with the password shows ten new ones');
  await openSettings(page, 'Security');
  await page.getByTestId('backup-codes-info').filter({ hasText: '9 of 10' }).waitFor();
  await page.getByRole('button', { name: 'Regenerate codes' }).click();
  const regen = page.getByRole('alertdialog', { name: 'Regenerate backup codes?' });
  await regen.getByText('This will invalidate all existing codes').waitFor();
  await regen.getByRole('radio', { name: 'My password' }).check();
  await regen.getByLabel('Password', { exact: true }).fill(newPassword);
  await regen.getByRole('button', { name: 'Regenerate' }).click();
  await regen.waitFor({ state: 'detached', timeout: 30_000 });
  const fresh = await page.getByTestId('backup-codes').locator('li').allTextContents();
  assert.equal(fresh.length, 10);
  assert.equal(
    fresh.filter((c) => codes.includes(c)).length,
    0,
    'the new codes share nothing with the old ones',
  );
  await page.getByRole('button', { name: 'I have saved my codes' }).click();
  await page.getByTestId('backup-codes-info').filter({ hasText: '10 of 10' }).waitFor();

  step('2FA: Disable with the password; the Account tab says Disabled');
  await page.getByRole('button', { name: 'Disable 2FA' }).click();
  const disable = page.getByRole('alertdialog', { name: 'Disable two-step verification?' });
  await disable.getByRole('radio', { name: 'My password' }).check();
  await disable.getByLabel('Password', { exact: true }).fill(newPassword);
  await disable.getByRole('button', { name: 'Disable 2FA' }).click();
  await page.getByText('Two-step verification is off.').waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Enable 2FA' }).waitFor();
  await page.getByRole('tab', { name: 'Account' }).click();
  await page.getByText('Disabled', { exact: true }).waitFor();

  step('the saved security questions verify on the recovery screen (answers typed differently)');
  const questionsRun = await spec.newPage('questions');
  await questionsRun.page.goto(`${BASE}/recovery`);
  await questionsRun.page.getByLabel('Email', { exact: true }).fill(account.email);
  await questionsRun.page.getByRole('button', { name: 'Security Questions' }).click();
  const typedAnswers = ['  BISCUIT ', 'marseille', 'daft   punk 2007'];
  for (let i = 0; i < 3; i++) {
    await questionsRun.page.getByLabel(questions[i], { exact: true }).fill(typedAnswers[i]);
  }
  await questionsRun.page.getByRole('button', { name: 'Verify answers' }).click();
  // The new-password step follows only when answersAuth matched what Settings stored.
  await questionsRun.page.getByLabel('New password', { exact: true }).waitFor({ timeout: 30_000 });
  await spec.checkCsp(questionsRun.page, 'questions');
  await questionsRun.context.close();

  step('the recovery key made in Settings brings the vault back: new password, the note still decrypts');
  const keyRun = await spec.newPage('recovery-key');
  const recover = keyRun.page;
  await recover.goto(`${BASE}/recovery`);
  await recover.getByLabel('Email', { exact: true }).waitFor({ timeout: 60_000 });
  await recover.getByLabel('Email', { exact: true }).fill(account.email);
  await recover.getByRole('button', { name: 'Recovery Key' }).click();
  await recover.getByLabel('Recovery key', { exact: true }).fill(keyText.toLowerCase());
  await recover.getByRole('button', { name: 'Verify recovery key' }).click();
  await recover.getByText('Your vault comes back as it is').waitFor({ timeout: 30_000 });
  await recover.getByLabel('New password', { exact: true }).fill(recoveredPassword);
  await recover.getByLabel('Confirm new password', { exact: true }).fill(recoveredPassword);
  await recover.getByRole('button', { name: 'Set new password', exact: true }).click();
  await recover.getByText('Recovery successful').waitFor({ timeout: 30_000 });
  await recover.getByRole('button', { name: 'Continue to Vault' }).click();
  await recover.getByRole('button', { name: note.title, exact: true }).click({ timeout: 30_000 });
  const reopened = recover.getByRole('dialog');
  assert.equal(await reopened.getByLabel('Content', { exact: true }).inputValue(), note.content);
  await reopened.getByRole('button', { name: 'Close' }).first().click();
  await reopened.waitFor({ state: 'detached' });
  pagesToCheck.push(recover);

  step('malware-fingerprint check: off by default; turned on, as the server then answers');
  await openSettings(recover, 'Data & Privacy');
  const malware = recover.getByRole('checkbox', {
    name: 'Check my uploads against known malware fingerprints',
  });
  await malware.waitFor();
  assert.equal(await malware.isChecked(), false);
  // The box follows the server: after the PUT the page reads GET /api/auth/settings again.
  const saved = recover.waitForResponse(
    (r) => r.url().endsWith('/api/auth/settings') && r.request().method() === 'GET' && r.status() === 200,
  );
  // click, not check: the box is controlled by the server's answer, so it flips a moment later.
  await malware.click();
  assert.deepEqual(await (await saved).json(), { malwareFingerprintCheck: true });
  await recover
    .getByRole('checkbox', { name: 'Check my uploads against known malware fingerprints', checked: true })
    .waitFor();

  step('delete account: password and typed confirmation, then /login with a notice');
  await recover.getByRole('button', { name: 'Delete Account' }).click();
  const confirm = recover.getByRole('alertdialog', { name: 'Delete your account?' });
  await confirm.getByLabel('Password', { exact: true }).fill(recoveredPassword);
  const deleteButton = confirm.getByRole('button', { name: 'Delete my account' });
  assert.ok(await deleteButton.isDisabled(), 'Delete waits for the typed confirmation');
  await confirm.getByLabel(/^Type DELETE/).fill('DELETE');
  await shot(recover, 'delete-account');
  await deleteButton.click();
  await recover.getByRole('heading', { name: 'Sign in to your vault' }).waitFor({ timeout: 30_000 });
  await recover.getByText('Your account and everything in it have been deleted.').waitFor();
  await submitSignIn(recover, account.email, recoveredPassword);
  await recover.getByRole('alert').filter({ hasText: 'Invalid credentials' }).waitFor({ timeout: 30_000 });

  for (const p of pagesToCheck) await spec.checkCsp(p);
  assert.deepEqual(problems, [], problems.join('\n'));
  console.log('settings-ui: all steps passed');
} catch (error) {
  // What each page showed when it failed, and what went wrong in it on the way.
  for (const [i, ctx] of spec.browser.contexts().entries()) {
    for (const [j, p] of ctx.pages().entries()) {
      await p
        .screenshot({ path: join(OUT, `settings-failure-${i}-${j}.png`), fullPage: true })
        .catch(() => {});
    }
  }
  if (problems.length) console.error(problems.join('\n'));
  throw error;
} finally {
  await spec.close();
}
