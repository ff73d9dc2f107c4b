// The vault's core flows through the web tier (scripts/web-tier-e2e.mjs: nginx in front of the
// stack; BASE_URL is nginx): sign up, create a note and read it back after a reload and unlock,
// then upload two files and download them byte for byte: 20 MB to local disk (PUTs of 16 MiB parts
// through nginx's streamed /api/files/blob/) and 12 MB to Cloudinary (the stack's stand-in,
// reached through the gateway), whose chunks but the last must hold at least 5 MiB, so the web
// app's first, smaller part must too. No CSP violation, page error or third-party request.
//
//   BASE_URL=… DATABASE_URL=… node apps/e2e/browser/web-tier-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createNote, signUp, startSpec, testAccount, withoutSaveFilePicker } from './support.mjs';

const { DATABASE_URL } = process.env;
if (!DATABASE_URL) throw new Error('DATABASE_URL is required (scripts/web-tier-e2e.mjs passes it)');
const spec = await startSpec({ out: '.data/web-tier-shots' });
const { base: BASE, out: OUT, step, shot } = spec;
const id = randomBytes(3).toString('hex');
const account = testAccount('webtier', id);

// Random bytes do not compress: what crosses nginx is as large as the file (plus the tags).
const big = { name: `archive-${id}.zip`, mimeType: 'application/zip', buffer: randomBytes(20 * 1024 * 1024) };
const medium = {
  name: `scans-${id}.zip`,
  mimeType: 'application/zip',
  buffer: randomBytes(12 * 1024 * 1024),
};

const nav = (page) => page.getByRole('navigation', { name: 'Main' });

async function upload(page, file, storage) {
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.waitFor();
  if (storage) await dialog.getByRole('radio', { name: storage }).check();
  await dialog.locator('input[type="file"]').setInputFiles([file]);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await dialog.getByRole('progressbar', { name: `${file.name}: Completed` }).waitFor({ timeout: 90_000 });
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
}

async function download(page, file) {
  const downloaded = page.waitForEvent('download', { timeout: 90_000 });
  await page.getByRole('button', { name: `Download ${file.name}`, exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Authenticate Download' });
  await prompt.getByLabel('Current Password', { exact: true }).fill(account.password);
  await prompt.getByRole('button', { name: 'Download', exact: true }).click();
  const d = await downloaded;
  const saved = join(OUT, `downloaded-${file.name}`);
  await d.saveAs(saved);
  assert.ok(readFileSync(saved).equals(file.buffer), `${file.name}: the download differs from the upload`);
}

const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
try {
  const { page } = await spec.newPage('main', { acceptDownloads: true, initScript: withoutSaveFilePicker });
  const parts = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && new URL(r.url()).pathname.startsWith('/api/files/blob/'))
      parts.push(r.headers()['content-range'] ?? 'whole');
  });

  step('sign up through nginx');
  await signUp(page, BASE, account);
  assert.equal(new URL(page.url()).origin, BASE);

  step('create a note; after a reload and unlock it reads back');
  const title = `Web tier ${id}`;
  await createNote(page, { title, tags: ['nginx'], content: `Served through nginx ${id}` });
  await page.reload();
  await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor();
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('button', { name: title, exact: true }).waitFor({ timeout: 30_000 });
  await shot(page, 'note-after-unlock-1280', false);

  step('upload 20 MB to local disk: 16 MiB parts streamed through nginx');
  await nav(page)
    .getByRole('link', { name: /File Vault/ })
    .click();
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor();
  const t0 = Date.now();
  await upload(page, big, 'Local disk');
  console.log(`  20 MB uploaded in ${((Date.now() - t0) / 1000).toFixed(1)} s, PUTs: ${parts.join(' | ')}`);
  assert.ok(parts.length >= 2, `the upload went in ${parts.length} PUT(s), not in parts`);

  step("upload 12 MB to Cloudinary (the stack's stand-in, through the gateway) in parts of at least 5 MiB");
  parts.length = 0;
  await upload(page, medium, 'Cloudinary');
  console.log(`  PUTs to Cloudinary: ${parts.join(' | ')}`);
  assert.ok(parts.length >= 2, `the Cloudinary upload went in ${parts.length} PUT(s), not in parts`);
  for (const range of parts.slice(0, -1)) {
    const [, first, last] = /^bytes (\d+)-(\d+)\//.exec(range) ?? [];
    assert.ok(
      Number(last) - Number(first) + 1 >= 5 * 1024 * 1024,
      `a part that is not the last is short: ${range}`,
    );
  }
  const { rows } = await db.query(
    "SELECT size, storage_type FROM files.files WHERE status = 'active' ORDER BY size DESC",
  );
  assert.deepEqual(
    rows.map((r) => [Number(r.size), r.storage_type]),
    [
      [big.buffer.length, 'local'],
      [medium.buffer.length, 'cloudinary'],
    ],
  );
  await shot(page, 'files-1280', false);

  step('download both: the same bytes');
  const t1 = Date.now();
  await download(page, big);
  console.log(`  20 MB downloaded and decrypted in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
  await download(page, medium);

  for (const p of spec.openPages()) await spec.checkCsp(p, 'main');
} finally {
  await db.end();
  await spec.close();
}
spec.report();
