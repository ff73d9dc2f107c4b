/* global window, document, performance, PerformanceObserver */
// The notes UI in headless Chromium against a running stack (scripts/browser-e2e.mjs starts one):
// sign up, create/edit/tag/search/filter notes, Load More, delete/restore/permanent delete, Empty
// Trash (cancelled, then confirmed), plain and encrypted export then import (into the same account
// and into fresh ones), with no CSP violation, page error or third-party request. Screenshots go
// to OUT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 node apps/e2e/browser/notes-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { signUp, startSpec, testAccount } from './support.mjs';

const spec = await startSpec({ out: '.data/notes-ui-shots' });
const { base: BASE, out: OUT, step, shot } = spec;
// More than the 50-note first screen, so Load More is exercised.
const BULK = Number(process.env.BULK ?? 120);
const id = randomBytes(3).toString('hex');
const account = testAccount('notes', id);
const timings = {};

const freshAccount = (tag) => testAccount('notes', `${tag}_${randomBytes(3).toString('hex')}`);

/** The six notes the run starts with: tags shared between notes, a note with five, one with none. */
const SAMPLE_NOTES = [
  {
    title: 'Groceries',
    tags: ['home', 'errands'],
    content: 'Milk, eggs, sourdough bread, olive oil, tomatoes and basil for the weekend pasta.',
  },
  {
    title: 'Quarterly planning',
    tags: ['work', 'planning', 'q3', 'finance', 'urgent'],
    content:
      'Review the roadmap with the team. Priorities: ship the encrypted file vault, improve import speed, and write the security whitepaper. Budget review on Thursday; hiring plan next week.',
  },
  {
    title: 'Lisbon trip',
    tags: ['travel', 'home'],
    content: 'Flights booked for May 12. Hotel in Alfama. Try the pastéis de nata at Manteigaria.',
  },
  {
    title: 'Book notes: The Pragmatic Programmer',
    tags: ['reading'],
    content: 'Care about your craft. Think about your work. Provide options, do not make lame excuses.',
  },
  { title: 'Wi-Fi at the cabin', tags: [], content: '' },
  {
    title: 'Gift ideas',
    tags: ['family', 'home'],
    content: 'Mum: gardening gloves. Dad: a new chess set. Sam: concert tickets.',
  },
];

/** A browser context of its own (no storage shared with the first account), watched like the first. */
const newContextPage = (label) => spec.newPage(label, { acceptDownloads: true });

/** Settings → Data & Privacy through the app's own links (a page load would lock the vault). */
async function openDataTab(page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Data & Privacy' }).click();
  await page.getByRole('heading', { name: 'Import notes' }).waitFor();
}

/** The notes of a backup as {title, content, tags} sorted by title: what an import must reproduce. */
function comparable(notes) {
  return notes
    .map((n) => ({ title: n.title, content: n.content, tags: [...n.tags].sort() }))
    .sort((a, b) => a.title.localeCompare(b.title));
}

/** Tag → note count, as the tag panel should list it for these notes. */
function tagCounts(notes) {
  const counts = new Map();
  for (const n of notes) for (const t of n.tags) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The vault of an account that imported `notes`: the header count, every title, every tag count. */
async function expectVaultHolds(page, notes) {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /All Notes/ })
    .click();
  await page.getByRole('heading', { name: `Notes (${notes.length})` }).waitFor({ timeout: 30_000 });
  await page.getByRole('navigation', { name: 'Main' }).getByLabel(`${notes.length} notes`).waitFor();
  assert.equal(await page.locator('.note-card').count(), notes.length);
  for (const n of notes) await page.getByRole('button', { name: n.title, exact: true }).waitFor();
  // The tag panel: every tag of the notes, alphabetically, each with its count.
  const listed = await page
    .getByRole('list', { name: 'Filter by tag' })
    .locator('.tag-filter')
    .evaluateAll((buttons) =>
      buttons.map((b) => [
        b.querySelector('.tag-filter__name')?.textContent,
        Number(b.querySelector('.tag-filter__count')?.textContent),
      ]),
    );
  const expected = [...tagCounts(notes)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  assert.deepEqual(listed, expected);
}

/** Opens the note's card and deletes it through its dialog (to the trash). */
async function trashNote(page, title) {
  await page.getByRole('button', { name: title, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete note' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function createNote(page, { title, tags = [], content = '' }) {
  await page.getByRole('button', { name: 'New Note' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title', { exact: true }).fill(title);
  for (const [i, tag] of tags.entries()) {
    await dialog.getByLabel('Tags', { exact: true }).fill(tag);
    if (i % 2 === 0) await dialog.getByLabel('Tags', { exact: true }).press('Enter');
    else await dialog.getByRole('button', { name: 'Add tag' }).click();
  }
  await dialog.getByLabel('Content', { exact: true }).fill(content);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: title, exact: true }).waitFor();
}

try {
  const { page } = await newContextPage('main');
  const workers = [];
  page.on('worker', (w) => workers.push(w.url()));

  step('sign up');
  await signUp(page, BASE, account);
  await page.getByText('No notes found').waitFor();
  await shot(page, 'vault-empty-1280');

  step('create notes');
  for (const note of SAMPLE_NOTES) await createNote(page, note);
  await page.getByRole('heading', { name: 'Notes (6)' }).waitFor();
  await page.getByLabel('6 notes').waitFor();
  await shot(page, 'vault-1280');

  step('dialog screenshot (edit with unsaved changes)');
  await page.getByRole('button', { name: 'Quarterly planning', exact: true }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title', { exact: true }).fill('Quarterly planning (Q3)');
  await dialog.getByRole('img', { name: 'Unsaved changes' }).waitFor();
  await shot(page, 'dialog-edit-1280', false);
  await dialog.getByRole('button', { name: 'Update' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Quarterly planning (Q3)', exact: true }).waitFor();

  step('unsaved changes confirm');
  await page.getByRole('button', { name: 'New Note' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByLabel('Title', { exact: true }).fill('Draft that is abandoned');
  await page.keyboard.press('Escape');
  await dialog.getByText('You have unsaved changes. Are you sure you want to close?').waitFor();
  await shot(page, 'dialog-unsaved-confirm-1280', false);
  await dialog.getByRole('button', { name: 'Discard changes' }).click();
  await dialog.waitFor({ state: 'detached' });

  step('search and tags');
  await page.getByRole('searchbox', { name: 'Search notes' }).fill('SOURDOUGH');
  await page.waitForFunction(() => document.querySelectorAll('.note-card').length === 1);
  await page.getByRole('searchbox', { name: 'Search notes' }).fill('');
  await page.getByRole('list', { name: 'Filter by tag' }).getByRole('button', { name: /^home/ }).click();
  await page.waitForFunction(() => document.querySelectorAll('.note-card').length === 3);
  await page
    .getByRole('list', { name: 'Filter by tag' })
    .getByRole('button', { name: /^travel/ })
    .click();
  await page.waitForFunction(() => document.querySelectorAll('.note-card').length === 1);
  await shot(page, 'vault-filtered-1280');
  await page.getByRole('button', { name: 'Clear all' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.note-card').length === 6);

  step('800 px');
  await page.setViewportSize({ width: 800, height: 1000 });
  await page.waitForTimeout(300);
  await shot(page, 'vault-800');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(300);

  step('delete two notes (to the trash)');
  for (const title of ['Wi-Fi at the cabin', 'Gift ideas']) await trashNote(page, title);
  await page.getByRole('heading', { name: 'Notes (4)' }).waitFor();
  await page.getByLabel(/^2 deleted (notes|items)$/).waitFor();

  step('trash: restore one, delete one permanently');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Trash/ }).click();
  await page.getByRole('heading', { name: 'Trash (2)' }).waitFor();
  await shot(page, 'trash-1280');
  await page.getByRole('button', { name: 'Restore Gift ideas' }).click();
  await page.getByRole('heading', { name: 'Trash (1)' }).waitFor();
  await page.getByRole('button', { name: 'Delete Wi-Fi at the cabin permanently' }).click();
  await shot(page, 'trash-confirm-1280', false);
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete permanently' }).click();
  await page.getByText('Trash is empty').waitFor();
  await shot(page, 'trash-empty-1280');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /All Notes/ })
    .click();
  await page.getByRole('heading', { name: 'Notes (5)' }).waitFor();
  await page.getByRole('button', { name: 'Gift ideas', exact: true }).waitFor();

  step('empty trash: Cancel keeps the items, Empty Trash removes them all');
  const scratch = ['Scratch pad', 'Old draft', 'Shopping list (old)'];
  for (const title of scratch) await createNote(page, { title, tags: ['scratch'], content: `${title}.` });
  await page.getByRole('heading', { name: 'Notes (8)' }).waitFor();
  for (const title of scratch) await trashNote(page, title);
  await page.getByRole('heading', { name: 'Notes (5)' }).waitFor();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByLabel(/^3 deleted (notes|items)$/).waitFor();
  await nav.getByRole('link', { name: /Trash/ }).click();
  await page.getByRole('heading', { name: 'Trash (3)' }).waitFor();
  const emptyConfirm = page.getByRole('alertdialog', { name: 'Empty trash' });
  const emptyQuestion =
    'Are you sure? This will permanently delete all 3 items in trash and cannot be undone.';
  await page.getByRole('button', { name: 'Empty Trash' }).click();
  await emptyConfirm.getByText(emptyQuestion, { exact: true }).waitFor();
  await shot(page, 'trash-empty-confirm-1280', false);
  await emptyConfirm.getByRole('button', { name: 'Cancel' }).click();
  await emptyConfirm.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: 'Trash (3)' }).waitFor();
  for (const title of scratch) await page.getByRole('button', { name: `Restore ${title}` }).waitFor();
  await nav.getByLabel(/^3 deleted (notes|items)$/).waitFor();
  // Escape is a cancel too.
  await page.getByRole('button', { name: 'Empty Trash' }).click();
  await emptyConfirm.getByText(emptyQuestion, { exact: true }).waitFor();
  await page.keyboard.press('Escape');
  await emptyConfirm.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: 'Trash (3)' }).waitFor();
  await page.getByRole('button', { name: 'Empty Trash' }).click();
  await emptyConfirm.getByRole('button', { name: 'Empty Trash' }).click();
  await emptyConfirm.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: 'Trash (0)' }).waitFor();
  await page.getByText('Trash is empty').waitFor();
  assert.ok(await page.getByRole('button', { name: 'Empty Trash' }).isDisabled());
  await nav.getByLabel(/^0 deleted (notes|items)$/).waitFor();
  await nav.getByLabel('5 notes').waitFor();
  await shot(page, 'trash-emptied-1280');
  // Gone for good: a reload of the trash (from the server) still shows nothing.
  await page.reload();
  await page
    .getByRole('heading', { name: /^(Unlock your vault|Trash \(\d+\))$/ })
    .first()
    .waitFor({ timeout: 30_000 });
  if (await page.getByRole('heading', { name: 'Unlock your vault' }).isVisible()) {
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Unlock' }).click();
  }
  await page.getByRole('heading', { name: 'Trash (0)' }).waitFor({ timeout: 30_000 });
  await nav.getByLabel(/^0 deleted (notes|items)$/).waitFor();
  await nav.getByRole('link', { name: /All Notes/ }).click();
  await page.getByRole('heading', { name: 'Notes (5)' }).waitFor();

  step('export plain and encrypted');
  await page.goto(`${BASE}/settings?tab=data`).catch(() => undefined);
  // A full page load loses the in-memory key: unlock.
  await page
    .getByRole('heading', { name: /^(Unlock your vault|Settings)$/ })
    .first()
    .waitFor({ timeout: 30_000 });
  if (
    await page
      .getByRole('heading', { name: 'Unlock your vault' })
      .isVisible()
      .catch(() => false)
  ) {
    await shot(page, 'unlock-1280');
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Stay unlocked on this device').check();
    await page.getByRole('button', { name: 'Unlock' }).click();
  }
  await page.getByRole('heading', { name: 'Export notes' }).waitFor({ timeout: 30_000 });
  let download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Notes' }).click();
  let d = await download;
  const plainPath = join(OUT, d.suggestedFilename());
  await d.saveAs(plainPath);
  const plain = JSON.parse(readFileSync(plainPath, 'utf8'));
  assert.equal(plain.version, '1.0');
  assert.equal(plain.notes.length, 5);
  assert.equal(plain.metadata.export_type, 'full_backup');
  assert.equal(plain.user.email, account.email);
  console.log(`  ${d.suggestedFilename()}: ${plain.notes.length} notes`);

  await page.getByRole('radio', { name: /Encrypted with an export password/ }).check();
  await page.getByLabel('Export password', { exact: true }).fill('correct horse battery staple');
  await page.getByLabel('Confirm export password', { exact: true }).fill('correct horse battery staple');
  await shot(page, 'settings-data-1280', false);
  download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Notes' }).click();
  d = await download;
  const encPath = join(OUT, d.suggestedFilename());
  await d.saveAs(encPath);
  const enc = JSON.parse(readFileSync(encPath, 'utf8'));
  assert.equal(enc.format, 'vault-encrypted-backup');
  assert.ok(!readFileSync(encPath, 'utf8').includes('Groceries'));
  console.log(`  ${d.suggestedFilename()}: sealed, ${enc.data.length} hex chars`);

  step('import: all exist, then encrypted with a wrong and the right password');
  await page.getByLabel('Choose backup file').setInputFiles(plainPath);
  await page.getByText('All notes from the backup already exist in your vault.').waitFor();
  await page.getByLabel('Choose backup file').setInputFiles(encPath);
  await page.getByLabel('Backup password', { exact: true }).fill('wrong password');
  await page.getByRole('button', { name: 'Decrypt and import' }).click();
  await page
    .getByText('Failed to import data: The password is wrong, or the file was changed after it was exported.')
    .waitFor({ timeout: 20_000 });
  await shot(page, 'import-wrong-password-1280', false);
  await page.getByLabel('Backup password', { exact: true }).fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Decrypt and import' }).click();
  await page.getByText('All notes from the backup already exist in your vault.').waitFor({ timeout: 20_000 });

  step(`import ${BULK} notes (new ids) with progress`);
  const bulk = {
    version: '1.0',
    notes: Array.from({ length: BULK }, (_, i) => ({
      id: randomUUID(),
      title: `Bulk note ${String(i).padStart(5, '0')}`,
      content: `Imported content ${i}. `.repeat(8),
      tags: [`batch-${i % 7}`, i % 2 ? 'odd' : 'even'],
      createdAt: new Date().toISOString(),
      updatedAt: new Date().toISOString(),
    })),
    user: plain.user,
    metadata: { exported_at: new Date().toISOString(), total_notes: BULK, export_type: 'full_backup' },
  };
  const bulkPath = join(OUT, 'bulk-backup.json');
  writeFileSync(bulkPath, JSON.stringify(bulk));
  const t0 = Date.now();
  await page.getByLabel('Choose backup file').setInputFiles(bulkPath);
  // The progress bar is shown while the import runs; a fast import may finish before a
  // screenshot can be taken, so the picture is best-effort and the result below is the check.
  const progress = page.getByRole('progressbar', { name: 'Import progress' });
  if (
    await progress.waitFor({ timeout: 30_000 }).then(
      () => true,
      () => false,
    )
  ) {
    await progress.scrollIntoViewIfNeeded({ timeout: 2_000 }).catch(() => undefined);
    await shot(page, 'import-progress-1280', false).catch(() => undefined);
  }
  await page.getByText(`Successfully imported ${BULK} notes from backup file.`).waitFor({ timeout: 600_000 });
  timings.importMs = Date.now() - t0;
  console.log(`  imported ${BULK} in ${timings.importMs} ms`);

  step('reload the vault: time to first card and to all decrypted');
  await page.goto(`${BASE}/vault`);
  const tNav = Date.now();
  await page.locator('.note-card').first().waitFor({ timeout: 60_000 });
  timings.firstCardMs = Date.now() - tNav;
  await page.getByRole('heading', { name: `Notes (${BULK + 5})` }).waitFor({ timeout: 120_000 });
  timings.allDecryptedMs = Date.now() - tNav;
  const perf = await page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const firstCard = performance.getEntriesByType('mark');
    return { domContentLoaded: nav?.domContentLoadedEventEnd, marks: firstCard.length };
  });
  console.log(
    `  first card after ${timings.firstCardMs} ms, all ${BULK + 5} decrypted after ${timings.allDecryptedMs} ms`,
    perf,
  );
  await shot(page, 'vault-bulk-1280');
  const cards = await page.locator('.note-card').count();
  assert.equal(cards, 50);
  const showing = page.locator('.vault-notes__count');
  await page.getByText(`Showing 50 of ${BULK + 5}`).waitFor();
  await page.getByRole('button', { name: 'Load More Notes' }).click();
  await page
    .waitForFunction(() => document.querySelectorAll('.note-card').length === 100, undefined, {
      timeout: 30_000,
    })
    .catch(async (error) => {
      // What the page showed when the next 50 did not come, for the log.
      const seen = {
        cards: await page.locator('.note-card').count(),
        showing: await showing.textContent().catch(() => null),
        button: await page.getByRole('button', { name: /Load More Notes|Loading more notes/ }).count(),
      };
      throw new Error(`Load More Notes did not show 100 cards: ${JSON.stringify(seen)}`, { cause: error });
    });
  console.log('  Load More Notes: 50 → 100 cards');

  step('long tasks while typing a search over the whole vault');
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((list) =>
      list.getEntries().forEach((e) => window.__long.push(Math.round(e.duration))),
    ).observe({ type: 'longtask' });
  });
  await page.getByRole('searchbox', { name: 'Search notes' }).pressSequentially('content 99', { delay: 30 });
  await page.waitForTimeout(500);
  const long = await page.evaluate(() => window.__long);
  timings.searchLongTasks = long;
  console.log(`  long tasks during search: ${JSON.stringify(long)}`);
  await shot(page, 'vault-bulk-search-1280');

  step('import the plain export into a fresh account (new browser context)');
  const fresh = await newContextPage('fresh');
  const accountB = freshAccount('b');
  await signUp(fresh.page, BASE, accountB);
  await fresh.page.getByText('No notes found').waitFor();
  await openDataTab(fresh.page);
  await fresh.page.getByLabel('Choose backup file').setInputFiles(plainPath);
  await fresh.page
    .getByText(`Successfully imported ${plain.notes.length} notes from backup file.`, { exact: true })
    .waitFor({ timeout: 60_000 });
  await shot(fresh.page, 'import-fresh-account-1280', false);
  await expectVaultHolds(fresh.page, plain.notes);
  await shot(fresh.page, 'vault-fresh-import-1280');
  // What came in is exactly what went out: a plain export of the new account, notes compared.
  await openDataTab(fresh.page);
  download = fresh.page.waitForEvent('download');
  await fresh.page.getByRole('button', { name: 'Export Notes' }).click();
  d = await download;
  const reexportPath = join(OUT, `fresh-${d.suggestedFilename()}`);
  await d.saveAs(reexportPath);
  const reexport = JSON.parse(readFileSync(reexportPath, 'utf8'));
  assert.equal(reexport.user.email, accountB.email);
  assert.deepEqual(comparable(reexport.notes), comparable(plain.notes));

  step('import the encrypted export into another fresh account: wrong, then the right password');
  const accountC = freshAccount('c');
  await fresh.page.getByRole('button', { name: 'Sign Out' }).click();
  await fresh.page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor();
  await signUp(fresh.page, BASE, accountC);
  await fresh.page.getByText('No notes found').waitFor();
  await openDataTab(fresh.page);
  await fresh.page.getByLabel('Choose backup file').setInputFiles(encPath);
  await fresh.page.getByLabel('Backup password', { exact: true }).fill('correct horse battery stable');
  await fresh.page.getByRole('button', { name: 'Decrypt and import' }).click();
  await fresh.page
    .getByText(
      'Failed to import data: The password is wrong, or the file was changed after it was exported.',
      {
        exact: true,
      },
    )
    .waitFor({ timeout: 20_000 });
  await fresh.page.getByLabel('Backup password', { exact: true }).fill('correct horse battery staple');
  await fresh.page.getByRole('button', { name: 'Decrypt and import' }).click();
  await fresh.page
    .getByText(`Successfully imported ${plain.notes.length} notes from backup file.`, { exact: true })
    .waitFor({ timeout: 60_000 });
  await expectVaultHolds(fresh.page, plain.notes);

  step('the same backup again into that account');
  // Spec section 5: notes whose id already exists are skipped, so a second import adds nothing.
  // Known bug (features/backup/utils/import-notes.ts): a note whose backup id belongs to another
  // account is saved under a random id, so importing the same file again adds every note again.
  // Recorded as a known issue until that is fixed; then this becomes a hard check.
  await openDataTab(fresh.page);
  await fresh.page.getByLabel('Choose backup file').setInputFiles(plainPath);
  const allExist = 'All notes from the backup already exist in your vault.';
  const again = fresh.page.getByText(
    new RegExp(`^(${allExist.replace(/\./g, '\\.')}|Successfully imported \\d+ notes? from backup file\\.)`),
  );
  await again.waitFor({ timeout: 60_000 });
  const againText = await again.innerText();
  // The backup's ids belong to the first account: the fresh account saved them under ids derived
  // from its own id and the backup's, so importing the file again finds every note already there.
  assert.equal(
    againText,
    allExist,
    're-importing a backup made by another account must not duplicate its notes',
  );
  await expectVaultHolds(fresh.page, plain.notes);
  await spec.checkCsp(fresh.page, 'fresh');
  await fresh.context.close();

  const notesWorkers = workers.filter((u) => /notes\.worker-[a-z0-9]+\.js$/.test(u));
  console.log(`  workers started: ${workers.map((u) => u.split('/').pop()).join(', ')}`);
  assert.ok(notesWorkers.length > 0, 'the notes worker ran');
  await spec.checkCsp(page);
} finally {
  await spec.close();
}
writeFileSync(join(OUT, 'timings.json'), JSON.stringify(timings, null, 2));
console.log('timings', timings);
spec.report();
