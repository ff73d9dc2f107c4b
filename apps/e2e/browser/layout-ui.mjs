/* global document, window, getComputedStyle, NodeFilter */
// What a new user meets, measured with real geometry in headless Chromium at 375, 1280 and 1920 px
// (and 768 for the tablet grid) against a running stack (scripts/browser-e2e.mjs starts one):
//
// - Settings: all three tabs inside the viewport, no sideways scroll of the page or the tab row;
// - the note grid: 1 column on a phone, 2 on a tablet, 3 on a desktop (1280 and up);
// - a long tag chip (note card, file card, active filter): cut with an ellipsis, the full tag in
//   its title;
// - a file card's Preview, Download and Delete on one row, inside the card;
// - the unlock screen's e-mail address broken only after '@' or before a '.', never mid-word;
// - a PDF opened in a new tab: the tab is titled with the file's name.
//
// No CSP violation, page error or third-party request. Screenshots go to OUT_DIR.
//
//   BASE_URL=http://127.0.0.1:8080 node apps/e2e/browser/layout-ui.mjs
import { randomBytes } from 'node:crypto';
import {
  createNote,
  makePdf,
  signUp,
  startSpec,
  testAccount,
  watch,
  withoutSaveFilePicker,
} from './support.mjs';

const spec = await startSpec({ out: '.data/layout-ui-shots', shotPrefix: 'layout-' });
const { base: BASE, problems, step, shot } = spec;
const id = randomBytes(3).toString('hex');
// A long address without hyphens: its only sensible break points are after '@' and before a '.'.
const account = { ...testAccount('layout', id), email: `layoutcheck${id}newuser@mail.subdomain.example.org` };
const WIDTHS = [375, 1280, 1920];
const LONG_TAG = `an-extremely-long-tag-name-that-cannot-fit-on-any-card-${id}`;
const PDF_NAME = `Quarterly report ${id}.pdf`;

const nav = (page) => page.getByRole('navigation', { name: 'Main' });
const failures = [];
/** A layout rule broken: recorded (the run goes on, so every point is measured), failed at the end. */
function check(ok, message) {
  if (!ok) failures.push(message);
}

async function atWidth(page, width) {
  await page.setViewportSize({ width, height: 900 });
  // The shell switches between its drawer and its sidebar on a media query: let it settle.
  await page.waitForTimeout(150);
}

/** Opens a sidebar link whether the sidebar is shown or behind the menu button (phones). */
async function go(page, name) {
  const link = nav(page).getByRole('link', { name });
  if (!(await link.isVisible().catch(() => false))) {
    await page.getByRole('button', { name: 'Show navigation' }).click();
  }
  await link.click();
}

/** The page itself does not scroll sideways. */
async function expectNoSideScroll(page, label) {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.scrollingElement.scrollWidth,
    clientWidth: document.scrollingElement.clientWidth,
  }));
  check(scrollWidth <= clientWidth, `${label}: the page scrolls sideways (${scrollWidth} > ${clientWidth})`);
}

/**
 * Long tag chips in `scope` (a CSS selector): one line clipped with an ellipsis, the full tag in a
 * title, inside their row; and (`mustCut`) actually cut, the text wider than its box.
 */
async function expectEllipsisChips(page, scope, label, mustCut = true) {
  const chips = await page.locator(scope).evaluateAll(
    (els, tag) =>
      els
        .filter((el) => el.textContent.includes(tag))
        .map((el) => {
          // The element whose text is cut: the chip's own text element, or the chip.
          const text = el.querySelector('span') ?? el;
          const style = getComputedStyle(text);
          return {
            // A flex or grid container cannot cut its own text with an ellipsis.
            display: style.display,
            title: el.getAttribute('title') ?? text.getAttribute('title'),
            textOverflow: style.textOverflow,
            overflow: style.overflowX,
            whiteSpace: style.whiteSpace,
            cut: text.scrollWidth > text.clientWidth,
            inside: el.getBoundingClientRect().right <= el.parentElement.getBoundingClientRect().right + 0.5,
          };
        }),
    LONG_TAG,
  );
  check(chips.length > 0, `${label}: no chip with the long tag`);
  for (const c of chips) {
    check(c.textOverflow === 'ellipsis', `${label}: chip text-overflow is ${c.textOverflow}, not ellipsis`);
    check(
      !/flex|grid/.test(c.display),
      `${label}: the chip's text is cut by a ${c.display} box (no ellipsis shows)`,
    );
    check(
      c.overflow === 'hidden' && c.whiteSpace === 'nowrap',
      `${label}: chip text is not clipped on one line`,
    );
    if (mustCut) check(c.cut, `${label}: the long tag is not cut (scrollWidth <= clientWidth)`);
    check(c.title === LONG_TAG, `${label}: chip title is ${JSON.stringify(c.title)}, not the full tag`);
    check(c.inside, `${label}: the chip sticks out of its row`);
  }
}

/**
 * Where the text of `selector` wraps: for each line break, the characters either side. Walks every
 * text node (the address may be split by <wbr>) and compares the tops of consecutive characters.
 */
async function lineBreaks(page, selector) {
  return page.locator(selector).evaluate((el) => {
    const chars = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (rect) chars.push({ ch: node.data[i], top: rect.top, height: rect.height });
      }
    }
    const breaks = [];
    for (let i = 1; i < chars.length; i++) {
      if (chars[i].top > chars[i - 1].top + chars[i - 1].height / 2)
        breaks.push([chars[i - 1].ch, chars[i].ch]);
    }
    return { text: chars.map((c) => c.ch).join(''), breaks };
  });
}

try {
  const { page, context } = await spec.newPage('layout', {
    acceptDownloads: true,
    initScript: withoutSaveFilePicker,
  });

  step('sign up; notes, one with a long tag');
  await signUp(page, BASE, account);
  await createNote(page, {
    title: 'Long tag',
    tags: [LONG_TAG, 'short'],
    content: 'A note with a very long tag.',
  });
  for (let i = 1; i <= 5; i++) {
    await createNote(page, { title: `Note ${i}`, tags: ['t'], content: 'Some words of content. '.repeat(4) });
  }

  step('the note grid: 1 column on a phone, 2 on a tablet, 3 on a desktop; long chips cut with an ellipsis');
  for (const [width, columns] of [
    [375, 1],
    [768, 2],
    [1280, 3],
    [1920, 3],
  ]) {
    await atWidth(page, width);
    const measured = await page
      .locator('.note-card')
      .evaluateAll((cards) => new Set(cards.map((c) => Math.round(c.getBoundingClientRect().left))).size);
    check(measured === columns, `note grid at ${width} px: ${measured} columns, not ${columns}`);
    await expectNoSideScroll(page, `vault at ${width} px`);
    await expectEllipsisChips(page, '.note-card .chip', `note card chip at ${width} px`);
    // On a tablet the tag list has the page's width: the tag may fit there.
    await expectEllipsisChips(
      page,
      '.tag-panel__list .tag-filter',
      `tag filter at ${width} px`,
      width !== 768,
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `vault-${width}`, false);
  }

  step('the active tag filter chip');
  await atWidth(page, 1280);
  await page
    .getByRole('list', { name: 'Filter by tag' })
    .getByRole('button', { name: new RegExp(LONG_TAG) })
    .click();
  for (const width of WIDTHS) {
    await atWidth(page, width);
    await expectEllipsisChips(page, '.tag-panel__chips .chip', `active filter chip at ${width} px`);
    await expectNoSideScroll(page, `vault (filtered) at ${width} px`);
    await shot(page, `vault-filtered-${width}`, false);
  }
  await atWidth(page, 1280);
  // By keyboard: before the fix the overflowing filter chip covered the button.
  await page.getByRole('button', { name: 'Clear all' }).press('Enter');

  step('Settings: the three tabs fit');
  await go(page, 'Settings');
  await page.getByRole('tab', { name: 'Security' }).waitFor();
  for (const width of [...WIDTHS, 320]) {
    await atWidth(page, width);
    const tabs = await page.getByRole('tab').evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        const label = el.querySelector('span');
        return {
          name: el.textContent.trim(),
          left: r.left,
          right: r.right,
          labelCut: label ? label.scrollWidth > label.clientWidth + 0.5 : false,
        };
      }),
    );
    const list = await page.getByRole('tablist').evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }));
    check(tabs.length === 3, `settings at ${width} px: ${tabs.length} tabs`);
    for (const t of tabs) {
      check(
        t.left >= 0 && t.right <= width,
        `settings at ${width} px: tab ${t.name} is outside the viewport`,
      );
      check(!t.labelCut, `settings at ${width} px: the label of ${t.name} is cut`);
    }
    check(list.scrollWidth <= list.clientWidth, `settings at ${width} px: the tab row scrolls sideways`);
    await expectNoSideScroll(page, `settings at ${width} px`);
    if (width !== 320) await shot(page, `settings-${width}`, false);
  }
  // Every tab is reachable and opens its panel at the narrowest width.
  await atWidth(page, 375);
  await page.getByRole('tab', { name: 'Account' }).click();
  await page.getByRole('tab', { name: 'Account', selected: true }).waitFor();
  await shot(page, 'settings-account-375', false);

  step('File Vault: a PDF with a long tag; the card’s buttons on one row');
  await atWidth(page, 1280);
  await go(page, /File Vault/);
  await page.getByRole('heading', { name: 'Encrypted File Vault' }).waitFor();
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload Files' });
  await dialog.getByLabel('Tags (optional)').fill(`${LONG_TAG}, docs`);
  await dialog
    .locator('input[type="file"]')
    .setInputFiles([{ name: PDF_NAME, mimeType: 'application/pdf', buffer: makePdf('Layout check') }]);
  // Upload (enabled once the storage choice has loaded).
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await dialog.getByRole('progressbar', { name: `${PDF_NAME}: Completed` }).waitFor({ timeout: 30_000 });
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
  const card = page
    .locator('article.file-card')
    .filter({ has: page.getByRole('heading', { name: PDF_NAME }) });
  await card.waitFor();
  for (const width of WIDTHS) {
    await atWidth(page, width);
    const geometry = await card.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return {
        card: { left: box.left, right: box.right },
        buttons: [...el.querySelectorAll('.file-card__actions button')].map((b) => {
          const r = b.getBoundingClientRect();
          const label = b.querySelector('.btn__label');
          return {
            name: b.getAttribute('aria-label'),
            middle: (r.top + r.bottom) / 2,
            top: r.top,
            bottom: r.bottom,
            left: r.left,
            right: r.right,
            labelCut: label ? label.scrollWidth > label.clientWidth + 0.5 : false,
          };
        }),
      };
    });
    // One row: every button's middle within the others' height.
    const [first, ...rest] = geometry.buttons;
    check(geometry.buttons.length === 3, `file card at ${width} px: ${geometry.buttons.length} buttons`);
    check(
      rest.every(
        (b) => b.middle > first.top && b.middle < first.bottom && Math.abs(b.middle - first.middle) <= 2,
      ),
      `file card at ${width} px: the buttons are not on one row (${geometry.buttons.map((b) => Math.round(b.top)).join(', ')})`,
    );
    for (const b of geometry.buttons) {
      check(
        b.left >= geometry.card.left && b.right <= geometry.card.right + 0.5,
        `file card at ${width} px: ${b.name} sticks out of the card`,
      );
      check(!b.labelCut, `file card at ${width} px: the label of ${b.name} is cut`);
    }
    await expectEllipsisChips(page, '.file-card .chip', `file card chip at ${width} px`);
    await expectNoSideScroll(page, `files at ${width} px`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot(page, `files-${width}`, false);
  }

  step('the PDF opened in a new tab carries the file’s name');
  await atWidth(page, 1280);
  await page.getByRole('button', { name: `Preview ${PDF_NAME}`, exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Authenticate Preview' });
  await prompt.getByLabel('Current Password', { exact: true }).fill(account.password);
  await prompt.getByRole('button', { name: 'Preview', exact: true }).click();
  const modal = page.getByRole('dialog', { name: PDF_NAME });
  await modal.waitFor({ timeout: 20_000 });
  const popupPromise = context.waitForEvent('page');
  await modal.getByRole('button', { name: 'Open in New Tab' }).first().click();
  const popup = await popupPromise;
  // The browser's own PDF viewer loads chrome:// and chrome-extension:// parts: only the web counts.
  watch(popup, { label: 'pdf tab', problems });
  popup.on('request', (r) => {
    if (/^https?:/.test(r.url()) && !r.url().startsWith(new URL(BASE).origin))
      problems.push(`pdf tab: third-party: ${r.url()}`);
  });
  await popup.waitForLoadState();
  // The PDF loads (the object URL of the decrypted bytes) and the viewer reads it.
  await popup
    .waitForFunction(() => document.querySelector('iframe')?.src.startsWith('blob:'), null, {
      timeout: 10_000,
    })
    .catch(() => undefined);
  await popup.waitForTimeout(1500);
  const title = await popup.title();
  check(
    title === PDF_NAME,
    `the PDF tab is titled ${JSON.stringify(title)}, not ${JSON.stringify(PDF_NAME)}`,
  );
  const frames = popup.frames().map((f) => f.url());
  check(
    frames.some((u) => u.startsWith('blob:')),
    `the PDF tab has no frame of the decrypted PDF (${frames.join(', ')})`,
  );
  // Chromium's viewer titles its toolbar with the PDF's /Title, else with the object URL's id,
  // once it has read the file: on a busy machine that may take longer than the wait above.
  const viewers = popup.frames().filter((f) => f.url().startsWith('chrome-extension:'));
  const titlesOf = () => Promise.all(viewers.map((f) => f.title().catch(() => null)));
  let viewerTitles = await titlesOf();
  for (let end = Date.now() + 10_000; viewerTitles.some((t) => !t) && Date.now() < end;) {
    await popup.waitForTimeout(200);
    viewerTitles = await titlesOf();
  }
  console.log(`  PDF viewer title(s): ${JSON.stringify(viewerTitles)}`);
  check(
    viewers.length === 0 || viewerTitles.includes(PDF_NAME),
    `the PDF viewer shows ${JSON.stringify(viewerTitles)}, not the file name`,
  );
  await shot(popup, 'pdf-tab-1280', false);
  await spec.checkCsp(popup, 'pdf tab');
  await popup.close();
  await page.keyboard.press('Escape');
  await modal.waitFor({ state: 'detached' });

  step('the unlock screen: the e-mail wraps only at sensible points');
  await page.goto(`${BASE}/vault`);
  await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
  for (const width of [...WIDTHS, 320]) {
    await atWidth(page, width);
    const { text, breaks } = await lineBreaks(page, '.auth__email');
    check(text === account.email, `unlock at ${width} px: the e-mail reads ${JSON.stringify(text)}`);
    for (const [before, after] of breaks) {
      check(
        before === '@' || after === '.',
        `unlock at ${width} px: the e-mail breaks mid-word, between ${JSON.stringify(before)} and ${JSON.stringify(after)}`,
      );
    }
    await expectNoSideScroll(page, `unlock at ${width} px`);
    if (width !== 320) await shot(page, `unlock-${width}`, false);
    console.log(`  unlock at ${width} px: e-mail on ${breaks.length + 1} line(s)`);
  }
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });

  await spec.checkCsp(page);
} catch (error) {
  problems.push(error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await spec.close();
}
for (const f of failures) console.log(`  ✗ ${f}`);
problems.push(...failures);
spec.report();
