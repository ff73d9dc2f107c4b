#!/usr/bin/env node
// Backup tier (docs/backup.md "Tests"): the manifest unit tests, then a private stack in local
// mode where headless Chromium signs up, writes a note and uploads a file to each store; then
// `npm run backup`, a wipe (services stopped, database dropped and made again empty, every object
// and the run's Redis keys and signing keys deleted), `npm run restore`, the services started
// again, and a new browser signs in with the same password, reads the note and downloads every
// file byte for byte. Also: restore refuses a tampered backup and a non-empty install, backup
// refuses a folder git would track and a store missing an object.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { withEphemeralStack } from './lib/ephemeral.mjs';
import { objectPath } from './lib/backup/manifest.mjs';
import { SERVICES, waitHealthy } from './lib/stack.mjs';
import { tierChecks } from './lib/tier-checks.mjs';
import { ROOT, log, sleep } from './lib/util.mjs';

const { check, finish } = tierChecks('backup');

/** Runs `node <args>` to completion: {status, out} (stdout and stderr together). */
function node(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    child.on('close', (status) => resolve({ status, out }));
  });
}

async function expectOk(args, env) {
  const res = await node(args, env);
  console.log(res.out.trimEnd().replace(/^/gm, '  | '));
  assert.equal(res.status, 0, `${args.join(' ')} exited with ${res.status}`);
  return res.out;
}

async function expectRefused(args, env, pattern) {
  const res = await node(args, env);
  console.log(res.out.trimEnd().replace(/^/gm, '  | '));
  assert.equal(res.status, 1, `${args.join(' ')} should have been refused (exit ${res.status})`);
  assert.match(res.out, pattern);
  return res.out;
}

await check('manifest unit tests (node --test scripts/lib/backup)', () =>
  expectOk(['--test', join('scripts', 'lib', 'backup', 'manifest.test.mjs')], process.env),
);

const code = await withEphemeralStack(
  'backup',
  { RATE_LIMIT_AUTH_PER_MINUTE: '100000', RATE_LIMIT_API_PER_MINUTE: '100000' },
  async ({ baseUrl, env, logDir, crashed, stopService, startService }) => {
    const work = join(ROOT, '.data', 'backup-e2e', randomBytes(4).toString('hex'));
    const stateFile = join(work, 'browser', 'state.json');
    const backupDir = join(work, 'vault-backup');
    // The services' own environment: backup and restore read it as in compose or Kubernetes.
    const toolEnv = { ...process.env, ...env };
    const browserEnv = (phase) => ({
      ...process.env,
      PHASE: phase,
      STATE_FILE: stateFile,
      BASE_URL: baseUrl,
      OUT_DIR: join(ROOT, '.data', 'backup-shots'),
      S3_PUBLIC_ENDPOINT: env.S3_PUBLIC_ENDPOINT,
    });
    const db = () => new pg.Client({ connectionString: env.DATABASE_URL });
    // The Cloudinary SDK reads CLOUDINARY_URL (the stand-in's address) from process.env once.
    process.env.CLOUDINARY_URL = env.CLOUDINARY_URL;
    const { createStorageDrivers, storageOptionsFromEnv } = await import('@vault/storage');
    const drivers = createStorageDrivers(storageOptionsFromEnv(env)).drivers;
    const keyFiles = [
      'JWT_PRIVATE_KEY_FILE',
      'JWT_PUBLIC_KEY_FILE',
      'SERVER_SECRET_FILE',
      'STORAGE_SIGNING_SECRET_FILE',
    ];
    const keysBefore = Object.fromEntries(keyFiles.map((k) => [k, readFileSync(env[k])]));
    let files = [];
    let orphanNote;
    let pendingScan;

    try {
      await check('browser: sign up, create a note, upload a file to local disk, S3 and Cloudinary', () =>
        expectOk([join('apps', 'e2e', 'browser', 'backup-ui.mjs')], browserEnv('seed')),
      );

      await check('work Redis held: a scan still pending, an account purge not finished', async () => {
        const client = db();
        await client.connect();
        try {
          files = (
            await client.query(
              "SELECT id, storage_type, object_key FROM files.files WHERE status = 'active' ORDER BY storage_type",
            )
          ).rows;
          assert.deepEqual(
            files.map((f) => f.storage_type),
            ['cloudinary', 'local', 's3'],
          );
          pendingScan = files.find((f) => f.storage_type === 'local').id;
          await client.query(
            "UPDATE files.files SET virus_scan_result = 'pending', virus_scanned = false, scan_detail = NULL WHERE id = $1",
            [pendingScan],
          );
          // A note whose account was deleted: its purge job lived in Redis only.
          orphanNote = randomUUID();
          const cols = (
            await client.query(
              "SELECT column_name FROM information_schema.columns WHERE table_schema = 'notes' AND table_name = 'notes' AND column_name NOT IN ('id', 'owner_id')",
            )
          ).rows.map((r) => `"${r.column_name}"`);
          await client.query(
            `INSERT INTO notes.notes (id, owner_id, ${cols}) SELECT $1, $2, ${cols} FROM notes.notes LIMIT 1`,
            [orphanNote, randomUUID()],
          );
        } finally {
          await client.end();
        }
      });

      await check('backup refuses a folder git would track', async () => {
        const inTree = join(ROOT, `backup-e2e-${randomBytes(3).toString('hex')}`);
        await expectRefused(['scripts/backup.mjs', '--out', inTree], toolEnv, /not ignored by git/);
        assert.ok(
          !existsSync(inTree) && !existsSync(`${inTree}.partial`),
          'a folder was left in the work tree',
        );
      });

      await check('backup refuses a store that lost an object (and --allow-missing records it)', async () => {
        const local = files.find((f) => f.storage_type === 'local');
        const path = join(env.STORAGE_LOCAL_ROOT, ...local.object_key.split('/'));
        renameSync(path, `${path}.away`);
        try {
          const out = join(work, 'missing');
          await expectRefused(
            ['scripts/backup.mjs', '--out', out],
            toolEnv,
            new RegExp(`local:${local.object_key} is missing from the store`),
          );
          assert.ok(!existsSync(out) && !existsSync(`${out}.partial`), 'a failed backup left a folder');
          await expectOk(['scripts/backup.mjs', '--out', out, '--allow-missing'], toolEnv);
          const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
          assert.deepEqual(
            manifest.missing.map((m) => m.fileId),
            [local.id],
          );
          assert.equal(manifest.objects.length, 2);
        } finally {
          renameSync(`${path}.away`, path);
        }
      });

      await check('backup: the dump, three objects and the keys, with a manifest', async () => {
        const out = await expectOk(['scripts/backup.mjs', '--out', backupDir, '--include-keys'], toolEnv);
        assert.match(out, /objects copied: 3 /);
        const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
        assert.deepEqual(manifest.database.counts, { users: 1, notes: 2, files: 3 });
        assert.deepEqual(manifest.objects.map((o) => o.storageType).sort(), ['cloudinary', 'local', 's3']);
        assert.deepEqual(manifest.keys.map((k) => k.name).sort(), [
          'JWT_PRIVATE_KEY',
          'JWT_PUBLIC_KEY',
          'SERVER_SECRET',
          'STORAGE_SIGNING_SECRET',
        ]);
      });

      await check('--keep removes only the oldest complete backups beside the new one', async () => {
        const parent = join(work, 'kept');
        const old = ['vault-20200101T000000Z', 'vault-20200102T000000Z'];
        for (const name of old) {
          mkdirSync(join(parent, name), { recursive: true });
          writeFileSync(join(parent, name, 'manifest.json'), '{}');
        }
        // Not a complete backup (no manifest) and not a backup's name: both left alone.
        mkdirSync(join(parent, 'vault-20190101T000000Z'));
        mkdirSync(join(parent, 'notes'));
        await expectOk(
          ['scripts/backup.mjs', '--out', join(parent, 'vault-20300101T000000Z'), '--keep', '2'],
          toolEnv,
        );
        assert.deepEqual(readdirSync(parent).sort(), [
          'notes',
          'vault-20190101T000000Z',
          'vault-20200102T000000Z',
          'vault-20300101T000000Z',
        ]);
      });

      await check('restore refuses a tampered object or dump before changing anything', async () => {
        const manifest = JSON.parse(readFileSync(join(backupDir, 'manifest.json'), 'utf8'));
        const copy = join(work, 'tampered');
        cpSync(backupDir, copy, { recursive: true });
        const o = manifest.objects.find((x) => x.storageType === 's3');
        const objectFile = join(copy, objectPath(o.storageType, o.key));
        const bytes = readFileSync(objectFile);
        bytes[bytes.length >> 1] ^= 1;
        writeFileSync(objectFile, bytes);
        await expectRefused(
          ['scripts/restore.mjs', '--from', copy, '--force'],
          toolEnv,
          new RegExp(
            `damaged or was changed; nothing was restored:\\n- object s3:${o.key} does not match its SHA-256`,
          ),
        );
        writeFileSync(objectFile, readFileSync(join(backupDir, objectPath(o.storageType, o.key))));
        writeFileSync(
          join(copy, 'database.dump'),
          Buffer.concat([readFileSync(join(copy, 'database.dump')), Buffer.from('x')]),
        );
        await expectRefused(
          ['scripts/restore.mjs', '--from', copy, '--force'],
          toolEnv,
          /- the database dump has \d+ bytes, the manifest says \d+/,
        );
      });

      await check('restore refuses a non-empty install', async () => {
        await expectRefused(
          ['scripts/restore.mjs', '--from', backupDir],
          toolEnv,
          /is not empty: it holds 1 account\(s\), 2 note\(s\) and 3 file row\(s\)\. Restore goes into an empty install; --force/,
        );
      });

      await check(
        'wipe: services stopped, database empty, every object, Redis key and signing key gone',
        async () => {
          for (const svc of SERVICES.toReversed()) await stopService(svc.name);
          const name = new URL(env.DATABASE_URL).pathname.slice(1);
          const admin = new URL(env.DATABASE_URL);
          admin.pathname = '/postgres';
          const client = new pg.Client({ connectionString: admin.toString() });
          await client.connect();
          await client.query(`DROP DATABASE "${name}" WITH (FORCE)`);
          await client.query(`CREATE DATABASE "${name}"`);
          await client.end();
          rmSync(env.STORAGE_LOCAL_ROOT, { recursive: true, force: true });
          for (const f of files.filter((x) => x.storage_type !== 'local'))
            await drivers.get(f.storage_type).delete(f.object_key);
          for (const f of files) assert.equal(await drivers.get(f.storage_type).stat(f.object_key), null);
          const Minio = await import('minio');
          const endpoint = new URL(env.S3_ENDPOINT);
          const s3 = new Minio.Client({
            endPoint: endpoint.hostname,
            port: Number(endpoint.port),
            useSSL: false,
            accessKey: env.S3_ACCESS_KEY,
            secretKey: env.S3_SECRET_KEY,
            region: env.S3_REGION,
            pathStyle: true,
          });
          const left = await s3.listObjectsV2(env.S3_BUCKET, '', true).toArray();
          assert.deepEqual(left, [], 'the bucket still holds objects');
          const { default: Redis } = await import('ioredis');
          const redis = new Redis(env.REDIS_URL);
          let cursor = '0';
          do {
            const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.REDIS_PREFIX}*`, 'COUNT', 1000);
            cursor = next;
            if (keys.length) await redis.del(...keys);
          } while (cursor !== '0');
          redis.disconnect();
          for (const k of keyFiles) rmSync(env[k]);
        },
      );

      await check('restore into the empty install', async () => {
        const out = await expectOk(['scripts/restore.mjs', '--from', backupDir], toolEnv);
        assert.match(out, /objects put back: 3 /);
        assert.match(out, /queued again: 1 pending scan\(s\), purges of 1 deleted account\(s\)/);
        assert.match(out, /restored: 1 account\(s\), 2 note\(s\), 3 file row\(s\)/);
        for (const k of keyFiles)
          assert.ok(readFileSync(env[k]).equals(keysBefore[k]), `${k} was not put back`);
      });

      await check('the services start on the restored install', async () => {
        for (const svc of SERVICES) startService(svc.name);
        for (const svc of SERVICES) await waitHealthy(baseUrl, 60000, { service: svc.name });
      });

      await check('browser: sign in with the same password, read the note, download every file', () =>
        expectOk([join('apps', 'e2e', 'browser', 'backup-ui.mjs')], browserEnv('verify')),
      );

      await check('the requeued scan ran and the deleted account was purged', async () => {
        const client = db();
        await client.connect();
        try {
          const until = Date.now() + 30_000;
          let state;
          for (;;) {
            const scan = await client.query('SELECT virus_scan_result FROM files.files WHERE id = $1', [
              pendingScan,
            ]);
            const note = await client.query('SELECT 1 FROM notes.notes WHERE id = $1', [orphanNote]);
            state = { scan: scan.rows[0]?.virus_scan_result, orphanNote: note.rowCount };
            if (state.scan !== 'pending' && state.orphanNote === 0) break;
            if (Date.now() > until) assert.fail(`still waiting after 30 s: ${JSON.stringify(state)}`);
            await sleep(500);
          }
          log(`  scan verdict after the restore: ${state.scan}`);
        } finally {
          await client.end();
        }
      });
    } finally {
      rmSync(work, { recursive: true, force: true });
    }

    return finish({ crashed: crashed(), logDir });
  },
).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  return 1;
});
process.exit(code);
