import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { LocalStorageDriver } from '../../src';
import { startLocalBlobServer, type LocalBlobServer } from '../../src/testing';
import { storageDriverBehaviour, freshKey } from './storage-behaviour';

const signingSecret = 'medium-test-signing-secret-0123456789';

async function listFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

describe(LocalStorageDriver.name, () => {
  let root: string;
  let driver: LocalStorageDriver;
  let blob: LocalBlobServer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'vault-local-storage-'));
    driver = new LocalStorageDriver({ root, signingSecret });
    blob = await startLocalBlobServer({ driver, signingSecret });
  });
  afterAll(async () => {
    await blob?.close();
    await rm(root, { recursive: true, force: true });
  });

  storageDriverBehaviour(() => ({
    driver,
    signUpload: async (key, length, ttl) => {
      const signed = await driver.createUploadUrl(key, { contentLength: length, expiresInSeconds: ttl });
      return { method: 'PUT', url: new URL(signed.url, blob.origin).toString() };
    },
    resolve: (url) => new URL(url, blob.origin).toString(),
    listStored: () => listFiles(root),
    maxLiveBuffers: 8 * 1024 * 1024,
    crossOrigin: false,
    storesEmptyObjects: true,
  }));

  it('keeps objects at root/<owner>/<fileId>, readable only by the service user', async () => {
    const key = freshKey('owner-x');
    await driver.put(key, Readable.from([Buffer.from('sealed')]), { maxBytes: 6 });
    expect(await listFiles(join(root, 'owner-x'))).toContain(key.split('/')[1]);
    expect((await stat(driver.pathOf(key))).mode & 0o077).toBe(0);
  });

  it('signs relative URLs under the blob route, with the length for uploads only', async () => {
    const key = freshKey();
    const up = await driver.createUploadUrl(key, { contentLength: 42, expiresInSeconds: 300 });
    expect(up.method).toBe('PUT');
    expect(up.url).toMatch(new RegExp(`^/api/files/blob/${key}\\?op=put&exp=\\d+&len=42&sig=[0-9a-f]{64}$`));
    const down = await driver.createDownloadUrl(key, { expiresInSeconds: 300 });
    expect(down.url).toMatch(new RegExp(`^/api/files/blob/${key}\\?op=get&exp=\\d+&sig=[0-9a-f]{64}$`));
  });

  it('the blob route refuses an upload URL used to download and a body of another length', async () => {
    const key = freshKey();
    const up = await driver.createUploadUrl(key, { contentLength: 10, expiresInSeconds: 300 });
    const url = new URL(up.url, blob.origin);
    expect((await fetch(url)).status).toBe(403);
    const wrongLength = await fetch(url, { method: 'PUT', body: Buffer.alloc(11) });
    expect(wrongLength.status).toBe(400);
    expect(await driver.stat(key)).toBeNull();
    const down = await driver.createDownloadUrl(key, { expiresInSeconds: 300 });
    expect((await fetch(new URL(down.url, blob.origin), { method: 'PUT', body: 'x' })).status).toBe(403);
  });

  it('stores a body that arrives in many small and uneven pieces byte for byte, whole and in parts', async () => {
    // Thousands of pieces queue up behind each write, so they go out joined (writev, or one
    // buffer once there are more than fit one writev).
    const sizes = Array.from({ length: 3000 }, (_, i) => 1 + ((i * 7919) % 700));
    const data = randomBytes(sizes.reduce((a, b) => a + b, 0));
    const pieces = (from: number, to: number) => {
      const out: Buffer[] = [];
      let at = 0;
      for (const size of sizes) {
        const start = Math.max(at, from);
        const end = Math.min(at + size, to);
        if (end > start) out.push(data.subarray(start, end));
        at += size;
      }
      return Readable.from(out);
    };
    const whole = freshKey();
    await driver.put(whole, pieces(0, data.length), { maxBytes: data.length });
    expect((await readFile(driver.pathOf(whole))).equals(data)).toBe(true);
    const parted = freshKey();
    const cut = Math.floor(data.length / 3);
    const part = (first: number, last: number) => ({ first, last, total: data.length });
    await driver.appendPart(parted, pieces(0, cut), part(0, cut - 1));
    await driver.appendPart(parted, pieces(cut, data.length), part(cut, data.length - 1));
    expect((await readFile(driver.pathOf(parted))).equals(data)).toBe(true);
  });

  it('a failing source stream leaves nothing, and never a half-written object', async () => {
    const key = freshKey();
    await driver.put(key, Readable.from([Buffer.from('first version')]), { maxBytes: 100 });
    async function* failing() {
      yield Buffer.from('second');
      throw new Error('client went away');
    }
    await expect(driver.put(key, Readable.from(failing()), { maxBytes: 100 })).rejects.toThrow(
      'client went away',
    );
    const chunks: Buffer[] = [];
    for await (const chunk of await driver.get(key)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('first version');
    expect((await listFiles(root)).filter((name) => name.includes('.partial'))).toEqual([]);
  });
});
