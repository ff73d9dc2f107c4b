// The backup's manifest (docs/backup.md "What a backup holds"): what is in the folder, with the
// size and SHA-256 of every part, checked in full before a restore changes anything.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';

export const MANIFEST_FILE = 'manifest.json';
export const DUMP_FILE = 'database.dump';
export const FORMAT = 'vault-backup';
export const FORMAT_VERSION = 1;

export const STORAGE_TYPES = ['local', 's3', 'cloudinary'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * The secrets --include-keys copies, by the variable the services read and the file name
 * infra/keygen.mjs and local mode give them.
 */
export const KEY_FILES = [
  { name: 'SERVER_SECRET', file: 'server-secret', mode: 0o600 },
  { name: 'JWT_PRIVATE_KEY', file: 'jwt-private.pem', mode: 0o600 },
  { name: 'JWT_PUBLIC_KEY', file: 'jwt-public.pem', mode: 0o644 },
  { name: 'STORAGE_SIGNING_SECRET', file: 'storage-signing-secret', mode: 0o600 },
];

/** A backup that cannot be restored as it is; `problems` lists every reason, one a line. */
export class BackupError extends Error {
  constructor(message, problems = []) {
    super(problems.length ? `${message}:\n- ${problems.join('\n- ')}` : message);
    this.name = 'BackupError';
    this.problems = problems;
  }
}

/** Where an object's bytes sit inside the backup folder: never taken from the manifest itself. */
export function objectPath(storageType, key) {
  return join('objects', storageType, ...key.split('/'));
}

/** `{bytes, sha256}` of a file, streamed. */
export async function hashFile(path) {
  const hash = createHash('sha256');
  let bytes = 0;
  await pipeline(createReadStream(path), async (source) => {
    for await (const chunk of source) {
      bytes += chunk.length;
      hash.update(chunk);
    }
  });
  return { bytes, sha256: hash.digest('hex') };
}

/** An object's key as the storage drivers accept it: `<owner uuid>/<file uuid>`. */
function validKey(key, fileId) {
  const [owner, file, extra] = String(key).split('/');
  return extra === undefined && UUID.test(owner ?? '') && file === fileId && UUID.test(file);
}

/**
 * The manifest's shape, strictly: a restore writes rows and objects named by it, so every id,
 * key and storage type must be one the product could have made.
 */
export function checkManifestShape(manifest) {
  const problems = [];
  const need = (ok, what) => {
    if (!ok) problems.push(what);
  };
  if (manifest?.format !== FORMAT) {
    throw new BackupError(`Not a Vault backup: manifest.json has no "format": "${FORMAT}"`);
  }
  if (manifest.version !== FORMAT_VERSION) {
    throw new BackupError(
      `Backup format version ${manifest.version} is not supported (this restore reads version ${FORMAT_VERSION})`,
    );
  }
  const db = manifest.database;
  need(db && db.file === DUMP_FILE, `database.file must be ${DUMP_FILE}`);
  need(db && Number.isSafeInteger(db.bytes) && db.bytes > 0, 'database.bytes must be a positive integer');
  need(db && SHA256.test(db.sha256 ?? ''), 'database.sha256 must be 64 hex digits');
  const fileLists = ['objects', 'gone', 'missing'];
  for (const list of fileLists) need(Array.isArray(manifest[list]), `${list} must be a list`);
  need(Array.isArray(manifest.keys), 'keys must be a list');
  if (problems.length) throw new BackupError('manifest.json is malformed', problems);

  const seen = new Set();
  for (const list of fileLists) {
    manifest[list].forEach((entry, i) => {
      const where = `${list}[${i}]`;
      need(UUID.test(entry?.fileId ?? ''), `${where}: fileId must be a UUID`);
      need(
        STORAGE_TYPES.includes(entry?.storageType),
        `${where}: unknown storage type ${entry?.storageType}`,
      );
      need(validKey(entry?.key, entry?.fileId), `${where}: key must be <owner uuid>/<fileId>`);
      need(!seen.has(entry?.fileId), `${where}: file ${entry?.fileId} is listed twice`);
      seen.add(entry?.fileId);
      if (list === 'objects') {
        need(
          Number.isSafeInteger(entry.bytes) && entry.bytes > 0,
          `${where}: bytes must be a positive integer`,
        );
        need(SHA256.test(entry.sha256 ?? ''), `${where}: sha256 must be 64 hex digits`);
      }
    });
  }
  manifest.keys.forEach((entry, i) => {
    const known = KEY_FILES.find((k) => k.name === entry?.name);
    need(known && entry.file === `keys/${known.file}`, `keys[${i}]: unknown key ${entry?.name}`);
    need(SHA256.test(entry?.sha256 ?? ''), `keys[${i}]: sha256 must be 64 hex digits`);
  });
  if (problems.length) throw new BackupError('manifest.json is malformed', problems);
  return manifest;
}

/** Reads and checks the shape of `<dir>/manifest.json`. */
export function readManifest(dir) {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) {
    const partial = existsSync(`${dir}.partial`) ? ` (${dir}.partial is an unfinished backup)` : '';
    throw new BackupError(`No backup at ${dir}: ${MANIFEST_FILE} is missing${partial}`);
  }
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new BackupError(`${path} is not valid JSON: ${error.message}`);
  }
  return checkManifestShape(manifest);
}

/**
 * Checks every part of the backup against the manifest: the dump, each object and each key file
 * present with the recorded size and SHA-256. Collects every difference, then throws one
 * BackupError naming them all. `onProgress(done, total)` is called after each part.
 */
export async function verifyBackup(dir, manifest, { onProgress } = {}) {
  const parts = [
    {
      label: 'the database dump',
      path: DUMP_FILE,
      bytes: manifest.database.bytes,
      sha256: manifest.database.sha256,
    },
    ...manifest.objects.map((o) => ({
      label: `object ${o.storageType}:${o.key}`,
      path: objectPath(o.storageType, o.key),
      bytes: o.bytes,
      sha256: o.sha256,
    })),
    ...manifest.keys.map((k) => ({ label: `key ${k.name}`, path: k.file, sha256: k.sha256 })),
  ];
  const problems = [];
  let done = 0;
  for (const part of parts) {
    const full = join(dir, part.path);
    if (!existsSync(full) || !statSync(full).isFile()) {
      problems.push(`${part.label} is missing (${part.path})`);
    } else {
      const { bytes, sha256 } = await hashFile(full);
      if (part.bytes !== undefined && bytes !== part.bytes) {
        problems.push(`${part.label} has ${bytes} bytes, the manifest says ${part.bytes} (${part.path})`);
      } else if (sha256 !== part.sha256) {
        problems.push(`${part.label} does not match its SHA-256 in the manifest (${part.path})`);
      }
    }
    onProgress?.(++done, parts.length);
  }
  if (problems.length) {
    throw new BackupError(`The backup at ${dir} is damaged or was changed; nothing was restored`, problems);
  }
  return { parts: parts.length };
}
