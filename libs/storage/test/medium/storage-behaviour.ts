import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ErrorCode, VaultError } from '@vault/contracts';
import { CloudinaryStorageDriver, S3StorageDriver, type StorageDriver } from '../../src';
import {
  startCloudinaryTestServer,
  startS3rver,
  type CloudinaryTestServer,
  type S3rverHandle,
} from '../../src/testing';

/**
 * The behaviour every storage driver owes the files service, run against each driver with
 * its real backend (a temp folder, s3rver, the Cloudinary test server).
 */

/** What a browser is given to upload one object: a PUT URL, or a POST URL plus form fields. */
export interface UploadRequest {
  method: 'PUT' | 'POST';
  url: string;
  fields?: Record<string, string>;
}

export interface StorageHarness {
  driver: StorageDriver;
  /** Signs a browser upload of `length` bytes to `key`, living `ttl` seconds. */
  signUpload(key: string, length: number, ttl: number): Promise<UploadRequest>;
  /** Absolute URL of a URL the driver made (the local driver's are relative). */
  resolve(url: string): string;
  /** Everything the backend holds (object names, and stray temporary files where there can be any). */
  listStored(): Promise<string[]>;
  /** The most Buffer memory that may be live (after a full GC) while 20 MB go through put and get. */
  maxLiveBuffers: number;
  /** Browsers reach the store from the web app's origin (S3, Cloudinary): CORS must allow it. */
  crossOrigin: boolean;
  /** Whether the backend keeps 0-byte objects (Cloudinary refuses empty files; Vault objects never are). */
  storesEmptyObjects: boolean;
  /** s3rver 3.7 answers `Range: bytes=0-0` with the whole object (it reads end 0 as "no end"). */
  firstByteRangeBroken?: boolean;
}

const MiB = 1024 * 1024;

/** V8's gc(), for measuring what is really live (the flag can be set at run time). */
function exposeGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}
let counter = 0;
/** A fresh key per test, for a given owner. */
export function freshKey(owner = 'owner-a'): string {
  counter += 1;
  return `${owner}/file-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export function chunksOf(bytes: Buffer, size = 16 * 1024): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(parts);
}

async function expectVaultError(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  await expect(promise).rejects.toBeInstanceOf(VaultError);
  await expect(promise).rejects.toMatchObject({ code });
}

export async function sendUpload(request: UploadRequest, data: Buffer): Promise<Response> {
  const bytes = Uint8Array.from(data); // an ArrayBuffer-backed copy, as the DOM types want
  if (request.method === 'PUT') {
    return fetch(request.url, {
      method: 'PUT',
      body: bytes,
      headers: { 'Content-Type': 'application/octet-stream' },
    });
  }
  const form = new FormData();
  for (const [name, value] of Object.entries(request.fields ?? {})) form.append(name, value);
  form.append('file', new Blob([bytes], { type: 'application/octet-stream' }), 'blob');
  return fetch(request.url, { method: 'POST', body: form });
}

/** s3rver and a driver of its bucket, for the tests of one file. */
export interface S3Stand {
  s3: S3rverHandle;
  driver: S3StorageDriver;
}

/**
 * Started before the file's first test, closed after its last; the object is filled in by that
 * beforeAll. No fault is left from one test to the next.
 */
export function s3rverPerFile(): S3Stand {
  const stand = {} as S3Stand;
  beforeAll(async () => {
    stand.s3 = await startS3rver();
    stand.driver = new S3StorageDriver({
      endpoint: stand.s3.endpoint,
      region: stand.s3.region,
      bucket: stand.s3.bucket,
      accessKey: stand.s3.accessKey,
      secretKey: stand.s3.secretKey,
      pathStyle: true,
      partSize: 5 * MiB,
    });
    await stand.driver.ensureBucket();
  });
  afterAll(async () => {
    await stand.s3?.close();
  });
  afterEach(() => stand.s3.faults.clear());
  return stand;
}

/** The Cloudinary test server and a driver of its account, for the tests of one file. */
export interface CloudinaryStand {
  account: { cloudName: string; apiKey: string; apiSecret: string };
  server: CloudinaryTestServer;
  driver: CloudinaryStorageDriver;
}

/** As s3rverPerFile; CLOUDINARY_URL points at the server meanwhile. */
export function cloudinaryPerFile(): CloudinaryStand {
  const stand = {
    account: { cloudName: 'vault-test', apiKey: '614335564976464', apiSecret: 'medium-test-api-secret' },
  } as CloudinaryStand;
  const previousUrl = process.env.CLOUDINARY_URL;
  beforeAll(async () => {
    stand.server = await startCloudinaryTestServer(stand.account);
    // Before the driver's first call: the SDK reads upload_prefix (and so http:) once, at load.
    process.env.CLOUDINARY_URL = stand.server.cloudinaryUrl;
    stand.driver = new CloudinaryStorageDriver(stand.account);
  });
  afterAll(async () => {
    if (previousUrl === undefined) delete process.env.CLOUDINARY_URL;
    else process.env.CLOUDINARY_URL = previousUrl;
    await stand.server?.close();
  });
  afterEach(() => stand.server.faults.clear());
  return stand;
}

/** The same request aimed at another object (the key sits in the path, or in a signed field / parameter). */
function retarget(text: string, from: string, to: string): string {
  const moved = text.split(from).join(to).split(encodeURIComponent(from)).join(encodeURIComponent(to));
  if (moved === text) throw new Error(`the key ${from} does not appear in ${text}`);
  return moved;
}

function retargetUpload(request: UploadRequest, from: string, to: string): UploadRequest {
  if (request.fields) {
    return {
      ...request,
      fields: { ...request.fields, public_id: retarget(request.fields.public_id ?? '', from, to) },
    };
  }
  return { ...request, url: retarget(request.url, from, to) };
}

function flipFirstHex(value: string): string {
  return (value[0] === '0' ? '1' : '0') + value.slice(1);
}

/** The signature query parameter of any of the drivers' URLs, with one hex digit changed. */
function tamperUrlSignature(url: string): string {
  const parsed = new URL(url);
  for (const name of ['sig', 'X-Amz-Signature', 'signature']) {
    const value = parsed.searchParams.get(name);
    if (value) {
      parsed.searchParams.set(name, flipFirstHex(value));
      return parsed.toString();
    }
  }
  throw new Error(`no signature in ${url}`);
}

function tamperUploadSignature(request: UploadRequest): UploadRequest {
  if (request.fields) {
    return {
      ...request,
      fields: { ...request.fields, signature: flipFirstHex(request.fields.signature ?? '') },
    };
  }
  return { ...request, url: tamperUrlSignature(request.url) };
}

/** Refusals are 401 or 403 across the backends (Cloudinary: 401; S3 and the blob route: 403). */
function expectRefused(res: Response): void {
  expect([401, 403]).toContain(res.status);
}

export function storageDriverBehaviour(harness: () => StorageHarness): void {
  let h: StorageHarness;
  beforeAll(() => {
    h = harness();
  });

  describe('server-side put, get, stat', () => {
    it.each([
      ['1 B', 1],
      ['65,537 B (one chunk and a byte)', 65_537],
    ])('round-trips %s', async (_label, size) => {
      const key = freshKey();
      const bytes = randomBytes(size);
      await expect(h.driver.put(key, chunksOf(bytes), { maxBytes: size })).resolves.toEqual({ size });
      expect(await h.driver.stat(key)).toEqual({ size });
      expect((await readAll(await h.driver.get(key))).equals(bytes)).toBe(true);
    });

    it('round-trips 0 B, or refuses it where the backend keeps no empty files', async () => {
      const key = freshKey();
      const put = h.driver.put(key, Readable.from([]), { maxBytes: 0 });
      if (h.storesEmptyObjects) {
        await expect(put).resolves.toEqual({ size: 0 });
        expect(await h.driver.stat(key)).toEqual({ size: 0 });
        expect((await readAll(await h.driver.get(key))).length).toBe(0);
      } else {
        await expect(put).rejects.toThrow(/Empty file/);
        expect(await h.driver.stat(key)).toBeNull();
      }
    });

    it('streams 20 MB both ways without holding the object in memory', async () => {
      const started = Date.now();
      const key = freshKey();
      const size = 20 * MiB;
      const chunk = 64 * 1024;
      // Live Buffer memory after full GCs, measured at 5, 10 and 15 MiB into the upload and
      // into the download: garbage does not count, a buffered object would. (Twice: the first
      // collection frees the buffers, the second lets their memory be counted off.)
      const gc = exposeGc();
      const live = () => {
        gc();
        gc();
        return process.memoryUsage().arrayBuffers;
      };
      const checkpoint = 5 * MiB;
      const baseline = live();
      const baselineRss = process.memoryUsage.rss();
      let peakLive = baseline;
      let peakRss = baselineRss;
      const rssSampler = setInterval(() => {
        peakRss = Math.max(peakRss, process.memoryUsage.rss());
      }, 10).unref();
      const sent = createHash('sha256');
      async function* source() {
        for (let offset = 0; offset < size; offset += chunk) {
          if (offset > 0 && offset % checkpoint === 0) peakLive = Math.max(peakLive, live());
          const part = randomBytes(chunk);
          sent.update(part);
          yield part;
        }
      }
      try {
        await expect(h.driver.put(key, Readable.from(source()), { maxBytes: size })).resolves.toEqual({
          size,
        });
        const received = createHash('sha256');
        let length = 0;
        for await (const part of await h.driver.get(key)) {
          const before = Math.floor(length / checkpoint);
          received.update(part as Buffer);
          length += (part as Buffer).length;
          if (Math.floor(length / checkpoint) > before && length < size)
            peakLive = Math.max(peakLive, live());
        }
        expect(length).toBe(size);
        expect(received.digest('hex')).toBe(sent.digest('hex'));
      } finally {
        clearInterval(rssSampler);
      }
      console.log(
        `${h.driver.type}: 20 MB put+get in ${Date.now() - started} ms; live buffers +${((peakLive - baseline) / MiB).toFixed(1)} MiB, RSS +${((peakRss - baselineRss) / MiB).toFixed(1)} MiB`,
      );
      expect(peakLive - baseline).toBeLessThan(h.maxLiveBuffers);
      // RSS also holds the test servers and whatever garbage the GC has not returned yet.
      expect(peakRss - baselineRss).toBeLessThan(2.5 * size);
      expect(await h.driver.stat(key)).toEqual({ size });
    }, 30_000);

    it('reads inclusive byte ranges, clamped to the end of the object', async () => {
      const key = freshKey();
      const bytes = randomBytes(100_000);
      await h.driver.put(key, chunksOf(bytes), { maxBytes: bytes.length });
      for (const [start, end] of [
        [0, h.firstByteRangeBroken ? 1 : 0],
        [10, 20],
        [65_530, 65_545],
        [99_990, 99_999],
      ] as const) {
        const got = await readAll(await h.driver.get(key, { start, end }));
        expect(got.equals(bytes.subarray(start, end + 1))).toBe(true);
      }
      expect(
        (await readAll(await h.driver.get(key, { start: 99_990, end: 200_000 }))).equals(
          bytes.subarray(99_990),
        ),
      ).toBe(true);
      expect((await readAll(await h.driver.get(key, { start: 100_000, end: 100_010 }))).length).toBe(0);
      await expectVaultError(h.driver.get(key, { start: 5, end: 4 }), ErrorCode.VALIDATION_FAILED);
    });

    it('reports a missing object: stat null, get NOT_FOUND', async () => {
      const key = freshKey();
      expect(await h.driver.stat(key)).toBeNull();
      await expectVaultError(h.driver.get(key), ErrorCode.NOT_FOUND);
      await expectVaultError(h.driver.get(key, { start: 0, end: 10 }), ErrorCode.NOT_FOUND);
    });

    it('deletes idempotently', async () => {
      const key = freshKey();
      await h.driver.put(key, chunksOf(randomBytes(10)), { maxBytes: 10 });
      await h.driver.delete(key);
      expect(await h.driver.stat(key)).toBeNull();
      await expect(h.driver.delete(key)).resolves.toBeUndefined();
      await expect(h.driver.delete(freshKey())).resolves.toBeUndefined();
    });
  });

  describe('maxBytes', () => {
    it('refuses a put beyond maxBytes and leaves nothing behind', async () => {
      const before = await h.listStored();
      const key = freshKey();
      await expectVaultError(
        h.driver.put(key, chunksOf(randomBytes(70_000)), { maxBytes: 65_536 }),
        ErrorCode.FILE_TOO_LARGE,
      );
      expect(await h.driver.stat(key)).toBeNull();
      expect(await h.listStored()).toEqual(before);
    });

    it('refuses a large stream that crosses the limit after several megabytes (multipart territory)', async () => {
      const before = await h.listStored();
      const key = freshKey();
      async function* source() {
        for (let i = 0; i < 12; i++) yield randomBytes(MiB);
      }
      await expectVaultError(
        h.driver.put(key, Readable.from(source()), { maxBytes: 7 * MiB }),
        ErrorCode.FILE_TOO_LARGE,
      );
      expect(await h.driver.stat(key)).toBeNull();
      expect(await h.listStored()).toEqual(before);
    });

    it('an exactly-maxBytes object is accepted', async () => {
      const key = freshKey();
      await expect(h.driver.put(key, chunksOf(randomBytes(4096)), { maxBytes: 4096 })).resolves.toEqual({
        size: 4096,
      });
    });

    it('a refused put leaves an existing object as it was', async () => {
      const key = freshKey();
      const original = randomBytes(1000);
      await h.driver.put(key, chunksOf(original), { maxBytes: 1000 });
      await expect(h.driver.put(key, chunksOf(randomBytes(5000)), { maxBytes: 2000 })).rejects.toBeInstanceOf(
        VaultError,
      );
      expect((await readAll(await h.driver.get(key))).equals(original)).toBe(true);
    });
  });

  describe('browser URLs', () => {
    it('uploads through the signed upload and downloads through the signed download URL', async () => {
      const key = freshKey();
      const bytes = randomBytes(200_000);
      const upload = await h.signUpload(key, bytes.length, 300);
      const put = await sendUpload(upload, bytes);
      expect(put.ok).toBe(true);
      expect(await h.driver.stat(key)).toEqual({ size: bytes.length });

      const download = await h.driver.createDownloadUrl(key, { expiresInSeconds: 300 });
      expect(download.method).toBe('GET');
      expect(download.expiresAt.getTime()).toBeGreaterThan(Date.now() + 290_000);
      expect(download.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 300_000);
      const get = await fetch(h.resolve(download.url));
      expect(get.status).toBe(200);
      expect(Buffer.from(await get.arrayBuffer()).equals(bytes)).toBe(true);

      const ranged = await fetch(h.resolve(download.url), { headers: { Range: 'bytes=100-199' } });
      expect(ranged.status).toBe(206);
      expect(Buffer.from(await ranged.arrayBuffer()).equals(bytes.subarray(100, 200))).toBe(true);
    });

    it('lets a page on another origin use the URLs (CORS), where the browser talks to the store', async () => {
      if (!h.crossOrigin) return; // the local driver's URLs are on the API's own origin
      const key = freshKey();
      const upload = await h.signUpload(key, 3, 300);
      const preflight = await fetch(upload.url, {
        method: 'OPTIONS',
        headers: {
          Origin: 'http://web.example:8080',
          'Access-Control-Request-Method': upload.method,
          'Access-Control-Request-Headers': 'content-type',
        },
      });
      expect(preflight.ok).toBe(true);
      expect(preflight.headers.get('access-control-allow-origin')).toMatch(
        /^(\*|http:\/\/web\.example:8080)$/,
      );
      expect((await sendUpload(upload, Buffer.from('abc'))).ok).toBe(true);
      const download = await h.driver.createDownloadUrl(key, { expiresInSeconds: 60 });
      const get = await fetch(h.resolve(download.url), { headers: { Origin: 'http://web.example:8080' } });
      expect(get.status).toBe(200);
      expect(get.headers.get('access-control-allow-origin')).toMatch(/^(\*|http:\/\/web\.example:8080)$/);
    });

    it('refuses URLs used after they expire', async () => {
      const key = freshKey();
      await h.driver.put(key, chunksOf(randomBytes(10)), { maxBytes: 10 });
      const upload = await h.signUpload(freshKey(), 10, 1);
      const download = await h.driver.createDownloadUrl(key, { expiresInSeconds: 1 });
      expect(download.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
      await sleep(2100);
      expectRefused(await sendUpload(upload, randomBytes(10)));
      expectRefused(await fetch(h.resolve(download.url)));
    }, 10_000);

    it("refuses a URL signed for one object when aimed at another (another user's)", async () => {
      const mine = freshKey('owner-a');
      const theirs = freshKey('owner-b');
      const theirBytes = randomBytes(64);
      await h.driver.put(theirs, chunksOf(theirBytes), { maxBytes: 64 });
      await h.driver.put(mine, chunksOf(randomBytes(64)), { maxBytes: 64 });

      const download = await h.driver.createDownloadUrl(mine, { expiresInSeconds: 300 });
      const stolen = await fetch(h.resolve(retarget(download.url, mine, theirs)));
      expectRefused(stolen);
      expect(Buffer.from(await stolen.arrayBuffer()).includes(theirBytes)).toBe(false);

      const uploadKey = freshKey('owner-a');
      const upload = await h.signUpload(uploadKey, 64, 300);
      const overwrite = retargetUpload(upload, uploadKey, theirs);
      expectRefused(await sendUpload(overwrite, randomBytes(64)));
      expect((await readAll(await h.driver.get(theirs))).equals(theirBytes)).toBe(true);
    });

    it('refuses a tampered signature', async () => {
      const key = freshKey();
      await h.driver.put(key, chunksOf(randomBytes(10)), { maxBytes: 10 });
      const download = await h.driver.createDownloadUrl(key, { expiresInSeconds: 300 });
      expectRefused(await fetch(h.resolve(tamperUrlSignature(h.resolve(download.url)))));
      const target = freshKey();
      const upload = await h.signUpload(target, 10, 300);
      expectRefused(await sendUpload(tamperUploadSignature(upload), randomBytes(10)));
      expect(await h.driver.stat(target)).toBeNull();
    });
  });

  describe('object keys', () => {
    const bad = [
      '../x',
      'a/b/c',
      'Owner/file',
      'owner/File',
      'owner/../x',
      '/owner/file',
      'owner/file.jpg',
      'owner',
      '',
    ];
    it.each(bad)('refuses %j in every method', async (key) => {
      const driver = h.driver;
      await expectVaultError(driver.stat(key), ErrorCode.VALIDATION_FAILED);
      await expectVaultError(driver.get(key), ErrorCode.VALIDATION_FAILED);
      await expectVaultError(driver.delete(key), ErrorCode.VALIDATION_FAILED);
      await expectVaultError(
        driver.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 1 }),
        ErrorCode.VALIDATION_FAILED,
      );
      await expectVaultError(
        driver.createDownloadUrl(key, { expiresInSeconds: 60 }),
        ErrorCode.VALIDATION_FAILED,
      );
      await expect(h.signUpload(key, 1, 60)).rejects.toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
    });

    it('accepts the thumbnail variant', async () => {
      const key = `${freshKey()}.thumb`;
      await expect(h.driver.put(key, chunksOf(randomBytes(5)), { maxBytes: 5 })).resolves.toEqual({
        size: 5,
      });
      expect(await h.driver.stat(key)).toEqual({ size: 5 });
    });
  });
}
