/* global document */
// Zero knowledge through the real UI (issue 3): headless Chromium types unique marker strings into every
// field (sign-up identity and password, note titles, contents and tags, an edit, a search, an import, an
// export password), goes through tag filter, delete/restore, plain and encrypted export and import, sign
// out, sign in, reload and unlock. Then every row of every table of the run's database, every Redis key
// (name and value) under the run's prefix and every file in the run's log folder are searched for each
// marker (case-insensitive) and for the hex and base64 encodings of the password markers.
//
// The server may see the username, e-mail and phone (docs/threat-model.md, "What the server holds"): those
// markers may appear in auth.users only (that is also the control proving the search finds things). Every
// other marker must appear nowhere. Exit code 0 only when there is no hit.
//
//   BASE_URL=… DATABASE_URL=… REDIS_URL=… REDIS_PREFIX=… LOG_DIR=… node apps/e2e/browser/zero-knowledge-ui.mjs
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Redis from 'ioredis';
import pg from 'pg';
import {
  createNote,
  launchChromium,
  listFiles,
  settleLogs,
  signUp,
  specSetup,
  submitSignIn,
  watch,
} from './support.mjs';

const { DATABASE_URL, REDIS_URL, REDIS_PREFIX, LOG_DIR } = process.env;
for (const [name, value] of Object.entries({ DATABASE_URL, REDIS_URL, REDIS_PREFIX, LOG_DIR }))
  if (!value) {
    console.error(`zero-knowledge-ui: ${name} is required (scripts/browser-e2e.mjs passes it)`);
    process.exit(2);
  }
const { base: BASE, out: OUT, problems, step, shot } = specSetup({ out: '.data/zero-knowledge-ui' });

// Every marker has its own random core, so that one marker appearing where it may (the username in
// auth.users) says nothing about the others.
const hex = () => randomBytes(8).toString('hex');
const M = {
  // What the server may see (identity): allowed in auth.users only.
  username: `ZKMUser${hex()}`,
  email: `zkmmail${hex()}`,
  phone: `9${[...randomBytes(14)].map((b) => b % 10).join('')}`,
  // What the server must never see.
  password: `ZKMPass${hex()}Aa1`,
  title: `ZKMTitle${hex()}`,
  title2: `ZKMTitleTwo${hex()}`,
  content: `ZKMBody${hex()}`,
  tag: `zkmtag${hex()}`,
  edited: `ZKMEdit${hex()}`,
  editedTag: `zkmedittag${hex()}`,
  search: `ZKMSearch${hex()}`,
  imported: `ZKMImport${hex()}`,
  exportPassword: `ZKMExport${hex()}Pw1`,
};
const account = {
  username: M.username,
  email: `${M.email}@example.org`,
  phone: `+${M.phone}`,
  password: M.password,
};

const cards = (n) =>
  page.waitForFunction((count) => document.querySelectorAll('.note-card').length === count, n);
let page;

// ---------------------------------------------------------------------------------------------- UI flow
const browser = await launchChromium();
try {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  page = await context.newPage();
  // Page errors and CSP messages only: what this spec searches for is in the stores, not the console.
  watch(page, { problems, consoleErrors: false });

  step('sign up with a marker in every field');
  await signUp(page, BASE, account);
  await page.getByText('No notes found').waitFor();

  step('create notes with markers in title, content and tags');
  await createNote(page, {
    title: M.title,
    tags: [M.tag, 'plain'],
    content: `${M.content}\nsecond line ${M.search}`,
  });
  await createNote(page, { title: M.title2, tags: ['plain'], content: 'nothing secret here' });
  await createNote(page, { title: 'Ordinary note', tags: [], content: `mentions ${M.content} again` });
  await page.getByRole('heading', { name: 'Notes (3)' }).waitFor();

  step('edit one');
  await page.getByRole('button', { name: M.title2, exact: true }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByLabel('Content', { exact: true }).fill(`edited: ${M.edited}`);
  await dialog.getByLabel('Tags', { exact: true }).fill(M.editedTag);
  await dialog.getByLabel('Tags', { exact: true }).press('Enter');
  await dialog.getByRole('button', { name: 'Update' }).click();
  await dialog.waitFor({ state: 'detached' });

  step('search for a marker, then filter by a marker tag');
  await page.getByRole('searchbox', { name: 'Search notes' }).fill(M.search);
  await cards(1);
  await page.getByRole('searchbox', { name: 'Search notes' }).fill(M.edited.toLowerCase());
  await cards(1);
  await page.getByRole('searchbox', { name: 'Search notes' }).fill('');
  await cards(3);
  const tagFilter = page.getByRole('list', { name: 'Filter by tag' });
  await tagFilter.getByRole('button', { name: new RegExp(`^${M.tag}`, 'i') }).click();
  await cards(1);
  await page.getByRole('button', { name: 'Clear all' }).click();
  await tagFilter.getByRole('button', { name: new RegExp(`^${M.editedTag}`, 'i') }).click();
  await cards(1);
  await page.getByRole('button', { name: 'Clear all' }).click();
  await cards(3);
  await shot(page, 'vault');

  step('delete and restore');
  await page.getByRole('button', { name: M.title2, exact: true }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog.getByRole('button', { name: 'Delete note' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByRole('heading', { name: 'Notes (2)' }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Trash/ }).click();
  await page.getByRole('heading', { name: 'Trash (1)' }).waitFor();
  await page.getByRole('button', { name: `Restore ${M.title2}` }).click();
  await page.getByText('Trash is empty').waitFor();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /All Notes/ })
    .click();
  await page.getByRole('heading', { name: 'Notes (3)' }).waitFor();

  step('export plain and encrypted (marker export password)');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('tab', { name: 'Data & Privacy' }).click();
  await page.getByRole('heading', { name: 'Export notes' }).waitFor({ timeout: 30_000 });
  let download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Notes' }).click();
  let d = await download;
  const plainPath = join(OUT, 'plain-export.json');
  await d.saveAs(plainPath);
  const plain = JSON.parse(readFileSync(plainPath, 'utf8'));
  assert.equal(plain.notes.length, 3);
  assert.ok(readFileSync(plainPath, 'utf8').includes(M.title), 'the plain export holds the typed title');

  await page.getByRole('radio', { name: /Encrypted with an export password/ }).check();
  await page.getByLabel('Export password', { exact: true }).fill(M.exportPassword);
  await page.getByLabel('Confirm export password', { exact: true }).fill(M.exportPassword);
  download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Notes' }).click();
  d = await download;
  const encPath = join(OUT, 'encrypted-export.json');
  await d.saveAs(encPath);
  assert.ok(!readFileSync(encPath, 'utf8').includes(M.title), 'the encrypted export is sealed');

  step('import into the same account: plain, encrypted, and one new note with a marker');
  await page.getByLabel('Choose backup file').setInputFiles(plainPath);
  await page.getByText('All notes from the backup already exist in your vault.').waitFor({ timeout: 20_000 });
  await page.getByLabel('Choose backup file').setInputFiles(encPath);
  await page.getByLabel('Backup password', { exact: true }).fill(M.exportPassword);
  await page.getByRole('button', { name: 'Decrypt and import' }).click();
  await page.getByText('All notes from the backup already exist in your vault.').waitFor({ timeout: 20_000 });
  const now = new Date().toISOString();
  const extra = {
    ...plain,
    notes: [
      {
        id: randomUUID(),
        title: M.imported,
        content: `imported ${M.imported}`,
        tags: [M.imported.toLowerCase()],
        createdAt: now,
        updatedAt: now,
      },
    ],
    metadata: { ...plain.metadata, total_notes: 1 },
  };
  const extraPath = join(OUT, 'import-extra.json');
  writeFileSync(extraPath, JSON.stringify(extra));
  await page.getByLabel('Choose backup file').setInputFiles(extraPath);
  await page.getByText('Successfully imported 1 note from backup file.').waitFor({ timeout: 30_000 });

  step('sign out, sign in again with the marker password');
  await page.getByRole('button', { name: 'Sign Out' }).click();
  await page.getByRole('heading', { name: 'Sign in to your vault' }).waitFor();
  await submitSignIn(page, account.username, account.password);
  await page.getByRole('heading', { name: 'Personal Vault' }).waitFor({ timeout: 30_000 });
  await page.getByRole('heading', { name: 'Notes (4)' }).waitFor({ timeout: 30_000 });

  step('reload, unlock with the marker password');
  await page.goto(`${BASE}/vault`);
  await page.getByRole('heading', { name: 'Unlock your vault' }).waitFor({ timeout: 30_000 });
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Unlock' }).click();
  await page.getByRole('heading', { name: 'Notes (4)' }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: M.imported, exact: true }).waitFor();
  await shot(page, 'vault-after-unlock');
} catch (error) {
  if (page) await shot(page, 'failure').catch(() => undefined);
  throw error;
} finally {
  await browser.close();
}

// ------------------------------------------------------------------------------------- the stores
function quoteIdent(name) {
  return `"${name.replace(/"/g, '""')}"`;
}

/** This run's notes only: other specs may share the stack's database. */
async function countOwnNotes(usernameMarker) {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const res = await client.query(
      `SELECT count(*)::int AS n FROM notes.notes
        WHERE owner_id IN (SELECT id FROM auth.users WHERE username ILIKE '%' || $1 || '%')`,
      [usernameMarker],
    );
    return res.rows[0]?.n;
  } finally {
    await client.end();
  }
}

async function dumpDatabase() {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const tables = await client.query(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
        ORDER BY 1, 2`,
    );
    const out = [];
    for (const { table_schema: schema, table_name: table } of tables.rows) {
      const rows = await client.query(
        `SELECT t::text AS row FROM ${quoteIdent(schema)}.${quoteIdent(table)} t`,
      );
      out.push({
        name: `db:${schema}.${table}`,
        rows: rows.rows.length,
        content: rows.rows.map((r) => r.row).join('\n'),
      });
    }
    return out;
  } finally {
    await client.end();
  }
}

async function redisValue(redis, key) {
  switch (await redis.type(key)) {
    case 'string':
      return (await redis.getBuffer(key))?.toString('latin1') ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'list':
      return JSON.stringify(await redis.lrange(key, 0, -1));
    case 'set':
      return JSON.stringify(await redis.smembers(key));
    case 'zset':
      return JSON.stringify(await redis.zrange(key, 0, -1, 'WITHSCORES'));
    case 'stream':
      return JSON.stringify(await redis.xrange(key, '-', '+'));
    default:
      return '';
  }
}

async function dumpRedis() {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
  await redis.connect();
  try {
    const keys = new Set();
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(
        cursor,
        'MATCH',
        `${REDIS_PREFIX.replace(/[*?[\]\\]/g, '\\$&')}*`,
        'COUNT',
        1000,
      );
      cursor = next;
      for (const key of batch) keys.add(key);
    } while (cursor !== '0');
    const out = [];
    for (const key of [...keys].sort())
      out.push({ name: `redis:${key}`, content: `${key}\n${await redisValue(redis, key)}` });
    return out;
  } finally {
    redis.disconnect();
  }
}

const readLogs = () =>
  listFiles(LOG_DIR).map((path) => ({
    name: `log:${relative(LOG_DIR, path)}`,
    content: readFileSync(path, 'utf8'),
  }));

/** Every place (text name) where `value` occurs, case-insensitive. */
function where(texts, value) {
  const needle = value.toLowerCase();
  return texts.filter((t) => t.content.toLowerCase().includes(needle)).map((t) => t.name);
}

step('search the database, Redis and the logs');
const barrier = await settleLogs(BASE, LOG_DIR);
const db = await dumpDatabase();
const redisTexts = await dumpRedis();
const logs = readLogs();
const all = [...db, ...redisTexts, ...logs];
console.log(
  `  ${db.length} tables (${db.reduce((n, t) => n + t.rows, 0)} rows), ${redisTexts.length} Redis keys, ` +
    `${logs.length} log files (${logs.reduce((n, f) => n + f.content.length, 0)} chars)`,
);

let passed = 0;
function check(label, ok, detail = '') {
  if (ok) passed += 1;
  else problems.push(`${label}${detail ? `: ${detail}` : ''}`);
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${label}${!ok && detail ? ` (${detail})` : ''}`);
}

// Controls: the search finds what is there.
check('control: the log barrier is found in the logs', where(logs, barrier).length > 0);
check('control: the username marker is found in auth.users', where(db, M.username).includes('db:auth.users'));
check('control: the e-mail marker is found in auth.users', where(db, M.email).includes('db:auth.users'));
check('control: the phone marker is found in auth.users', where(db, M.phone).includes('db:auth.users'));
const ownNotes = await countOwnNotes(M.username);
check("control: notes.notes holds this account's 4 notes", ownNotes === 4, `rows: ${ownNotes}`);
check('control: Redis holds keys under the prefix', redisTexts.length > 0);
check(
  'control: the logs hold the gateway and notes services',
  ['log:gateway.log', 'log:notes.log', 'log:auth.log'].every((n) => logs.some((l) => l.name === n)),
  logs.map((l) => l.name).join(', '),
);

// Identity: auth.users only.
for (const label of ['username', 'email', 'phone']) {
  const hits = where(all, M[label]).filter((n) => n !== 'db:auth.users');
  check(`${label} marker only in auth.users`, hits.length === 0, hits.join(', '));
}

// Secrets: nowhere, as typed and (passwords) as hex and base64.
const secrets = [];
for (const label of [
  'password',
  'title',
  'title2',
  'content',
  'tag',
  'edited',
  'editedTag',
  'search',
  'imported',
  'exportPassword',
])
  secrets.push([`${label} marker`, M[label]], [`${label} marker core`, M[label].match(/[0-9a-f]{16}/)[0]]);
for (const label of ['password', 'exportPassword']) {
  const bytes = Buffer.from(M[label], 'utf8');
  secrets.push(
    [`${label} marker, hex`, bytes.toString('hex')],
    [`${label} marker, base64`, bytes.toString('base64').replace(/=+$/, '')],
    [`${label} marker, base64url`, bytes.toString('base64url')],
  );
}
for (const [label, value] of secrets) {
  const hits = where(all, value);
  check(`${label} nowhere`, hits.length === 0, hits.join(', '));
}

if (problems.length) console.log(`PROBLEMS:\n${problems.join('\n')}`);
console.log(`zero-knowledge-ui: ${passed} passed, ${problems.length} failed`);
process.exitCode = problems.length ? 1 : 0;
