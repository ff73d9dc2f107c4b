/* global document, window */
// An import keeps what the backup says, in headless Chromium against a running stack
// (scripts/browser-e2e.mjs starts one): each note's createdAt and updatedAt, and the file's order
// (newest updatedAt first, and notes of equal dates as the file lists them, across the 100-note
// batches), seen in the vault right after the import, after a reload (the server's order), at
// 375, 1280 and 1920 px (cards in reading order), and in a new export; the same for a
// password-encrypted export imported into a fresh account (whose ids are then taken, so the notes
// are saved under new ones). No CSP violation, page error or third-party request.
//
//   BASE_URL=http://127.0.0.1:8080 node apps/e2e/browser/import-order-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signUp, startSpec, testAccount } from './support.mjs';

const spec = await startSpec({ out: '.data/import-order-ui-shots', shotPrefix: 'import-order-' });
const { base: BASE, out: OUT, problems, step, shot } = spec;
const run = randomBytes(3).toString('hex');
const WIDTHS = [375, 1280, 1920];
const PASSWORD = 'order and dates stay';

/**
 * 105 notes, newest updatedAt first as an export writes them: one note per day mostly, with runs of
 * notes of the very same dates whose ids ascend (an id tie-break would list them backwards), one of
 * them across the boundary of the first two batches (notes 98 to 102), and a note dated to the
 * millisecond.
 */
function makeBackup() {
  const day = (n, ms = 0) => new Date(Date.UTC(2022, 0, 1, 9, 0, 0, ms) + n * 86_400_000).toISOString();
  const ties = new Set([3, 4, 5, 98, 99, 100, 101, 102]);
  const notes = [];
  let d = 200;
  for (let i = 0; i < 105; i++) {
    if (!ties.has(i) || !ties.has(i - 1)) d -= 1;
    const updatedAt = i === 0 ? day(d, 123) : day(d);
    notes.push({
      id: randomUUID(),
      title: `Ordered ${String(i).padStart(3, '0')} ${run}`,
      content: `Note ${i} of the backup.`,
      tags: i % 10 === 0 ? ['tenth'] : [],
      createdAt: day(d - 30 - (i % 7)),
      updatedAt,
    });
  }
  // Within every run of equal dates, ids ascending.
  for (const [from, to] of [
    [3, 5],
    [98, 102],
  ]) {
    const ids = notes
      .slice(from, to + 1)
      .map((n) => n.id)
      .sort();
    ids.forEach((id, k) => (notes[from + k].id = id));
  }
  return {
    version: '1.0',
    notes,
    user: { email: 'someone@example.org', id: randomUUID() },
    metadata: {
      exported_at: new Date().toISOString(),
      total_notes: notes.length,
      export_type: 'full_backup',
    },
  };
}

const nav = (page) => page.getByRole('navigation', { name: 'Main' });

async function openDataTab(page) {
  await nav(page).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Data & Privacy' }).click();
  await page.getByRole('heading', { name: 'Import notes' }).waitFor();
}

/** Every card of the vault (Load More until all are shown): [id, updatedAt] in DOM order. */
async function vaultCards(page, count) {
  await nav(page)
    .getByRole('link', { name: /All Notes/ })
    .click();
  await page.getByRole('heading', { name: `Notes (${count})` }).waitFor({ timeout: 60_000 });
  for (;;) {
    const more = page.getByRole('button', { name: 'Load More Notes' });
    if (!(await more.isVisible().catch(() => false))) break;
    const before = await page.locator('.note-card').count();
    await more.click();
    await page.waitForFunction((n) => document.querySelectorAll('.note-card').length > n, before);
  }
  return page
    .locator('.note-card')
    .evaluateAll((cards) =>
      cards.map((c) => [c.getAttribute('data-note-id'), c.querySelector('time')?.getAttribute('datetime')]),
    );
}

/** The ids of the cards on screen in reading order (rows top to bottom, each left to right). */
async function readingOrder(page) {
  return page.locator('.note-card').evaluateAll((cards) =>
    cards
      .map((c) => ({ id: c.getAttribute('data-note-id'), r: c.getBoundingClientRect() }))
      .sort((a, b) => (Math.abs(a.r.top - b.r.top) > 2 ? a.r.top - b.r.top : a.r.left - b.r.left))
      .map((c) => c.id),
  );
}

/** The vault lists the backup's notes in its order with its dates: by id (or, for `byTitle`, by title). */
async function expectBackupOrder(page, backup, label, byTitle = null) {
  const cards = await vaultCards(page, backup.notes.length);
  const ids = byTitle ? backup.notes.map((n) => byTitle.get(n.title)) : backup.notes.map((n) => n.id);
  assert.deepEqual(
    cards.map(([id]) => id),
    ids,
    `${label}: the vault lists the notes in the backup's order`,
  );
  assert.deepEqual(
    cards.map(([, at]) => at),
    backup.notes.map((n) => n.updatedAt),
    `${label}: each card shows the backup's updatedAt`,
  );
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    assert.deepEqual(await readingOrder(page), ids, `${label}: reading order at ${width} px`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `${label}-${width}`, false);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** Export Notes (plain, or sealed under `password`): the saved file's path. */
async function exportNotes(page, name, password) {
  await openDataTab(page);
  if (password) {
    await page.getByRole('radio', { name: /Encrypted with an export password/ }).check();
    await page.getByLabel('Export password', { exact: true }).fill(password);
    await page.getByLabel('Confirm export password', { exact: true }).fill(password);
  }
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Notes' }).click();
  const path = join(OUT, `${name}-${(await download).suggestedFilename()}`);
  await (await download).saveAs(path);
  return path;
}

/** The notes of an export as an import should give them back: everything but the ids. */
const withoutIds = (notes) => notes.map(({ id: _id, ...rest }) => rest);

try {
  const backup = makeBackup();
  const backupPath = join(OUT, `backup-${run}.json`);
  writeFileSync(backupPath, JSON.stringify(backup, null, 2));

  step('import a plain backup of 105 notes (two batches)');
  const a = await spec.newPage('a', { acceptDownloads: true });
  const accountA = testAccount('order', `a_${run}`);
  await signUp(a.page, BASE, accountA);
  await openDataTab(a.page);
  await a.page.getByLabel('Choose backup file').setInputFiles(backupPath);
  await a.page
    .getByText('Successfully imported 105 notes from backup file.', { exact: true })
    .waitFor({ timeout: 120_000 });

  step('the vault lists them in the file’s order with the file’s dates, at 375, 1280 and 1920 px');
  await expectBackupOrder(a.page, backup, 'after-import');

  step('after a reload: the same order, now as the server lists it');
  await a.page.goto(`${BASE}/vault`);
  await a.page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
  await a.page.getByLabel('Password', { exact: true }).fill(accountA.password);
  await a.page.getByRole('button', { name: 'Unlock' }).click();
  await expectBackupOrder(a.page, backup, 'after-reload');

  step('a new export gives the backup back exactly: ids, dates, order');
  const exported = JSON.parse(readFileSync(await exportNotes(a.page, 'a-plain'), 'utf8'));
  assert.deepEqual(exported.notes, backup.notes);

  step('a password-encrypted export, imported into a fresh account: the same order and dates');
  const sealedPath = await exportNotes(a.page, 'a-sealed', PASSWORD);
  const b = await spec.newPage('b', { acceptDownloads: true });
  const accountB = testAccount('order', `b_${run}`);
  await signUp(b.page, BASE, accountB);
  await openDataTab(b.page);
  await b.page.getByLabel('Choose backup file').setInputFiles(sealedPath);
  await b.page.getByLabel('Backup password', { exact: true }).fill(PASSWORD);
  await b.page.getByRole('button', { name: 'Decrypt and import' }).click();
  await b.page
    .getByText('Successfully imported 105 notes from backup file.', { exact: true })
    .waitFor({ timeout: 120_000 });
  // The ids were account A's: B saved the notes under new ones. Map them back by title.
  const reexported = JSON.parse(readFileSync(await exportNotes(b.page, 'b-plain'), 'utf8'));
  assert.deepEqual(withoutIds(reexported.notes), withoutIds(backup.notes));
  const idOf = new Map(reexported.notes.map((n) => [n.title, n.id]));
  await b.page.goto(`${BASE}/vault`);
  await b.page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
  await b.page.getByLabel('Password', { exact: true }).fill(accountB.password);
  await b.page.getByRole('button', { name: 'Unlock' }).click();
  await expectBackupOrder(b.page, backup, 'encrypted-import', idOf);

  for (const [label, page] of [
    ['a', a.page],
    ['b', b.page],
  ])
    await spec.checkCsp(page, label);
} catch (error) {
  problems.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await spec.close();
}
spec.report();
