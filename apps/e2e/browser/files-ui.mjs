/* global document */
// The File Vault in headless Chromium against a running stack (scripts/browser-e2e.mjs starts one):
// sign up, upload a PNG, a PDF and a text file at once with tags (a video is refused: the File
// Vault does not accept video), search and the tag filter, preview (image zoom/rotate, PDF, text)
// behind the password prompt, a download compared byte for byte, a wrong password, delete →
// Trash → restore → permanent delete → Empty Trash, and a stored object with one byte flipped
// (local disk storage) that must fail both download and preview; the local disk refusing an upload
// (the row shows the storage's message, the same file uploaded again completes). No CSP
// violation, page error or third-party request. Screenshots go to OUT_DIR.
//
//   BASE_URL=… DATABASE_URL=… STORAGE_LOCAL_ROOT=… node apps/e2e/browser/files-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import pg from 'pg';
import { makePdf, signUp, startSpec, testAccount, withoutSaveFilePicker } from './support.mjs';

const { DATABASE_URL, STORAGE_LOCAL_ROOT } = process.env;
for (const [name, value] of Object.entries({ DATABASE_URL, STORAGE_LOCAL_ROOT }))
  if (!value) throw new Error(`${name} is required (scripts/browser-e2e.mjs passes it)`);
const spec = await startSpec({ out: '.data/files-ui-shots' });
const { base: BASE, out: OUT, step, shot } = spec;
const id = randomBytes(3).toString('hex');
const account = testAccount('files', id);

// ---- the files ----------------------------------------------------------------------------------

/** A real PNG (RGB, 8 bits, a colour gradient): signature, IHDR, one IDAT, IEND. */
function makePng(width, height) {
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      raw[row + 1 + x * 3] = Math.round((x / width) * 255);
      raw[row + 2 + x * 3] = Math.round((y / height) * 255);
      raw[row + 3 + x * 3] = 160;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const png = { name: `sunset-${id}.png`, mimeType: 'image/png', buffer: makePng(64, 48) };
const pdf = {
  name: `contract-${id}.pdf`,
  mimeType: 'application/pdf',
  buffer: makePdf('Vault e2e contract'),
};
const textContent = `Packing list ${id}\n- passport\n- charger\n- umbrella (ünïcödé ✓)\n`;
const txt = { name: `packing-${id}.txt`, mimeType: 'text/plain', buffer: Buffer.from(textContent, 'utf8') };
// Not a real video (the File Vault's allowed types have none): it must be refused as it is added.
const video = { name: `clip-${id}.mp4`, mimeType: 'video/mp4', buffer: Buffer.from('not really a video') };
const tamperText = `Tamper target ${id}\n${'0123456789abcdef'.repeat(256)}`;
const refused = { name: `receipt-${id}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`Receipt ${id}\n`) };
const tamper = {
  name: `ledger-${id}.txt`,
  mimeType: 'text/plain',
  buffer: Buffer.from(tamperText, 'utf8'),
};

// ---- helpers ------------------------------------------------------------------------------------

const card = (page, name) =>
  page.locator('article.file-card').filter({ has: page.getByRole('heading', { name, exact: true }) });

async function countCards(page, n) {
  await page.waitForFunction((count) => document.querySelectorAll('article.file-card').length === count, n);
}

/** Upload through the dialog: storage, tags, the files, then Upload; waits for the auto-close. */
async function upload(page, files, { tags = '', storage } = {}) {
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.waitFor();
  if (storage) await dialog.getByRole('radio', { name: storage }).check();
  await dialog.getByLabel('Tags (optional)').fill(tags);
  await dialog.locator('input[type="file"]').setInputFiles(files);
  return dialog;
}

async function waitUploaded(page, dialog, names) {
  for (const name of names)
    await dialog.getByRole('progressbar', { name: `${name}: Completed` }).waitFor({ timeout: 30_000 });
  // Spec section 4: it closes by itself 2 s after the last upload finished.
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
}

/** Password prompt → the password → submit. */
async function authenticate(page, title, action, password) {
  const prompt = page.getByRole('dialog', { name: title });
  await prompt.waitFor();
  await prompt.getByLabel('Current Password', { exact: true }).fill(password);
  await prompt.getByRole('button', { name: action, exact: true }).click();
  return prompt;
}

async function openPreview(page, name) {
  await page.getByRole('button', { name: `Preview ${name}`, exact: true }).click();
  const prompt = await authenticate(page, 'Authenticate Preview', 'Preview', account.password);
  await prompt.waitFor({ state: 'detached', timeout: 20_000 });
  const modal = page.getByRole('dialog', { name });
  await modal.waitFor();
  return modal;
}

async function closePreview(page, modal) {
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });
}

async function deleteToTrash(page, name) {
  await page.getByRole('button', { name: `Delete ${name}`, exact: true }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Move to trash' });
  await confirm
    .getByText('Are you sure you want to delete this file? It will be moved to trash.', { exact: true })
    .waitFor();
  await confirm.getByRole('button', { name: 'Move to trash' }).click();
  await confirm.waitFor({ state: 'detached' });
  await card(page, name).waitFor({ state: 'detached' });
}

const nav = (page) => page.getByRole('navigation', { name: 'Main' });
const openFiles = async (page) => {
  await nav(page)
    .getByRole('link', { name: /File Vault/ })
    .click();
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor();
};
const openTrash = async (page) => {
  await nav(page).getByRole('link', { name: /Trash/ }).click();
  await page.getByRole('heading', { name: /^Trash \(\d+\)$/ }).waitFor();
};

// ---- the run ------------------------------------------------------------------------------------

const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
const started = Date.now();
try {
  const { page } = await spec.newPage('main', {
    acceptDownloads: true,
    // Downloads take the app's Blob path (a `download` event here), as in Firefox and Safari.
    initScript: withoutSaveFilePicker,
  });
  const downloads = [];
  page.on('download', (d) => downloads.push(d));

  step('sign up');
  await signUp(page, BASE, account);

  step('open File Vault');
  await openFiles(page);
  await page.getByRole('heading', { name: 'File Vault (0)' }).waitFor({ timeout: 15_000 });
  await page.getByText('No files uploaded').waitFor();
  await shot(page, 'files-empty-1280');

  step('upload a PNG, a PDF and a text file at once with tags; a video is refused');
  let dialog = await upload(page, [png, pdf, txt, video], { tags: ' travel, docs ,2026 ' });
  await dialog.getByText(`File type video/mp4 is not allowed`, { exact: true }).waitFor();
  await dialog.getByRole('button', { name: `Remove ${video.name}` }).click();
  await dialog.getByText(video.name).waitFor({ state: 'detached' });
  await shot(page, 'upload-dialog-1280', false);
  await dialog.getByRole('button', { name: 'Upload 3 files' }).click();
  await waitUploaded(page, dialog, [png.name, pdf.name, txt.name]);
  await page.getByRole('heading', { name: 'File Vault (3)' }).waitFor();
  await countCards(page, 3);
  for (const f of [png, pdf, txt]) {
    const tags = await card(page, f.name).getByRole('list', { name: 'Tags' }).locator('li').allInnerTexts();
    assert.deepEqual(tags.sort(), ['2026', 'docs', 'travel'], `tags of ${f.name}`);
  }
  // The image's card shows its decrypted thumbnail, inside the card's picture area.
  const thumb = card(page, png.name).locator('img.file-card__thumb');
  await thumb.waitFor({ timeout: 15_000 });
  const media = await card(page, png.name).locator('.file-card__media').boundingBox();
  const box = await thumb.boundingBox();
  assert.ok(
    box && media && box.y >= media.y - 0.5 && box.y + box.height <= media.y + media.height + 0.5,
    `the thumbnail stays in its area: ${JSON.stringify({ box, media })}`,
  );
  await shot(page, 'files-1280');
  // The dialog preselects the stack's default storage, Cloudinary (its stand-in here).
  const ids = await page
    .locator('article.file-card')
    .evaluateAll((cards) => cards.map((c) => c.dataset.fileId));
  const { rows: stored3 } = await db.query(
    'SELECT storage_type FROM files.files WHERE id = ANY($1::uuid[])',
    [ids],
  );
  assert.deepEqual(
    stored3.map((r) => r.storage_type),
    ['cloudinary', 'cloudinary', 'cloudinary'],
  );

  step('search by name and the tag filter');
  const search = page.getByRole('searchbox', { name: 'Search files' });
  assert.equal(await search.getAttribute('placeholder'), 'Search files...');
  await search.fill(`PACKING-${id}`);
  await countCards(page, 1);
  await card(page, txt.name).waitFor();
  await search.fill('no-such-file');
  await page.getByText('No files match your search').waitFor();
  await search.fill('');
  await countCards(page, 3);
  const tagFilter = page.getByLabel('Filter by tag');
  assert.deepEqual(await tagFilter.locator('option').allInnerTexts(), ['All tags', '2026', 'docs', 'travel']);
  await tagFilter.selectOption('docs');
  await countCards(page, 3);
  await search.fill('.pdf');
  await countCards(page, 1);
  await card(page, pdf.name).waitFor();
  await search.fill('');
  await tagFilter.selectOption('');
  await countCards(page, 3);

  step('preview the image: zoom and rotate, Escape closes');
  let modal = await openPreview(page, png.name);
  const img = modal.getByRole('img', { name: png.name });
  await img.waitFor();
  assert.ok(await img.evaluate((el) => el.complete && el.naturalWidth === 64 && el.naturalHeight === 48));
  const zoom = modal.getByLabel('Zoom level');
  assert.equal(await zoom.innerText(), '100%');
  await modal.getByRole('button', { name: 'Zoom in' }).click();
  await modal.getByRole('button', { name: 'Zoom in' }).click();
  assert.equal(await zoom.innerText(), '150%');
  assert.equal(await img.getAttribute('data-zoom'), '150');
  await modal.getByRole('button', { name: 'Zoom out' }).click();
  assert.equal(await zoom.innerText(), '125%');
  await modal.getByRole('button', { name: 'Rotate' }).click();
  assert.equal(await img.getAttribute('data-rotation'), '90');
  assert.match(await img.evaluate((el) => el.style.transform), /rotate\(90deg\)/);
  await shot(page, 'preview-image-1280', false);
  await closePreview(page, modal);

  step('preview the PDF');
  modal = await openPreview(page, pdf.name);
  await modal.locator('.preview__body[data-kind="pdf"]').waitFor();
  await modal.locator('.preview__body canvas, .preview__body iframe').first().waitFor({ timeout: 20_000 });
  const rendered = await modal.locator('.preview__body canvas').count();
  console.log(`  PDF shown ${rendered > 0 ? `by pdf.js (${rendered} canvas)` : 'in the native viewer'}`);
  await shot(page, 'preview-pdf-1280', false);
  await closePreview(page, modal);

  step('preview the text file');
  modal = await openPreview(page, txt.name);
  const content = modal.getByLabel('File content');
  await content.waitFor();
  assert.equal(await content.evaluate((el) => el.textContent), textContent);
  await shot(page, 'preview-text-1280', false);
  await closePreview(page, modal);

  step('a wrong password: Invalid password');
  await page.getByRole('button', { name: `Download ${txt.name}`, exact: true }).click();
  let prompt = await authenticate(page, 'Authenticate Download', 'Download', `${account.password}x`);
  await prompt.getByRole('alert').getByText('Invalid password', { exact: true }).waitFor({ timeout: 20_000 });
  await shot(page, 'prompt-invalid-password-1280', false);
  assert.equal(downloads.length, 0);

  step('download the text file: the same bytes');
  const downloaded = page.waitForEvent('download', { timeout: 20_000 });
  await prompt.getByLabel('Current Password', { exact: true }).fill(account.password);
  await prompt.getByRole('button', { name: 'Download', exact: true }).click();
  const d = await downloaded;
  assert.equal(d.suggestedFilename(), txt.name);
  const savedPath = join(OUT, `downloaded-${txt.name}`);
  await d.saveAs(savedPath);
  assert.ok(readFileSync(savedPath).equals(txt.buffer), 'the downloaded file equals the uploaded one');
  await prompt.waitFor({ state: 'detached' });

  step('delete → Trash → restore → delete → permanent delete; Empty Trash');
  await deleteToTrash(page, txt.name);
  await page.getByRole('heading', { name: 'File Vault (2)' }).waitFor();
  await openTrash(page);
  await page.getByRole('heading', { name: 'Deleted Files (1)' }).waitFor();
  await shot(page, 'trash-files-1280');
  await page.getByRole('button', { name: `Restore ${txt.name}` }).click();
  await page.getByRole('heading', { name: 'Deleted Files (1)' }).waitFor({ state: 'detached' });
  await page.getByText('Trash is empty').waitFor();
  await openFiles(page);
  await page.getByRole('heading', { name: 'File Vault (3)' }).waitFor();
  await card(page, txt.name).waitFor();
  await deleteToTrash(page, txt.name);
  await openTrash(page);
  await page.getByRole('button', { name: `Delete ${txt.name} permanently` }).click();
  const permanent = page.getByRole('alertdialog', { name: 'Delete permanently' });
  await permanent
    .getByText('Are you sure? This will permanently delete the file and cannot be undone.', { exact: true })
    .waitFor();
  await permanent.getByRole('button', { name: 'Delete permanently' }).click();
  await page.getByText('Trash is empty').waitFor();
  await openFiles(page);
  await deleteToTrash(page, pdf.name);
  await openTrash(page);
  await page.getByRole('heading', { name: 'Trash (1)' }).waitFor();
  await page.getByRole('button', { name: 'Empty Trash' }).click();
  const emptyConfirm = page.getByRole('alertdialog', { name: 'Empty trash' });
  await emptyConfirm
    .getByText('Are you sure? This will permanently delete all 1 item in trash and cannot be undone.', {
      exact: true,
    })
    .waitFor();
  await emptyConfirm.getByRole('button', { name: 'Empty Trash' }).click();
  await emptyConfirm.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: 'Trash (0)' }).waitFor();
  await page.getByText('Trash is empty').waitFor();
  await openFiles(page);
  await page.getByRole('heading', { name: 'File Vault (1)' }).waitFor();
  await card(page, png.name).waitFor();

  step('tamper with a stored object (local disk): download and preview both fail');
  dialog = await upload(page, [tamper], { tags: 'tamper', storage: 'Local disk' });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await waitUploaded(page, dialog, [tamper.name]);
  await card(page, tamper.name).waitFor();
  const fileId = await card(page, tamper.name).getAttribute('data-file-id');
  const { rows } = await db.query('SELECT object_key, storage_type FROM files.files WHERE id = $1', [fileId]);
  assert.equal(rows[0]?.storage_type, 'local');
  const root = resolve(STORAGE_LOCAL_ROOT);
  const objectPath = resolve(root, rows[0].object_key);
  assert.ok(objectPath.startsWith(root + sep));
  const stored = readFileSync(objectPath);
  assert.ok(stored.length > tamper.buffer.length, 'the stored object is ciphertext plus its tags');
  assert.ok(!stored.includes(Buffer.from(`Tamper target ${id}`)), 'the stored object is not plaintext');
  const at = Math.floor(stored.length / 2);
  stored[at] ^= 0x01;
  writeFileSync(objectPath, stored);
  console.log(`  flipped byte ${at} of ${stored.length} in ${objectPath}`);

  const before = downloads.length;
  await page.getByRole('button', { name: `Download ${tamper.name}`, exact: true }).click();
  prompt = await authenticate(page, 'Authenticate Download', 'Download', account.password);
  await prompt.waitFor({ state: 'detached', timeout: 20_000 });
  const notice = page.getByRole('alert').filter({ hasText: 'The file failed its integrity check' });
  await notice.waitFor({ timeout: 20_000 });
  console.log(`  download: ${(await notice.innerText()).replace(/\s+/g, ' ')}`);
  await shot(page, 'tampered-download-1280', false);

  modal = await openPreview(page, tamper.name);
  const previewError = modal.getByRole('alert');
  await previewError.getByRole('heading', { name: 'Preview Error' }).waitFor({ timeout: 20_000 });
  const previewText = (await previewError.innerText()).replace(/\s+/g, ' ');
  assert.match(previewText, /Failed to decrypt: The file failed its integrity check/);
  assert.equal(await modal.getByLabel('File content').count(), 0, 'no content shown');
  console.log(`  preview: ${previewText}`);
  await shot(page, 'tampered-preview-1280', false);
  await closePreview(page, modal);
  // Give a late download (there must be none) a moment to show up.
  await page.waitForTimeout(500);
  assert.equal(downloads.length, before, 'no download was offered for the tampered file');

  step('the local disk refuses the upload: the row says so; the same file again completes');
  // The tampered download's notice stays until dismissed (it would cover the dialog's buttons).
  for (const dismiss of await page.getByRole('button', { name: /^Dismiss: / }).all()) await dismiss.click();
  // The account's folder becomes a plain file, so every write under it fails (root or not).
  const folder = resolve(root, rows[0].object_key.split('/')[0]);
  renameSync(folder, `${folder}.away`);
  writeFileSync(folder, '');
  try {
    dialog = await upload(page, [refused], { storage: 'Local disk' });
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    const failure = dialog
      .getByRole('alert')
      .filter({ hasText: 'The file storage is not available right now' });
    await failure.waitFor({ timeout: 30_000 });
    console.log(`  upload: ${(await failure.innerText()).replace(/\s+/g, ' ')}`);
    await shot(page, 'upload-storage-refused-1280', false);
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await dialog.waitFor({ state: 'detached' });
  } finally {
    rmSync(folder, { force: true });
    renameSync(`${folder}.away`, folder);
  }
  assert.equal(await card(page, refused.name).count(), 0, 'a refused upload is no file');
  dialog = await upload(page, [refused], { storage: 'Local disk' });
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await waitUploaded(page, dialog, [refused.name]);
  await card(page, refused.name).waitFor();

  await spec.checkCsp(page);
} finally {
  await spec.close();
  await db.end();
}
console.log(`files-ui: ${((Date.now() - started) / 1000).toFixed(1)} s`);
spec.report();
