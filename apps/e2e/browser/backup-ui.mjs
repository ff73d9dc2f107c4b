// The browser half of the backup test (scripts/backup-e2e.mjs runs it twice around a backup, a
// wipe and a restore). PHASE=seed: sign up through the app's screens, create a note, upload one
// file to each store (local disk, S3, Cloudinary), and write what was made to STATE_FILE.
// PHASE=verify: in a new browser, sign in with the same password, open the note and read it,
// download every file and compare it byte for byte. No CSP violation, page error or third-party
// request (except the S3 stand-in, which browsers reach directly by design).
//
//   PHASE=seed|verify STATE_FILE=… BASE_URL=… S3_PUBLIC_ENDPOINT=… node apps/e2e/browser/backup-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import {
  createNote,
  signUp,
  startSpec,
  submitSignIn,
  testAccount,
  withoutSaveFilePicker,
} from './support.mjs';

const { PHASE, STATE_FILE, S3_PUBLIC_ENDPOINT } = process.env;
if (!['seed', 'verify'].includes(PHASE ?? '')) throw new Error('PHASE must be seed or verify');
if (!STATE_FILE) throw new Error('STATE_FILE is required (scripts/backup-e2e.mjs passes it)');
const spec = await startSpec({ out: '.data/backup-shots', shotPrefix: `${PHASE}-` });
const { base: BASE, out: OUT, step, shot, problems } = spec;

const nav = (page) => page.getByRole('navigation', { name: 'Main' });

async function openFiles(page) {
  await nav(page)
    .getByRole('link', { name: /File Vault/ })
    .click();
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor({ timeout: 30_000 });
}

async function upload(page, file) {
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.waitFor();
  await dialog.getByRole('radio', { name: file.storage }).check();
  await dialog.locator('input[type="file"]').setInputFiles([file]);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await dialog.getByRole('progressbar', { name: `${file.name}: Completed` }).waitFor({ timeout: 60_000 });
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
}

async function download(page, file, password) {
  const downloaded = page.waitForEvent('download', { timeout: 60_000 });
  await page.getByRole('button', { name: `Download ${file.name}`, exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Authenticate Download' });
  await prompt.getByLabel('Current Password', { exact: true }).fill(password);
  await prompt.getByRole('button', { name: 'Download', exact: true }).click();
  const saved = join(OUT, `restored-${file.name}`);
  await (await downloaded).saveAs(saved);
  return readFileSync(saved);
}

async function seed(page) {
  const id = randomBytes(3).toString('hex');
  const account = testAccount('backup', id);
  const note = {
    title: `Backed up ${id}`,
    content: `What the backup keeps, ${id}: ${'words, '.repeat(40)}the end.`,
  };
  // Random bytes (as zip files: the app takes only some types): nothing in a store could be
  // mistaken for them.
  const files = [
    { storage: 'Local disk', name: `local-${id}.zip`, mimeType: 'application/zip', bytes: 1536 * 1024 },
    { storage: 'S3 / R2 / MinIO', name: `s3-${id}.zip`, mimeType: 'application/zip', bytes: 300 * 1024 },
    { storage: 'Cloudinary', name: `cloudinary-${id}.txt`, mimeType: 'text/plain', bytes: 20 * 1024 },
  ].map((f) => ({ ...f, buffer: randomBytes(f.bytes) }));

  step('sign up, create a note');
  await signUp(page, BASE, account);
  await createNote(page, { title: note.title, tags: ['backup'], content: note.content });

  step('upload one file to each store');
  await openFiles(page);
  for (const file of files) await upload(page, file);
  await shot(page, 'files-1280', false);

  mkdirSync(dirname(STATE_FILE), { recursive: true });
  const saved = files.map(({ buffer, ...f }) => {
    const path = join(dirname(STATE_FILE), f.name);
    writeFileSync(path, buffer);
    return { ...f, path };
  });
  writeFileSync(STATE_FILE, JSON.stringify({ account, note, files: saved }, null, 2));
}

async function verify(page) {
  const { account, note, files } = JSON.parse(readFileSync(STATE_FILE, 'utf8'));

  step('a new browser signs in with the same password');
  await page.goto(`${BASE}/login`);
  await submitSignIn(page, account.username, account.password);
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });

  step('the note opens and reads as written');
  await page.getByRole('button', { name: note.title, exact: true }).click();
  const opened = page.getByRole('dialog');
  assert.equal(await opened.getByLabel('Content', { exact: true }).inputValue(), note.content);
  await shot(page, 'note-1280', false);
  await opened.getByRole('button', { name: 'Close' }).first().click();
  await opened.waitFor({ state: 'detached' });

  step('every file downloads, byte for byte');
  await openFiles(page);
  for (const file of files) {
    const got = await download(page, file, account.password);
    assert.ok(
      got.equals(readFileSync(file.path)),
      `${file.name} (${file.storage}) differs after the restore`,
    );
    console.log(`  ${file.name}: ${got.length} bytes, identical`);
  }
}

try {
  const { page } = await spec.newPage(PHASE, { acceptDownloads: true, initScript: withoutSaveFilePicker });
  await (PHASE === 'seed' ? seed(page) : verify(page));
  for (const p of spec.openPages()) await spec.checkCsp(p, PHASE);
} catch (error) {
  for (const p of spec.openPages()) {
    await p.screenshot({ path: join(OUT, `${PHASE}-failure.png`), fullPage: true }).catch(() => {});
  }
  throw error;
} finally {
  await spec.close();
}
// Browsers PUT and GET the S3 stand-in's presigned URLs directly: that origin is the store's.
const s3Origin = S3_PUBLIC_ENDPOINT ? new URL(S3_PUBLIC_ENDPOINT).origin : undefined;
const kept = problems.filter((p) => !(s3Origin && p.includes(`third-party: ${s3Origin}/`)));
problems.splice(0, problems.length, ...kept);
spec.report();
