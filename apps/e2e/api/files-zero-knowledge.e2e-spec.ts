/**
 * Zero knowledge for files, checked from the outside: a user uploads files whose names, types, tags and
 * contents carry unique markers (through every storage driver), lists, trashes, restores, downloads and
 * previews them. Then every log file of every service, every row of every table, every Redis key and
 * every stored object (the local disk folder of the run, and the raw stored bytes of every driver as the
 * signed download URL serves them) are searched for the markers. A single hit is a failure.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FileDto, StorageType } from '@vault/contracts';
import { signUp, type TestAccount } from '../support/accounts';
import { e2eEnv } from '../support/env';
import { absoluteUrl, downloadFile, openMetadata, uploadFile } from '../support/files';
import { assertStatus } from '../support/http';
import { findSecrets, logsAfterBarrier, type Secret } from '../support/logs';
import { dumpDatabase, dumpRedis } from '../support/stores';

const env = e2eEnv();
const TAG = randomBytes(8).toString('hex');
const MARKERS = {
  name: `ZkFileName${TAG}`,
  type: `application/x-zk${TAG}`,
  tag: `ZkFileTag${TAG}`,
  content: `ZkFileBody${TAG}`,
};
const secrets: Secret[] = [
  ...Object.entries(MARKERS).map(([label, value]) => ({ label: `file ${label} marker`, value })),
  { label: 'marker shared by every field', value: TAG },
];

/** Every file under `dir`, read as latin1 text (the markers are ASCII, so a plaintext copy would show). */
function readTree(dir: string): { name: string; content: string }[] {
  const out: { name: string; content: string }[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...readTree(path));
    else
      out.push({ name: `storage:${path.slice(dir.length)}`, content: readFileSync(path).toString('latin1') });
  }
  return out;
}

describe('zero knowledge: what the server keeps of the files a user uploads', () => {
  let account: TestAccount;
  const files: FileDto[] = [];
  const raw: { name: string; content: string }[] = [];

  beforeAll(async () => {
    account = await signUp();
    const content = Buffer.from(`${MARKERS.content}\n`.repeat(5_000));
    const meta = { name: `${MARKERS.name}.txt`, mimeType: MARKERS.type, tags: [MARKERS.tag, 'x'] };
    for (const storage of ['local', 's3', 'cloudinary'] as StorageType[]) {
      const { file } = await uploadFile(account, content, meta, storage);
      files.push(file);
      // The device opens what the server answers: the markers are really in these files.
      expect(await openMetadata(account, file)).toEqual(meta);
      expect(Buffer.from(await downloadFile(account, file)).equals(content)).toBe(true);
      // The raw stored bytes, as the storage serves them.
      const link = await account.client.post<{ downloadUrl: string }>(`/api/files/${file.id}/download-url`, {
        authKey: account.keys.authKey,
      });
      const res = await fetch(absoluteUrl(link.body.downloadUrl));
      raw.push({
        name: `stored ${storage} object`,
        content: Buffer.from(await res.arrayBuffer()).toString('latin1'),
      });
    }
    const [first] = files;
    assertStatus(await account.client.get('/api/files'), 200, 'list');
    assertStatus(await account.client.delete(`/api/files/${first!.id}`), 204, 'delete');
    assertStatus(await account.client.get('/api/files/deleted'), 200, 'trash');
    assertStatus(await account.client.post(`/api/files/${first!.id}/restore`), 200, 'restore');
    assertStatus(
      await account.client.post(`/api/files/${first!.id}/preview`, { authKey: account.keys.authKey }),
      200,
      'preview',
    );
  });

  it('stores only ciphertext: no marker in any stored object, served or on disk', () => {
    expect(raw).toHaveLength(3);
    expect(findSecrets(raw, secrets)).toEqual([]);
    const root = env.storageRoot ?? '';
    expect(root).not.toBe('');
    const onDisk = readTree(root);
    expect(onDisk.some((f) => f.name.includes(files[0]!.id))).toBe(true);
    expect(findSecrets(onDisk, secrets)).toEqual([]);
  });

  it('keeps every marker out of every log file of every service', async () => {
    const dir = env.logDir ?? '';
    expect(dir).not.toBe('');
    const { barrierSeen, logs } = await logsAfterBarrier(dir, 'zk-files-barrier');
    expect(barrierSeen).toBe(true);
    expect(logs.map((l) => l.name)).toEqual(expect.arrayContaining(['gateway.log', 'files.log', 'scan.log']));
    expect(findSecrets(logs, secrets)).toEqual([]);
  });

  it('holds no marker in the database, which does hold the files (as ciphertext)', async () => {
    const tables = await dumpDatabase(env.databaseUrl ?? '');
    const rows = tables.filter((t) => t.name === 'files.files');
    expect(rows).toHaveLength(1);
    // Control: the search finds what is there (each file's id is in its row, as id and object key).
    const found = new Set(
      findSecrets(
        rows,
        files.map((f) => ({ label: f.id, value: f.id })),
      ).map((h) => h.label),
    );
    expect([...found].sort()).toEqual(files.map((f) => f.id).sort());
    expect(findSecrets(tables, secrets)).toEqual([]);
  });

  it('holds no marker in Redis (sessions, rate limits, the scan queues)', async () => {
    const keys = await dumpRedis(env.redisUrl ?? '', env.redisPrefix ?? '');
    expect(keys.some((k) => k.name.includes('bull'))).toBe(true);
    expect(findSecrets(keys, secrets)).toEqual([]);
  });
});
