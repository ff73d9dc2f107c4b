import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ErrorCode, VaultError } from '@vault/contracts';
import { LocalStorageDriver, type UploadPart } from '../../src';
import { freshKey } from './storage-behaviour';

const signingSecret = 'medium-test-signing-secret-0123456789';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await stat(path)).size;
  } catch {
    return null;
  }
}

async function failure(promise: Promise<unknown>): Promise<VaultError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof VaultError) return error;
    throw error;
  }
  throw new Error('expected a VaultError');
}

describe(`${LocalStorageDriver.name}.appendPart`, () => {
  let root: string;
  let driver: LocalStorageDriver;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'vault-local-parts-'));
    driver = new LocalStorageDriver({ root, signingSecret });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const part = (bytes: Buffer, first: number, total: number): [Readable, UploadPart] => [
    Readable.from([bytes]),
    { first, last: first + bytes.length - 1, total },
  ];

  it('stores parts sent in order as the exact bytes, in a dot-named 0600 partial, renamed into place after the last', async () => {
    const key = freshKey();
    const object = randomBytes(250_000);
    const partial = driver.partialPathOf(key);
    expect(dirname(partial)).toBe(dirname(driver.pathOf(key)));
    expect(basename(partial)).toBe(`.${basename(driver.pathOf(key))}.upload`);

    expect(await driver.appendPart(key, ...part(object.subarray(0, 100_000), 0, object.length))).toEqual({
      stored: 100_000,
      complete: false,
    });
    expect(await sizeOf(partial)).toBe(100_000);
    expect((await stat(partial)).mode & 0o077).toBe(0);
    // Not an object until the last part.
    expect(await driver.stat(key)).toBeNull();

    expect(
      await driver.appendPart(key, ...part(object.subarray(100_000, 200_000), 100_000, object.length)),
    ).toEqual({ stored: 200_000, complete: false });
    expect(await driver.appendPart(key, ...part(object.subarray(200_000), 200_000, object.length))).toEqual({
      stored: object.length,
      complete: true,
    });
    expect(await sizeOf(partial)).toBeNull();
    expect(await driver.stat(key)).toEqual({ size: object.length });
    expect((await readFile(driver.pathOf(key))).equals(object)).toBe(true);
    expect((await readAll(await driver.get(key))).equals(object)).toBe(true);
  });

  it('refuses a part that does not start where the stored bytes end with CONFLICT naming the offset, changing nothing', async () => {
    const key = freshKey();
    const object = randomBytes(30);
    const skipped = await failure(driver.appendPart(key, ...part(object.subarray(10, 20), 10, 30)));
    expect(skipped.code).toBe(ErrorCode.CONFLICT);
    expect(skipped.message).toBe('Parts must arrive in order: the next part starts at byte 0');
    expect(await sizeOf(driver.partialPathOf(key))).toBeNull();

    await driver.appendPart(key, ...part(object.subarray(0, 10), 0, 30));
    for (const first of [5, 20]) {
      const error = await failure(
        driver.appendPart(key, ...part(object.subarray(first, first + 5), first, 30)),
      );
      expect(error.code).toBe(ErrorCode.CONFLICT);
      expect(error.message).toBe('Parts must arrive in order: the next part starts at byte 10');
      expect(error.extra).toMatchObject({ stored: 10 });
    }
    expect(await sizeOf(driver.partialPathOf(key))).toBe(10);
    await driver.appendPart(key, ...part(object.subarray(10), 10, 30));
    expect((await readFile(driver.pathOf(key))).equals(object)).toBe(true);
  });

  it('a part at byte 0 starts over, dropping the earlier partial', async () => {
    const key = freshKey();
    const stale = randomBytes(40);
    const object = randomBytes(20);
    await driver.appendPart(key, ...part(stale.subarray(0, 30), 0, 40));
    expect(await sizeOf(driver.partialPathOf(key))).toBe(30);
    await driver.appendPart(key, ...part(object.subarray(0, 8), 0, 20));
    expect(await sizeOf(driver.partialPathOf(key))).toBe(8);
    await driver.appendPart(key, ...part(object.subarray(8), 8, 20));
    expect((await readFile(driver.pathOf(key))).equals(object)).toBe(true);
  });

  it('a short or long body is refused and the partial goes back to its earlier length, so the part can be resent', async () => {
    const key = freshKey();
    const object = randomBytes(30);
    await driver.appendPart(key, ...part(object.subarray(0, 10), 0, 30));
    const range = { first: 10, last: 19, total: 30 };

    const short = await failure(driver.appendPart(key, Readable.from([object.subarray(10, 15)]), range));
    expect(short.code).toBe(ErrorCode.UPLOAD_SIZE_MISMATCH);
    expect(await sizeOf(driver.partialPathOf(key))).toBe(10);

    const long = await failure(driver.appendPart(key, Readable.from([object.subarray(10, 21)]), range));
    expect(long.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    expect(await sizeOf(driver.partialPathOf(key))).toBe(10);

    async function* breaking() {
      yield object.subarray(10, 14);
      throw new Error('client went away');
    }
    await expect(driver.appendPart(key, Readable.from(breaking()), range)).rejects.toThrow(
      'client went away',
    );
    expect(await sizeOf(driver.partialPathOf(key))).toBe(10);

    await driver.appendPart(key, ...part(object.subarray(10, 20), 10, 30));
    await driver.appendPart(key, ...part(object.subarray(20), 20, 30));
    expect((await readFile(driver.pathOf(key))).equals(object)).toBe(true);
  });

  it('a failed first part leaves no partial behind', async () => {
    const key = freshKey();
    const error = await failure(
      driver.appendPart(key, Readable.from([randomBytes(3)]), { first: 0, last: 9, total: 20 }),
    );
    expect(error.code).toBe(ErrorCode.UPLOAD_SIZE_MISMATCH);
    expect(await sizeOf(driver.partialPathOf(key))).toBeNull();
  });

  it('a new upload in parts never disturbs the stored object until its last part', async () => {
    const key = freshKey();
    await driver.put(key, Readable.from([Buffer.from('first version')]), { maxBytes: 100 });
    await driver.appendPart(key, ...part(Buffer.from('second'), 0, 14));
    expect((await readFile(driver.pathOf(key))).toString()).toBe('first version');
    await driver.appendPart(key, ...part(Buffer.from(' version'), 6, 14));
    expect((await readFile(driver.pathOf(key))).toString()).toBe('second version');
  });

  it('delete removes a partial upload as well as the object', async () => {
    const key = freshKey();
    await driver.appendPart(key, ...part(randomBytes(10), 0, 20));
    expect(await sizeOf(driver.partialPathOf(key))).toBe(10);
    await driver.delete(key);
    expect(await sizeOf(driver.partialPathOf(key))).toBeNull();
    // Nothing to continue: the next part is told to start over.
    const error = await failure(driver.appendPart(key, ...part(randomBytes(10), 10, 20)));
    expect(error.message).toBe('Parts must arrive in order: the next part starts at byte 0');
  });

  it('serialises parts of one key: a second part waits until the first has been written', async () => {
    const key = freshKey();
    const object = randomBytes(20);
    const slow = new PassThrough();
    const firstPart = driver.appendPart(key, slow, { first: 0, last: 9, total: 20 });
    // Sent while the first is still on the wire: it is checked only once the first is stored.
    const secondPart = driver.appendPart(key, ...part(object.subarray(10), 10, 20));
    slow.write(object.subarray(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await driver.stat(key)).toBeNull();
    slow.end(object.subarray(5, 10));
    expect(await firstPart).toEqual({ stored: 10, complete: false });
    expect(await secondPart).toEqual({ stored: 20, complete: true });
    expect((await readFile(driver.pathOf(key))).equals(object)).toBe(true);
  });

  it('two concurrent first parts of one key do not interleave: the later one wins whole', async () => {
    const key = freshKey();
    const a = randomBytes(64 * 1024);
    const b = randomBytes(64 * 1024);
    const results = await Promise.all([
      driver.appendPart(key, Readable.from([a.subarray(0, 32 * 1024), a.subarray(32 * 1024)]), {
        first: 0,
        last: a.length - 1,
        total: a.length,
      }),
      driver.appendPart(key, Readable.from([b.subarray(0, 32 * 1024), b.subarray(32 * 1024)]), {
        first: 0,
        last: b.length - 1,
        total: b.length,
      }),
    ]);
    expect(results).toEqual([
      { stored: a.length, complete: true },
      { stored: b.length, complete: true },
    ]);
    expect((await readFile(driver.pathOf(key))).equals(b)).toBe(true);
  });

  it('refuses an invalid range or key before reading the body', async () => {
    const key = freshKey();
    for (const range of [
      { first: 5, last: 4, total: 10 },
      { first: 0, last: 10, total: 10 },
      { first: -1, last: 3, total: 10 },
      { first: 0.5, last: 3, total: 10 },
    ]) {
      const error = await failure(driver.appendPart(key, Readable.from([Buffer.alloc(4)]), range));
      expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    }
    await expect(
      driver.appendPart('../escape', Readable.from([Buffer.alloc(1)]), { first: 0, last: 0, total: 1 }),
    ).rejects.toThrow();
    expect(await sizeOf(driver.partialPathOf(key))).toBeNull();
  });
});
