/* global window */
// Account recovery in headless Chromium against a running stack (scripts/browser-e2e.mjs starts one):
// the recovery kit after sign-up, then every way back in through /recovery:
//   - recovery key: the vault key comes back, the old note is readable at once;
//   - e-mail code (read from the .eml the local mail transport writes in MAIL_DIR): a new vault key,
//     the old note and the old file show as locked until the old password unlocks them from the
//     vault's banner; then the file's name shows and it downloads with the same bytes;
//   - security questions (set up in Settings): a new vault key as well.
// After each reset that makes a new vault key, the list header and the sidebar count the same notes
// and both say how many are locked (then none, once unlocked).
// Each new password then signs in from a fresh browser. No CSP violation, page error or
// third-party request. Screenshots go to OUT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 MAIL_DIR=.data/mail node apps/e2e/browser/recovery-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  createNote,
  fillSignUp,
  listFiles,
  passRecoveryKit,
  settleLogs,
  startSpec,
  submitSignIn,
  testAccount,
  withoutSaveFilePicker,
} from './support.mjs';

const spec = await startSpec({ out: '.data/recovery-ui-shots' });
const { base: BASE, problems, step, shot } = spec;
const MAIL_DIR = process.env.MAIL_DIR ?? join(process.env.VAULT_DATA_DIR ?? '.data', 'mail');
const LEGACY_BANNER =
  'Some items are locked from before your account reset. Enter your old password to unlock them.';
/** Everything typed that only the device may know: searched for in every service log at the end. */
const secrets = [];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function freshAccount(tag) {
  const suffix = randomBytes(3).toString('hex');
  return { ...testAccount('rec', `${tag}_${suffix}`), newPassword: `New-${tag}-${suffix}-Pass2` };
}

/** A browser context of its own (nothing shared: a signed-out device), watched. */
async function newPage(label) {
  const { page } = await spec.newPage(label, {
    acceptDownloads: true,
    // Downloads take the app's Blob path, which Playwright sees as a download (as in files-ui.mjs).
    initScript: withoutSaveFilePicker,
  });
  return page;
}

/** Sign-up; answers the recovery key the kit shows (and checks the downloaded kit holds it). */
async function signUpWithKit(page, acct) {
  await page.goto(`${BASE}/register`);
  await fillSignUp(page, acct);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Save your recovery key' }).waitFor({ timeout: 30_000 });
  const key = (await page.getByLabel('Recovery key').innerText()).trim();
  assert.match(key, /^([A-Z2-7]{4}-){12}[A-Z2-7]{4}$/, 'the recovery key is 52 base32 characters in groups');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download recovery kit' }).click(),
  ]);
  assert.equal(download.suggestedFilename(), 'vault-recovery-kit.txt');
  const kit = readFileSync(await download.path(), 'utf8');
  assert.ok(kit.includes(key) && kit.includes(`Account email: ${acct.email}`), 'the kit holds the key');
  await passRecoveryKit(page);
  return key;
}

/** Opens a note and checks its content reads back. */
async function expectNote(page, title, content) {
  await page.getByRole('button', { name: title, exact: true }).click({ timeout: 30_000 });
  const dialog = page.getByRole('dialog');
  assert.equal(await dialog.getByLabel('Content', { exact: true }).inputValue(), content);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

const nav = (page) => page.getByRole('navigation', { name: 'Main' });
const fileCard = (page, name) =>
  page.locator('article.file-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

async function openFiles(page) {
  await nav(page)
    .getByRole('link', { name: /File Vault/ })
    .click();
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor();
}

/**
 * The list header 'Notes (n)' and the sidebar's All Notes count show the same number, and both
 * say how many of those notes are locked (the header's '1 locked', the badge's '1 note, 1 locked').
 */
async function expectNoteCounts(page, total, locked) {
  await page.getByRole('heading', { name: `Notes (${total})`, exact: true }).waitFor({ timeout: 30_000 });
  const label = `${total} ${total === 1 ? 'note' : 'notes'}${locked > 0 ? `, ${locked} locked` : ''}`;
  const badge = nav(page).getByLabel(label, { exact: true });
  await badge.waitFor({ timeout: 30_000 });
  assert.equal((await badge.innerText()).trim(), String(total), 'the sidebar shows the same count');
  const headerLocked = page.locator('.vault-notes__locked');
  if (locked > 0) assert.equal((await headerLocked.innerText()).trim(), `${locked} locked`);
  else assert.equal(await headerLocked.count(), 0, 'no locked notes are announced');
}

async function openNotes(page) {
  await nav(page)
    .getByRole('link', { name: /All Notes/ })
    .click();
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
}

/** Uploads one file through the File Vault's dialog and waits for it to close by itself. */
async function uploadFile(page, file) {
  await openFiles(page);
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.waitFor();
  await dialog.locator('input[type="file"]').setInputFiles([file]);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await dialog.getByRole('progressbar', { name: `${file.name}: Completed` }).waitFor({ timeout: 30_000 });
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  await fileCard(page, file.name).waitFor();
}

/** Downloads a file of the File Vault (password prompt) and checks its bytes. */
async function expectDownload(page, file, password) {
  await page.getByRole('button', { name: `Download ${file.name}`, exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Authenticate Download' });
  await prompt.waitFor();
  await prompt.getByLabel('Current Password', { exact: true }).fill(password);
  const downloaded = page.waitForEvent('download', { timeout: 30_000 });
  await prompt.getByRole('button', { name: 'Download', exact: true }).click();
  const d = await downloaded.catch(async (error) => {
    await shot(page, 'download-failed');
    const alert = await prompt
      .getByRole('alert')
      .allInnerTexts()
      .catch(() => []);
    const seen = [alert.join(' | ') || 'no alert', ...problems.slice(-3)].join('; ');
    throw new Error(`no download of ${file.name} (${seen}): ${error.message}`);
  });
  assert.equal(d.suggestedFilename(), file.name);
  assert.ok(readFileSync(await d.path()).equals(file.buffer), 'the downloaded file equals the uploaded one');
  await prompt.waitFor({ state: 'detached' });
}

/** /recovery on a signed-out device: the e-mail, then one of the three ways. */
async function startRecovery(page, acct, way) {
  await page.goto(`${BASE}/recovery`);
  await page.getByRole('heading', { name: 'Recover your account' }).waitFor();
  await page.getByLabel('Email', { exact: true }).fill(acct.email);
  await page.getByRole('button', { name: way }).click();
}

/** The new-password step; `newKey`: the reset makes a new vault key (confirmed first). */
async function setNewPassword(page, acct, { newKey }) {
  await page.getByText('You have 10 minutes to set a new password.').waitFor({ timeout: 60_000 });
  const token = await page.evaluate(() => window.sessionStorage.getItem('recoveryBypassToken'));
  assert.ok(token, 'the bypass token is kept in session storage');
  const temp = await page.evaluate(() => JSON.parse(window.sessionStorage.getItem('recoveryUser') ?? '{}'));
  assert.equal(temp.id, 'temp-recovery');
  await page.getByLabel('New password', { exact: true }).fill(acct.newPassword);
  await page.getByLabel('Confirm new password', { exact: true }).fill(acct.newPassword);
  if (newKey) {
    await page.getByText('A new vault key will be created').waitFor();
    await page.getByRole('checkbox', { name: /stay locked until I enter my old password/ }).check();
    await page.getByRole('button', { name: 'Set new password and create a new vault key' }).click();
  } else {
    await page.getByText('Your vault comes back as it is').waitFor();
    await page.getByRole('button', { name: 'Set new password', exact: true }).click();
  }
  await page.getByRole('heading', { name: 'Account recovered' }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Go to Security Settings' }).waitFor();
  await page.getByRole('button', { name: 'Continue to Vault' }).click();
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.evaluate(() => window.sessionStorage.getItem('recoveryBypassToken')), null);
}

/** The 6-digit code of the newest recovery mail to `email` (the local transport's .eml files). */
async function recoveryCode(email) {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    let files = [];
    try {
      files = readdirSync(MAIL_DIR).filter((f) => f.endsWith('.eml'));
    } catch {
      // The folder appears with the first mail.
    }
    const mails = files
      .sort()
      .map((f) => readFileSync(join(MAIL_DIR, f), 'utf8'))
      .filter((raw) => new RegExp(`^To: .*${email.replace(/[.+]/g, '\\$&')}`, 'mi').test(raw));
    const code = mails.length ? /recovery code is (\d{6})/.exec(mails[mails.length - 1])?.[1] : undefined;
    if (code) return code;
    await sleep(200);
  }
  throw new Error(`no recovery mail reached ${email} in ${MAIL_DIR}`);
}

/** Signs in with the new password from a fresh device. */
async function signInFresh(acct, label) {
  const page = await newPage(label);
  await page.goto(`${BASE}/login`);
  await submitSignIn(page, acct.email, acct.newPassword);
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
  return page;
}

try {
  step('recovery key: sign up with the kit, a note, then recover with the key');
  const a = freshAccount('key');
  const aPage = await newPage('key-owner');
  const key = await signUpWithKit(aPage, a);
  secrets.push(a.password, a.newPassword, key, key.replace(/-/g, ''));
  await createNote(aPage, { title: 'Kept by the key', content: 'still readable after recovery' });
  const aRec = await newPage('key-recovery');
  await startRecovery(aRec, a, 'Recovery Key');
  await aRec.getByLabel('Recovery key', { exact: true }).fill('AAAA-'.repeat(12) + 'AAAA');
  await aRec.getByRole('button', { name: 'Verify recovery key' }).click();
  await aRec.getByText('Invalid recovery key').waitFor({ timeout: 30_000 });
  // Typed loosely: lower case, spaces for dashes.
  await aRec.getByLabel('Recovery key', { exact: true }).fill(key.toLowerCase().replace(/-/g, ' '));
  await aRec.getByRole('button', { name: 'Verify recovery key' }).click();
  await shot(aRec, 'recovery-new-password-key');
  await setNewPassword(aRec, a, { newKey: false });
  await expectNote(aRec, 'Kept by the key', 'still readable after recovery');
  assert.equal(await aRec.getByText(LEGACY_BANNER).count(), 0, 'no legacy banner after a key recovery');
  const aAgain = await signInFresh(a, 'key-signin');
  await expectNote(aAgain, 'Kept by the key', 'still readable after recovery');

  step('e-mail code: a new vault key; the old note and file are locked until the old password unlocks them');
  const b = freshAccount('mail');
  const bPage = await newPage('mail-owner');
  await signUpWithKit(bPage, b);
  secrets.push(b.password, b.newPassword);
  await createNote(bPage, {
    title: 'Sealed before the reset',
    content: 'the old password brings this back',
  });
  const oldFile = {
    name: `before-reset-${randomBytes(3).toString('hex')}.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from(`Uploaded before the reset ${randomBytes(8).toString('hex')}\n`, 'utf8'),
  };
  await uploadFile(bPage, oldFile);
  const bRec = await newPage('mail-recovery');
  await startRecovery(bRec, b, 'Email Recovery Code');
  await bRec.getByLabel('Recovery code', { exact: true }).waitFor();
  const code = await recoveryCode(b.email);
  await bRec.getByLabel('Recovery code', { exact: true }).fill(code);
  await bRec.getByRole('button', { name: 'Verify code' }).click();
  await shot(bRec, 'recovery-new-password-new-key');
  await setNewPassword(bRec, b, { newKey: true });
  await bRec.getByText(LEGACY_BANNER).waitFor({ timeout: 30_000 });
  await bRec.getByRole('heading', { name: 'Locked note' }).waitFor({ timeout: 30_000 });
  await expectNoteCounts(bRec, 1, 1);
  await shot(bRec, 'vault-locked-note');
  // The file's name is sealed under the old key too: a locked card until the unlock.
  await openFiles(bRec);
  await bRec.locator('article.file-card--failed').waitFor({ timeout: 30_000 });
  assert.equal(await fileCard(bRec, oldFile.name).count(), 0, 'the old file is locked before the unlock');
  await shot(bRec, 'files-locked-file');
  await openNotes(bRec);
  await bRec.getByRole('button', { name: 'Unlock', exact: true }).click();
  const dialog = bRec.getByRole('dialog', { name: 'Unlock items from before the reset' });
  await dialog.getByLabel('Old password', { exact: true }).fill('Not-the-old-1');
  await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
  await dialog.getByText('Incorrect password').waitFor({ timeout: 60_000 });
  await dialog.getByLabel('Old password', { exact: true }).fill(b.password);
  await dialog.getByRole('button', { name: 'Unlock', exact: true }).click();
  await bRec.getByText('Unlocked 1 note and 1 file.').waitFor({ timeout: 60_000 });
  await expectNote(bRec, 'Sealed before the reset', 'the old password brings this back');
  await expectNoteCounts(bRec, 1, 0);
  assert.equal(await bRec.getByText(LEGACY_BANNER).count(), 0, 'the banner goes once nothing is locked');
  // The File Vault seen before the unlock picks the re-wrapped key up: the name shows, the bytes match.
  await openFiles(bRec);
  await fileCard(bRec, oldFile.name).waitFor({ timeout: 30_000 });
  assert.equal(await bRec.locator('article.file-card--failed').count(), 0, 'no locked card is left');
  await shot(bRec, 'files-unlocked-file');
  await expectDownload(bRec, oldFile, b.newPassword);
  const bAgain = await signInFresh(b, 'mail-signin');
  await expectNote(bAgain, 'Sealed before the reset', 'the old password brings this back');
  assert.equal(await bAgain.getByText(LEGACY_BANNER).count(), 0, 'the legacy key was deleted');
  await openFiles(bAgain);
  await fileCard(bAgain, oldFile.name).waitFor({ timeout: 30_000 });

  step('security questions: set up in Settings, then recover with the answers');
  const c = freshAccount('questions');
  const cPage = await newPage('questions-owner');
  await signUpWithKit(cPage, c);
  secrets.push(c.password, c.newPassword);
  await createNote(cPage, { title: 'Kept through the questions', content: 'locked after the reset' });
  await cPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await cPage.getByRole('tab', { name: 'Security' }).click();
  const questions = [
    'What was the name of your first pet?',
    'In which city did your parents meet?',
    'What was your first concert?',
  ];
  const answers = ['Biscuit', 'Marseille', 'Daft Punk 2007'];
  secrets.push(...answers, 'marseille');
  const qForm = cPage.getByRole('form', { name: 'Security questions' });
  for (let i = 0; i < 3; i++) {
    await qForm.getByLabel(`Question ${i + 1}`, { exact: true }).fill(questions[i]);
    await qForm.getByLabel(`Answer ${i + 1}`, { exact: true }).fill(answers[i]);
  }
  await qForm.getByRole('button', { name: 'Save questions' }).click();
  await cPage.getByText('Security questions saved.').waitFor({ timeout: 60_000 });
  const cRec = await newPage('questions-recovery');
  await startRecovery(cRec, c, 'Security Questions');
  await cRec.getByRole('heading', { name: 'Answer your security questions' }).waitFor({ timeout: 30_000 });
  await cRec.getByLabel(questions[0], { exact: true }).fill(answers[0]);
  await cRec.getByLabel(questions[1], { exact: true }).fill('Lyon');
  await cRec.getByLabel(questions[2], { exact: true }).fill(answers[2]);
  await cRec.getByRole('button', { name: 'Verify answers' }).click();
  await cRec.getByText('Incorrect answers').waitFor({ timeout: 60_000 });
  // The answers are normalised on the device: case and spaces do not matter.
  await cRec.getByLabel(questions[1], { exact: true }).fill('  marseille ');
  await cRec.getByRole('button', { name: 'Verify answers' }).click();
  await setNewPassword(cRec, c, { newKey: true });
  await cRec.getByRole('heading', { name: 'Locked note' }).waitFor({ timeout: 30_000 });
  await expectNoteCounts(cRec, 1, 1);
  await shot(cRec, 'vault-counts-after-questions-reset');
  const cAgain = await signInFresh(c, 'questions-signin');
  await cAgain.getByRole('heading', { name: 'Locked note' }).waitFor({ timeout: 30_000 });
  await expectNoteCounts(cAgain, 1, 1);

  for (const p of spec.openPages()) await spec.checkCsp(p);
} finally {
  await spec.close();
}

if (process.env.LOG_DIR) {
  step('no password, recovery key or answer in any service log');
  // The services' last lines may still be on their way to the files.
  await settleLogs(BASE, process.env.LOG_DIR);
  for (const file of listFiles(process.env.LOG_DIR)) {
    const text = readFileSync(file, 'utf8');
    for (const secret of secrets) if (text.includes(secret)) problems.push(`${file} contains a secret`);
  }
}
spec.report();
