/* global document, window */
// What a new user meets, in headless Chromium against a running stack (scripts/browser-e2e.mjs
// starts one with every storage kind configured):
//   - the upload dialog's storage choice: every kind the product supports. Against a server that
//     has only the local disk (the answer of GET /api/files/storage-types rewritten as a plain
//     `npm start` install gives it), S3 and Cloudinary are disabled radios whose description
//     (aria-describedby) says why and which settings turn them on, readable at 375 px, and the local
//     disk is preselected; against this stack's real answer all three are offered and its default,
//     Cloudinary, is preselected;
//   - the sidebar's counts after the notes list and the counts failed once (a gateway hiccup,
//     played with page.route): gone while they fail, back after Retry, without a reload.
// No CSP violation, page error or third-party request. Screenshots go to OUT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 node apps/e2e/browser/new-user-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createNote, signUp, startSpec, testAccount } from './support.mjs';

const spec = await startSpec({ out: '.data/new-user-ui-shots' });
const { base: BASE, step, shot } = spec;
const account = testAccount('newuser', randomBytes(3).toString('hex'));
const KINDS = ['Local disk', 'S3 / R2 / MinIO', 'Cloudinary'];

const nav = (page) => page.getByRole('navigation', { name: 'Main' });
const storageTypesUrl = /\/api\/files\/storage-types$/;

/** This stack's answer, rewritten as a server with the local disk only would give it. */
async function localDiskOnly(route) {
  const response = await route.fetch();
  const real = await response.json();
  const kinds = real.kinds.map((k) => ({ ...k, configured: k.type === 'local' }));
  await route.fulfill({
    response,
    json: {
      types: kinds.filter((k) => k.configured).map(({ type, label }) => ({ type, label })),
      kinds,
      default: 'local',
    },
  });
}

async function openUploadDialog(page) {
  await nav(page)
    .getByRole('link', { name: /File Vault/ })
    .click();
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor();
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByRole('radio').first().waitFor({ timeout: 15_000 });
  return dialog;
}

/** Each radio: its name, checked, disabled, and the text of what aria-describedby points at. */
function describeRadios(dialog) {
  return dialog.locator('input[type="radio"]').evaluateAll((inputs) =>
    inputs.map((input) => ({
      name: input.labels?.[0]?.textContent?.trim() ?? '',
      checked: input.checked,
      disabled: input.disabled,
      description: (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .filter(Boolean)
        .map((id) => document.getElementById(id)?.textContent?.trim() ?? `(missing #${id})`)
        .join(' '),
    })),
  );
}

const started = Date.now();
try {
  const { page } = await spec.newPage('new-user', {
    // The counts step provokes 503 answers on purpose.
    allowedErrors: /status of (4\d\d|503)/,
  });

  step('sign up; the storage answer is that of a server with the local disk only');
  await page.route(storageTypesUrl, localDiskOnly);
  await signUp(page, BASE, account);

  step('upload dialog: every kind shown, S3 and Cloudinary disabled with why and what turns them on');
  let dialog = await openUploadDialog(page);
  let radios = await describeRadios(dialog);
  assert.deepEqual(
    radios.map((r) => r.name),
    KINDS,
  );
  assert.deepEqual(
    radios.map((r) => [r.checked, r.disabled]),
    [
      [true, false],
      [false, true],
      [false, true],
    ],
    'the local disk is preselected; S3 and Cloudinary cannot be chosen',
  );
  assert.equal(radios[0].description, '', 'an offered kind needs no explanation');
  assert.equal(
    radios[1].description,
    'Not configured on this server. To offer it, an administrator sets S3_ENDPOINT, S3_BUCKET, ' +
      'S3_ACCESS_KEY and S3_SECRET_KEY on the files service.',
  );
  assert.equal(
    radios[2].description,
    'Not configured on this server. To offer it, an administrator sets CLOUDINARY_URL on the files service.',
  );
  // A disabled radio is still in the accessibility tree, with its description.
  const cloudinary = dialog.getByRole('radio', { name: 'Cloudinary' });
  assert.equal(await cloudinary.isDisabled(), true);
  await shot(page, 'storage-local-only-1280', false);

  step('at 375 px the explanations wrap inside the dialog and stay readable');
  await page.setViewportSize({ width: 375, height: 812 });
  const reasons = dialog.locator('.upload-storage__reason');
  assert.equal(await reasons.count(), 2);
  for (let i = 0; i < 2; i++) {
    const reason = reasons.nth(i);
    await reason.scrollIntoViewIfNeeded();
    assert.ok(await reason.isVisible(), 'the explanation is shown');
    const fit = await reason.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return {
        inside: box.left >= 0 && box.right <= window.innerWidth,
        noOverflow: el.scrollWidth <= el.clientWidth + 1,
        fontPx: parseFloat(window.getComputedStyle(el).fontSize),
      };
    });
    assert.deepEqual(
      { inside: fit.inside, noOverflow: fit.noOverflow },
      { inside: true, noOverflow: true },
      `explanation ${i + 1} fits the 375 px screen`,
    );
    assert.ok(fit.fontPx >= 12, `explanation ${i + 1} is at least 12 px (${fit.fontPx})`);
  }
  assert.ok(
    await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    'nothing scrolls sideways',
  );
  await shot(page, 'storage-local-only-375', false);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await page.setViewportSize({ width: 1280, height: 900 });

  step("this stack's real answer: all three offered, its default (Cloudinary) preselected");
  await page.unroute(storageTypesUrl, localDiskOnly);
  // The answer is kept for the session: a reload (and unlock) asks the server again.
  await page.reload();
  await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByRole('radio').first().waitFor({ timeout: 15_000 });
  radios = await describeRadios(dialog);
  assert.deepEqual(
    radios.map((r) => [r.name, r.checked, r.disabled, r.description]),
    [
      ['Local disk', false, false, ''],
      ['S3 / R2 / MinIO', false, false, ''],
      ['Cloudinary', true, false, ''],
    ],
  );
  await shot(page, 'storage-all-1280', false);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  step('a note in the vault and one in the trash: the sidebar counts them');
  await nav(page)
    .getByRole('link', { name: /All Notes/ })
    .click();
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor();
  await createNote(page, { title: 'Stays', content: 'in the vault' });
  await createNote(page, { title: 'Binned', content: 'in the trash' });
  await page.getByRole('button', { name: 'Binned', exact: true }).click();
  const noteDialog = page.getByRole('dialog');
  await noteDialog.getByRole('button', { name: 'Delete' }).click();
  await noteDialog.getByRole('button', { name: 'Delete note' }).click();
  await noteDialog.waitFor({ state: 'detached' });
  await nav(page).getByLabel('1 note', { exact: true }).waitFor({ timeout: 15_000 });
  await nav(page).getByLabel('1 deleted item', { exact: true }).waitFor({ timeout: 15_000 });

  step('the notes list and the counts fail once: the counts are gone, Retry brings them back');
  let failing = true;
  const fail = (route) =>
    failing ? route.fulfill({ status: 503, json: { error: 'Service unavailable' } }) : route.fallback();
  const listUrl = /\/api\/notes(\?.*)?$/;
  const countsUrl = /\/api\/notes\/counts$/;
  await page.route(listUrl, fail);
  await page.route(countsUrl, fail);
  const countsFailed = page.waitForResponse((r) => countsUrl.test(r.url()) && r.status() === 503);
  await page.reload();
  await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Unlock' }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'Failed to load notes' });
  await banner.waitFor({ timeout: 30_000 });
  await countsFailed;
  assert.equal(
    await nav(page)
      .getByRole('link', { name: /All Notes/ })
      .locator('.sidebar__count')
      .count(),
    0,
    'no All Notes count while the counts fail',
  );
  assert.equal(
    await nav(page).getByRole('link', { name: /Trash/ }).locator('.sidebar__count').count(),
    0,
    'no Trash count without the deleted notes (the files alone would count something else)',
  );
  await shot(page, 'counts-failed-1280');
  failing = false;
  await banner.getByRole('button', { name: 'Retry' }).click();
  await page.getByRole('button', { name: 'Stays', exact: true }).waitFor({ timeout: 30_000 });
  await nav(page).getByLabel('1 note', { exact: true }).waitFor({ timeout: 15_000 });
  await nav(page).getByLabel('1 deleted item', { exact: true }).waitFor({ timeout: 15_000 });
  await page.getByRole('heading', { name: 'Notes (1)', exact: true }).waitFor();
  await shot(page, 'counts-back-after-retry-1280');
  await page.unroute(listUrl, fail);
  await page.unroute(countsUrl, fail);

  await spec.checkCsp(page);
} finally {
  await spec.close();
}
console.log(`new-user-ui: ${((Date.now() - started) / 1000).toFixed(1)} s`);
spec.report();
