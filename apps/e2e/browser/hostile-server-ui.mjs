// A hostile server, in headless Chromium (issue 17; docs/threat-model.md "A malicious or compromised
// server"). The real stack answers, and Playwright's routing rewrites chosen answers before the app
// sees them, built from real data of the same account: notes served with another note's key or
// ciphertext, under another id or rolled back to an older version; an answer to an edit that names
// another note; files with swapped keys or metadata, and their content truncated, reordered,
// duplicated, extended, cut before its last chunk or mixed with another file's chunk; a sign-in whose prelogin
// asks for weak, absurd or unknown KDF parameters, and one whose wrapped vault key is another
// account's. Each case must end in a clear error on screen, nothing from the wrong slot shown as
// valid, no file saved, and the rest of the vault still working. A rollback that also rolls back
// `updatedAt` is refused within the page's life; after a reload it cannot be told apart (the limit
// the threat model states), and this spec shows that too.
//
//   BASE_URL=… node apps/e2e/browser/hostile-server-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  apiCall,
  apiSignUp,
  createNote,
  startSpec,
  submitSignIn,
  withoutSaveFilePicker,
} from './support.mjs';

const started = Date.now();
const spec = await startSpec({ out: '.data/hostile-server-ui', shotPrefix: 'hostile-', started });
const { base: BASE, out: OUT, step, shot } = spec;
const run = randomBytes(3).toString('hex');

/** Protocol v1 "Content in chunks": 64 KiB of plaintext and a 16-byte tag per stored chunk. */
const CHUNK = 65536;
const SEALED_CHUNK = CHUNK + 16;

// ---- the hostile switchboard -------------------------------------------------------------------
// Every /api request goes through here (the page's fetches and its workers' alike: the download
// worker fetches the stored object itself). A rule `{ match(request), rewrite(answer) }` is used
// once: the request reaches the real server, and the rule's rewrite of its answer (a JSON body, or
// the bytes of a stored object) is what the app gets.
const rules = [];
const seen = []; // `${method} ${path}` of every /api request, for what must not be sent
/** downloadUrl (as the app will fetch it) → file id: what blob a rewrite belongs to. */
const blobOwner = new Map();

function tamperOnce(match, rewrite) {
  rules.push({ match, rewrite, used: false });
}

const pathOf = (request) => new URL(request.url()).pathname;
const isCall = (method, path) => (request) => request.method() === method && pathOf(request) === path;

async function hostile(route) {
  const request = route.request();
  const path = pathOf(request);
  seen.push(`${request.method()} ${path}`);
  const rule = rules.find((r) => !r.used && r.match(request));
  const response = await route.fetch();
  const download = /^\/api\/files\/([^/]+)\/download-url$/.exec(path);
  if (download && response.ok()) {
    const answer = await response.json();
    blobOwner.set(new URL(answer.downloadUrl, BASE).pathname, download[1]);
  }
  if (!rule) return route.fulfill({ response });
  rule.used = true;
  const binary = path.startsWith('/api/files/blob/');
  const body = binary
    ? await rule.rewrite(await response.body())
    : Buffer.from(JSON.stringify(await rule.rewrite(await response.json())));
  // The length of what is served (a longer body under the old Content-Length would be cut short by
  // the browser); the body is sent as it is, not encoded.
  const headers = { ...response.headers(), 'content-length': String(body.length) };
  delete headers['content-encoding'];
  return route.fulfill({ status: response.status(), headers, body });
}

// ---- helpers -----------------------------------------------------------------------------------

const noteCard = (page, id) => page.locator(`article.note-card[data-note-id="${id}"]`);
const fileCard = (page, id) => page.locator(`article.file-card[data-file-id="${id}"]`);
const nav = (page) => page.getByRole('navigation', { name: 'Main' });

/** The sealed notes of the account as the server holds them (GET /api/notes, from Node). */
async function sealedNotes(token) {
  const res = await apiCall(BASE, '/notes?limit=50', { method: 'GET', token });
  assert.equal(res.status, 200);
  return res.body.notes;
}

/** Every plaintext of the run that must not appear on a card it does not belong to. */
const TEXT = {};

async function expectFailedNote(page, id, label) {
  const card = noteCard(page, id);
  await card.waitFor({ timeout: 20_000 });
  const text = (await card.innerText()).replace(/\s+/g, ' ');
  assert.match(text, /Failed to decrypt note/, `${label}: the card says it failed (${text})`);
  assert.doesNotMatch(text, /Locked note/, `${label}: a tampered note is not called locked (${text})`);
  for (const [name, plain] of Object.entries(TEXT))
    assert.ok(!text.includes(plain), `${label}: the card shows ${name}'s plaintext`);
  console.log(`  ${label}: ${text}`);
}

async function unlock(page, password) {
  await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Unlock' }).click();
}

async function openNoteAndCheck(page, title, content) {
  await page.getByRole('button', { name: title, exact: true }).click();
  const dialog = page.getByRole('dialog');
  assert.equal(await dialog.getByLabel('Content', { exact: true }).inputValue(), content);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
}

/** Password prompt of a download, answered with the account's password. */
async function downloadThroughPrompt(page, fileId, password) {
  await fileCard(page, fileId)
    .getByRole('button', { name: /^Download / })
    .click();
  const prompt = page.getByRole('dialog', { name: 'Authenticate Download' });
  await prompt.getByLabel('Current Password', { exact: true }).fill(password);
  await prompt.getByRole('button', { name: 'Download', exact: true }).click();
  await prompt.waitFor({ state: 'detached', timeout: 20_000 });
}

/** A text of `size` bytes that names itself (the file's marker) on every line. */
function textFile(marker, size) {
  const line = `${marker} ${'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(2)}\n`;
  return Buffer.from(line.repeat(Math.ceil(size / line.length)).slice(0, size), 'utf8');
}

/** The stored object of a file cut into its sealed chunks. */
const chunksOf = (bytes) => {
  const out = [];
  for (let at = 0; at < bytes.length; at += SEALED_CHUNK) out.push(bytes.subarray(at, at + SEALED_CHUNK));
  return out;
};

// ---- the run -----------------------------------------------------------------------------------

const acct = await apiSignUp(BASE, `hostile_${run}`);
const other = await apiSignUp(BASE, `hostile_other_${run}`);
const otherVault = (await apiCall(BASE, '/auth/me', { method: 'GET', token: other.token })).body.vault;

const { page, context } = await spec.newPage('main', {
  acceptDownloads: true,
  initScript: withoutSaveFilePicker,
});
try {
  await context.route((url) => new URL(url).pathname.startsWith('/api/'), hostile);
  const downloads = [];
  page.on('download', (d) => downloads.push(d));

  // ------------------------------------------------------------------------------------ prelogin
  step('prelogin: weak, absurd and unknown KDF parameters are refused before any derivation');
  await page.goto(`${BASE}/login`);
  const kdfCases = [
    ['weak Argon2id', { kdf: 'argon2id', memoryKiB: 1024, iterations: 1, parallelism: 1 }, /weak/i],
    ['weak PBKDF2', { kdf: 'pbkdf2-sha256', iterations: 1000 }, /weak/i],
    ['absurd memory', { kdf: 'argon2id', memoryKiB: 64 * 1048576, iterations: 3, parallelism: 4 }, /costly/i],
    ['absurd iterations', { kdf: 'pbkdf2-sha256', iterations: 2_000_000_000 }, /costly/i],
    ['unknown KDF', { kdf: 'scrypt', N: 2, r: 1, p: 1 }, /unknown/i],
  ];
  for (const [label, kdfParams, reason] of kdfCases) {
    const before = seen.length;
    tamperOnce(isCall('POST', '/api/auth/prelogin'), (answer) => ({ ...answer, kdfParams }));
    const t0 = Date.now();
    await submitSignIn(page, acct.username, acct.password);
    const alert = page.getByRole('alert').filter({ hasText: /key-derivation|KDF/i });
    await alert.waitFor({ timeout: 10_000 });
    const ms = Date.now() - t0;
    const text = (await alert.innerText()).replace(/\s+/g, ' ');
    assert.match(text, reason, `${label}: the reason is given (${text})`);
    // Nothing derived from the password left the page: no sign-in request after the prelogin.
    const sent = seen.slice(before);
    assert.deepEqual(sent, ['POST /api/auth/prelogin'], `${label}: requests sent ${sent.join(', ')}`);
    assert.ok(ms < 8000, `${label}: refused at once, not after a derivation (${ms} ms)`);
    console.log(`  ${label}: "${text}" after ${ms} ms`);
  }
  await shot(page, 'prelogin-refused', false);

  step("sign-in answered with another account's wrapped vault key: refused, nothing unlocked");
  tamperOnce(isCall('POST', '/api/auth/login'), (answer) => ({
    ...answer,
    wrappedVaultKey: otherVault.wrappedVaultKey,
  }));
  await submitSignIn(page, acct.username, acct.password);
  const keyAlert = page.getByRole('alert').filter({ hasText: /vault key/i });
  await keyAlert.waitFor({ timeout: 20_000 });
  console.log(`  ${(await keyAlert.innerText()).replace(/\s+/g, ' ')}`);
  assert.equal(await page.getByRole('heading', { name: 'Personal Vault' }).count(), 0);

  step('sign in for real; notes through the UI');
  await page.goto(`${BASE}/login`);
  await submitSignIn(page, acct.username, acct.password);
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
  const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'hotel', 'india'];
  for (const n of names) {
    TEXT[`${n} title`] = `${n[0].toUpperCase()}${n.slice(1)} ${run}`;
    TEXT[`${n} content`] = `${n} secret content ${run}`;
    await createNote(page, { title: TEXT[`${n} title`], content: TEXT[`${n} content`], tags: [`${n}tag`] });
  }
  const v1 = Object.fromEntries((await sealedNotes(acct.token)).map((n) => [n.id, n]));
  const idOf = Object.fromEntries(
    names.map((n) => [n, page.getByRole('button', { name: TEXT[`${n} title`], exact: true })]),
  );
  for (const n of names) {
    const article = page.locator('article.note-card').filter({ has: idOf[n] });
    idOf[n] = await article.getAttribute('data-note-id');
  }
  const dto = (n) => v1[idOf[n]];
  const injectedId = randomUUID();

  step('india edited (its first version kept, as a rolling-back server would)');
  const indiaV1 = JSON.parse(JSON.stringify(dto('india')));
  await page.getByRole('button', { name: TEXT['india title'], exact: true }).click();
  let dialog = page.getByRole('dialog');
  const indiaV2Content = `india edited ${run}`;
  await dialog.getByLabel('Content', { exact: true }).fill(indiaV2Content);
  await dialog.getByRole('button', { name: 'Update' }).click();
  await dialog.waitFor({ state: 'detached' });

  step('an edit answered with another note: refused, bravo does not take hotel’s text');
  // The edit reaches the server and is saved there; only its answer names bravo.
  tamperOnce(isCall('PUT', `/api/notes/${idOf.hotel}`), () => ({ note: dto('bravo') }));
  await page.getByRole('button', { name: TEXT['hotel title'], exact: true }).click();
  dialog = page.getByRole('dialog');
  const hotelEdit = `hotel edit ${run}`;
  await dialog.getByLabel('Content', { exact: true }).fill(hotelEdit);
  await dialog.getByRole('button', { name: 'Update' }).click();
  const saveAlert = dialog.getByRole('alert').filter({ hasText: 'Failed to save note' });
  await saveAlert.waitFor({ timeout: 20_000 });
  console.log(`  ${(await saveAlert.innerText()).replace(/\s+/g, ' ')}`);
  await shot(page, 'edit-answer-refused', false);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await dialog.waitFor({ state: 'detached' });
  const bravoText = await noteCard(page, idOf.bravo).innerText();
  assert.ok(bravoText.includes(TEXT['bravo title']) && !bravoText.includes(hotelEdit), bravoText);

  step('the list answer manipulated (keys, fields, ids swapped; a note injected; india rolled back)');
  const listRule = (rewrite) => tamperOnce(isCall('GET', '/api/notes'), rewrite);
  listRule((answer) => {
    const notes = answer.notes.map((n) => {
      if (n.id === idOf.alpha) return { ...n, wrappedDEK: dto('bravo').wrappedDEK };
      if (n.id === idOf.delta) return { ...n, title: dto('bravo').title };
      if (n.id === idOf.echo) return { ...n, content: n.title };
      // With foxtrot's own date, so that the crypto (not the rollback check) is what refuses it.
      if (n.id === idOf.foxtrot) return { ...dto('bravo'), id: n.id, updatedAt: n.updatedAt };
      if (n.id === idOf.india) return indiaV1;
      return n;
    });
    notes.push({ ...dto('bravo'), id: injectedId });
    return { ...answer, notes };
  });
  // Signing out and in again fetches the list again in the same page (as an unlock after the
  // inactivity lock does).
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor();
  await submitSignIn(page, acct.username, acct.password);
  await page.getByRole('heading', { name: `Notes (${names.length + 1})` }).waitFor({ timeout: 30_000 });
  await expectFailedNote(page, idOf.alpha, "alpha with bravo's note key");
  await expectFailedNote(page, idOf.delta, "delta with bravo's title");
  await expectFailedNote(page, idOf.echo, "echo's title in its content slot");
  await expectFailedNote(page, idOf.foxtrot, 'bravo served under foxtrot’s id');
  await expectFailedNote(page, injectedId, 'bravo injected under a new id');
  const india = noteCard(page, idOf.india);
  const indiaText = (await india.innerText()).replace(/\s+/g, ' ');
  assert.match(indiaText, /older version/i, `india rolled back: ${indiaText}`);
  assert.ok(!indiaText.includes(TEXT['india content']), 'the rolled-back content is not shown');
  console.log(`  india rolled back, same page: ${indiaText}`);
  await shot(page, 'notes-refused');
  // The rest of the vault still works: the untouched notes open.
  await openNoteAndCheck(page, TEXT['charlie title'], TEXT['charlie content']);
  await openNoteAndCheck(page, TEXT['bravo title'], TEXT['bravo content']);

  step('unlock: weak KDF parameters in the account material of GET /api/auth/me are refused, saying why');
  let weakMe = true;
  const meRules = rules.length;
  const weakParams = { kdf: 'argon2id', memoryKiB: 1024, iterations: 1, parallelism: 1 };
  // Every /api/auth/me until the check is done (the app may read it more than once on a reload).
  for (let i = 0; i < 6; i += 1)
    tamperOnce(
      (request) => weakMe && isCall('GET', '/api/auth/me')(request),
      (answer) => ({ ...answer, vault: { ...answer.vault, kdfParams: weakParams } }),
    );
  await page.reload();
  await unlock(page, acct.password);
  const refusedUnlock = page.getByRole('alert').filter({ hasText: /key-derivation/i });
  await refusedUnlock.waitFor({ timeout: 10_000 });
  const unlockText = (await refusedUnlock.innerText()).replace(/\s+/g, ' ');
  assert.match(unlockText, /too weak/i, `the unlock screen says why (${unlockText})`);
  await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor();
  weakMe = false;
  // The spares the app did not ask for are dropped (the check at the end wants every rule served).
  assert.ok(
    rules.slice(meRules).some((r) => r.used),
    'a tampered /api/auth/me was served',
  );
  rules.splice(meRules, rules.length - meRules, ...rules.slice(meRules).filter((r) => r.used));
  console.log(`  unlock refused: "${unlockText}"`);

  step('after a reload the same rollback cannot be told apart (the documented limit)');
  listRule((answer) => ({
    ...answer,
    notes: answer.notes.map((n) => (n.id === idOf.india ? indiaV1 : n)),
  }));
  await page.reload();
  await unlock(page, acct.password);
  await page.getByRole('heading', { name: `Notes (${names.length})` }).waitFor({ timeout: 30_000 });
  await openNoteAndCheck(page, TEXT['india title'], TEXT['india content']);
  console.log('  india opened at its first version: a rollback across page loads is not detected');

  // ------------------------------------------------------------------------------------- files
  step('files: four text files of three chunks each, uploaded to local disk');
  await nav(page)
    .getByRole('link', { name: /File Vault/ })
    .click();
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor();
  const fileNames = ['xray', 'yankee', 'kilo', 'mike'];
  const files = Object.fromEntries(
    fileNames.map((n) => [
      n,
      { name: `${n}-${run}.txt`, mimeType: 'text/plain', buffer: textFile(`${n}-${run}`, 2 * CHUNK + 5000) },
    ]),
  );
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const upload = page.getByRole('dialog', { name: 'Upload Files' });
  await upload.getByRole('radio', { name: 'Local disk' }).check();
  await upload.locator('input[type="file"]').setInputFiles(fileNames.map((n) => files[n]));
  await upload.getByRole('button', { name: 'Upload 4 files' }).click();
  for (const n of fileNames)
    await upload
      .getByRole('progressbar', { name: `${files[n].name}: Completed` })
      .waitFor({ timeout: 60_000 });
  await upload.waitFor({ state: 'detached', timeout: 10_000 });
  const fid = {};
  for (const n of fileNames) {
    fid[n] = await page
      .locator('article.file-card')
      .filter({ has: page.getByRole('heading', { name: files[n].name, exact: true }) })
      .getAttribute('data-file-id');
  }
  const sealedFiles = Object.fromEntries(
    (await apiCall(BASE, '/files', { method: 'GET', token: acct.token })).body.files.map((f) => [f.id, f]),
  );
  const fdto = (n) => sealedFiles[fid[n]];

  step('an honest download first: the harness passes bytes through unchanged');
  const stored = {};
  const keep = (n) =>
    tamperOnce(
      (r) => r.method() === 'GET' && blobOwner.get(pathOf(r)) === fid[n],
      (bytes) => {
        stored[n] = Buffer.from(bytes);
        return bytes;
      },
    );
  keep('yankee');
  let saved = page.waitForEvent('download', { timeout: 30_000 });
  await downloadThroughPrompt(page, fid.yankee, acct.password);
  let d = await saved;
  const yPath = join(OUT, `downloaded-${files.yankee.name}`);
  await d.saveAs(yPath);
  assert.ok(readFileSync(yPath).equals(files.yankee.buffer), 'the honest download is the file');
  assert.equal(chunksOf(stored.yankee).length, 3);

  step('content manipulated on download: each refused, no file saved');
  const blobCases = [
    ['truncated inside chunk 1', (c) => Buffer.concat([c[0], c[1].subarray(0, 1000)])],
    ['chunks 0 and 1 reordered', (c) => Buffer.concat([c[1], c[0], c[2]])],
    ['chunk 0 duplicated over chunk 1', (c) => Buffer.concat([c[0], c[0], c[2]])],
    ['chunk 1 duplicated (one chunk more)', (c) => Buffer.concat([c[0], c[1], c[1], c[2]])],
    ['bytes appended after the last chunk', (c) => Buffer.concat([...c, Buffer.alloc(32, 7)])],
    ['the last chunk dropped', (c) => Buffer.concat([c[0], c[1]])],
    ['chunk 1 from another file', (c) => Buffer.concat([c[0], chunksOf(stored.yankee)[1], c[2]])],
  ];
  for (const [label, cut] of blobCases) {
    const before = downloads.length;
    tamperOnce(
      (r) => r.method() === 'GET' && blobOwner.get(pathOf(r)) === fid.xray,
      (bytes) => cut(chunksOf(Buffer.from(bytes))),
    );
    await downloadThroughPrompt(page, fid.xray, acct.password);
    const notice = page.getByRole('alert').filter({ hasText: 'The file failed its integrity check' });
    await notice.waitFor({ timeout: 20_000 });
    const progress = fileCard(page, fid.xray).getByRole('progressbar');
    const marked = await progress.getAttribute('aria-label');
    assert.match(marked, /Failed/, `${label}: the card's progress is marked failed (${marked})`);
    console.log(`  ${label}: ${(await notice.innerText()).replace(/\s+/g, ' ')} · card: ${marked}`);
    await notice.getByRole('button', { name: /^Dismiss/ }).click();
    await notice.waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    assert.equal(downloads.length, before, `${label}: no file was saved`);
  }
  await shot(page, 'files-content-refused', false);

  step('files list manipulated: a swapped file key, swapped name and type');
  tamperOnce(isCall('GET', '/api/files'), (answer) => ({
    ...answer,
    files: answer.files.map((f) => {
      if (f.id === fid.kilo) return { ...f, wrappedKey: fdto('yankee').wrappedKey };
      if (f.id === fid.mike)
        return {
          ...f,
          encryptedName: fdto('yankee').encryptedName,
          encryptedMimeType: fdto('yankee').encryptedMimeType,
        };
      return f;
    }),
  }));
  await page.reload();
  await unlock(page, acct.password);
  await page.getByRole('heading', { name: 'File Vault (4)' }).waitFor({ timeout: 30_000 });
  for (const [n, label] of [
    ['kilo', "kilo with yankee's file key"],
    ['mike', "mike with yankee's name and type"],
  ]) {
    const card = fileCard(page, fid[n]);
    await card.getByText('could not be decrypted', { exact: false }).waitFor({ timeout: 20_000 });
    const text = (await card.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Encrypted File/, `${label}: ${text}`);
    assert.match(text, /could not be decrypted/i, `${label}: the card says why (${text})`);
    for (const m of fileNames) assert.ok(!text.includes(files[m].name), `${label} shows ${m}'s name`);
    console.log(`  ${label}: ${text}`);
  }
  const beforeKey = downloads.length;
  await downloadThroughPrompt(page, fid.kilo, acct.password);
  const keyNotice = page.getByRole('alert').filter({ hasText: 'Could not get decryption key' });
  await keyNotice.waitFor({ timeout: 20_000 });
  console.log(`  kilo download: ${(await keyNotice.innerText()).replace(/\s+/g, ' ')}`);
  await page.waitForTimeout(300);
  assert.equal(downloads.length, beforeKey, 'no file saved for the swapped key');
  await shot(page, 'files-list-refused', false);

  step('the rest still works: xray downloads whole');
  saved = page.waitForEvent('download', { timeout: 30_000 });
  await downloadThroughPrompt(page, fid.xray, acct.password);
  d = await saved;
  const xPath = join(OUT, `downloaded-${files.xray.name}`);
  await d.saveAs(xPath);
  assert.ok(readFileSync(xPath).equals(files.xray.buffer), 'xray downloads intact');

  const unused = rules.filter((r) => !r.used).length;
  assert.equal(unused, 0, 'every manipulation was served (none waits for a request that never came)');
  await spec.checkCsp(page);
} catch (error) {
  await shot(page, 'failure', false).catch(() => undefined);
  throw error;
} finally {
  await spec.close();
}
console.log(`hostile-server-ui: ${((Date.now() - started) / 1000).toFixed(1)} s`);
spec.report();
