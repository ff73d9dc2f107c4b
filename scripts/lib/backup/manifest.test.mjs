// Unit tests of the manifest checks (node --test; scripts/backup-e2e.mjs runs them first): a
// backup whose dump, object or key differs from its manifest is refused with a message naming
// the part, and a manifest naming anything a restore could not safely write is refused whole.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import {
  BackupError,
  DUMP_FILE,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST_FILE,
  checkManifestShape,
  objectPath,
  readManifest,
  verifyBackup,
} from './manifest.mjs';

const sha256 = (buf) => createHash('sha256').update(buf).digest('hex');

/** A small, valid backup folder: a dump, two objects, one key. */
function makeBackup(dir) {
  const dump = randomBytes(300);
  writeFileSync(join(dir, DUMP_FILE), dump);
  const owner = randomUUID();
  const objects = ['local', 's3'].map((storageType) => {
    const fileId = randomUUID();
    const key = `${owner}/${fileId}`;
    const bytes = randomBytes(1000);
    const path = join(dir, objectPath(storageType, key));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    return { fileId, storageType, key, bytes: bytes.length, sha256: sha256(bytes) };
  });
  mkdirSync(join(dir, 'keys'));
  writeFileSync(join(dir, 'keys', 'server-secret'), 'a-secret-of-forty-eight-characters-for-the-test!');
  const manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    app: { version: '0.1.0', commit: null },
    database: { file: DUMP_FILE, bytes: dump.length, sha256: sha256(dump) },
    objects,
    gone: [],
    missing: [],
    pendingUploads: 0,
    keys: [
      {
        name: 'SERVER_SECRET',
        file: 'keys/server-secret',
        sha256: sha256('a-secret-of-forty-eight-characters-for-the-test!'),
      },
    ],
  };
  writeFileSync(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
  return manifest;
}

async function refusal(promise) {
  const error = await promise.then(
    () => assert.fail('the backup was accepted'),
    (e) => e,
  );
  assert.ok(error instanceof BackupError, `not a BackupError: ${error}`);
  return error.message;
}

describe('verifyBackup', () => {
  let dir;
  let manifest;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-backup-test-'));
    manifest = makeBackup(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('accepts an untouched backup, every part counted', async () => {
    assert.deepEqual(await verifyBackup(dir, readManifest(dir)), { parts: 4 });
  });

  it('refuses a changed object, naming it, even at the same size', async () => {
    const o = manifest.objects[1];
    const path = join(dir, objectPath(o.storageType, o.key));
    writeFileSync(path, randomBytes(o.bytes));
    const message = await refusal(verifyBackup(dir, readManifest(dir)));
    assert.match(message, /damaged or was changed; nothing was restored/);
    assert.match(message, new RegExp(`object s3:${o.key} does not match its SHA-256`));
    assert.doesNotMatch(message, /local:/);
  });

  it('refuses a dump that grew, giving both sizes', async () => {
    appendFileSync(join(dir, DUMP_FILE), 'x');
    const message = await refusal(verifyBackup(dir, readManifest(dir)));
    assert.match(
      message,
      new RegExp(
        `the database dump has ${manifest.database.bytes + 1} bytes, the manifest says ${manifest.database.bytes}`,
      ),
    );
  });

  it('refuses missing parts and lists every problem at once', async () => {
    const o = manifest.objects[0];
    unlinkSync(join(dir, objectPath(o.storageType, o.key)));
    writeFileSync(join(dir, 'keys', 'server-secret'), 'another');
    const message = await refusal(verifyBackup(dir, readManifest(dir)));
    assert.match(message, new RegExp(`object local:${o.key} is missing`));
    assert.match(message, /key SERVER_SECRET does not match its SHA-256/);
  });
});

describe('readManifest and checkManifestShape', () => {
  let dir;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-backup-test-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names an unfinished backup when the manifest is missing', () => {
    mkdirSync(`${dir}/b.partial`);
    assert.throws(
      () => readManifest(join(dir, 'b')),
      /manifest\.json is missing \(.*b\.partial is an unfinished backup\)/,
    );
  });

  it('refuses another format and a newer version', () => {
    const good = makeBackup(dir);
    assert.throws(() => checkManifestShape({ ...good, format: 'other' }), /Not a Vault backup/);
    assert.throws(() => checkManifestShape({ ...good, version: 2 }), /version 2 is not supported/);
  });

  it('refuses keys and paths a restore could be tricked with', () => {
    const good = makeBackup(dir);
    const o = good.objects[0];
    const bad = (entry) => ({ ...good, objects: [{ ...o, ...entry }] });
    assert.throws(
      () => checkManifestShape(bad({ key: `../../etc/${o.fileId}` })),
      /key must be <owner uuid>\/<fileId>/,
    );
    assert.throws(() => checkManifestShape(bad({ key: `${randomUUID()}/${randomUUID()}` })), /key must be/);
    assert.throws(() => checkManifestShape(bad({ storageType: 'ftp' })), /unknown storage type ftp/);
    assert.throws(() => checkManifestShape(bad({ fileId: "x'); DROP TABLE" })), /fileId must be a UUID/);
    assert.throws(() => checkManifestShape(bad({ sha256: 'abc' })), /sha256 must be 64 hex digits/);
    assert.throws(
      () => checkManifestShape({ ...good, gone: [{ ...o, bytes: undefined }] }),
      /file .* is listed twice/,
    );
    assert.throws(
      () => checkManifestShape({ ...good, keys: [{ name: 'PATH', file: '../../x', sha256: o.sha256 }] }),
      /unknown key PATH/,
    );
  });
});
