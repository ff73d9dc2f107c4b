import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ErrorCode } from '@vault/contracts';
import { CLOUDINARY_MIN_CHUNK_BYTES, CloudinaryStorageDriver, loadCloudinarySdk } from '../../src';
import { chunksOf, cloudinaryPerFile, freshKey, readAll } from './storage-behaviour';

const MIB = 1024 * 1024;
const CHUNK = CLOUDINARY_MIN_CHUNK_BYTES;

/** Cloudinary's chunked upload, one chunk per driver call (the blob route passes each part on as one). */
describe(`${CloudinaryStorageDriver.name} (chunked uploads)`, () => {
  const t = cloudinaryPerFile();

  const total = 2 * CHUNK + 4321;
  const rangeOf = (n: number) => {
    const first = n * CHUNK;
    return { first, last: Math.min(first + CHUNK, total) - 1, total };
  };
  const chunk = (bytes: Buffer, n: number, uploadId: string) => {
    const range = rangeOf(n);
    return {
      body: chunksOf(bytes.subarray(range.first, range.last + 1), 256 * 1024),
      chunk: { ...range, uploadId },
    };
  };
  const send = (key: string, bytes: Buffer, n: number, uploadId: string) => {
    const { body, chunk: c } = chunk(bytes, n, uploadId);
    return t.driver.sendChunk(key, body, c);
  };
  const asset = (key: string) => t.server.objects.get(`raw/authenticated/vault/${key}`);
  const uploadIdOf = () => randomBytes(12).toString('hex');

  it('chunks in order become one authenticated raw asset, exactly the bytes', async () => {
    const key = freshKey();
    const bytes = randomBytes(total);
    const id = uploadIdOf();
    expect(await send(key, bytes, 0, id)).toEqual({ complete: false });
    expect(await send(key, bytes, 1, id)).toEqual({ complete: false });
    expect(t.server.chunkedUploads().find((u) => u.uploadId === id)?.ranges).toEqual([
      [0, CHUNK - 1],
      [CHUNK, 2 * CHUNK - 1],
    ]);
    expect(asset(key)).toBeUndefined();
    expect(await send(key, bytes, 2, id)).toEqual({ complete: true });
    expect(asset(key)).toMatchObject({ bytes: total, type: 'authenticated', resourceType: 'raw' });
    expect((await readAll(await t.driver.get(key))).equals(bytes)).toBe(true);
    expect(t.server.chunkedUploads().some((u) => u.uploadId === id)).toBe(false);
  });

  it('refuses, before sending anything, a chunk other than the last under 5 MiB', async () => {
    const before = t.server.requests.length;
    await expect(
      t.driver.sendChunk(freshKey(), Readable.from([Buffer.alloc(MIB)]), {
        first: 0,
        last: MIB - 1,
        total: 3 * MIB,
        uploadId: uploadIdOf(),
      }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
    expect(t.server.requests.length).toBe(before);
  });

  it('a body shorter than its chunk is cut off before its end: Cloudinary keeps nothing of it', async () => {
    const key = freshKey();
    const bytes = randomBytes(total);
    const id = uploadIdOf();
    await send(key, bytes, 0, id);
    const short = Readable.from([bytes.subarray(CHUNK, 2 * CHUNK - 10)]);
    await expect(t.driver.sendChunk(key, short, { ...rangeOf(1), uploadId: id })).rejects.toMatchObject({
      code: ErrorCode.UPLOAD_SIZE_MISMATCH,
    });
    expect(t.server.chunkedUploads().find((u) => u.uploadId === id)?.ranges).toEqual([[0, CHUNK - 1]]);
    // Sent again whole, the upload goes on.
    await send(key, bytes, 1, id);
    await send(key, bytes, 2, id);
    expect((await readAll(await t.driver.get(key))).equals(bytes)).toBe(true);
  });

  it('a chunk cut off mid-transfer by the store fails, and sent again completes the upload whole', async () => {
    const key = freshKey();
    const bytes = randomBytes(total);
    const id = uploadIdOf();
    await send(key, bytes, 0, id);
    t.server.faults.add({
      action: 'reset',
      afterBytes: MIB,
      match: (r) => String(r.headers['content-range']).startsWith(`bytes ${CHUNK}-`),
    });
    await expect(send(key, bytes, 1, id)).rejects.toThrow(/Cloudinary upload failed/);
    t.server.faults.add({ action: 'refuse', status: 500 });
    await expect(send(key, bytes, 1, id)).rejects.toThrow(/HTTP 500/);
    expect(t.server.faults.hits.map((h) => h.action)).toEqual(['reset', 'refuse']);
    await send(key, bytes, 1, id);
    await send(key, bytes, 2, id);
    expect((await readAll(await t.driver.get(key))).equals(bytes)).toBe(true);
  });

  it('the test server keeps the order Cloudinary needs: first chunk first, the last one after all others', async () => {
    const key = freshKey();
    const bytes = randomBytes(total);
    const early = uploadIdOf();
    await expect(send(key, bytes, 1, early)).rejects.toThrow(
      /first chunk of a chunked upload must arrive first/,
    );
    const id = uploadIdOf();
    await send(key, bytes, 0, id);
    await expect(send(key, bytes, 2, id)).rejects.toThrow(/last chunk arrived before the chunk at byte/);
    expect(asset(key)).toBeUndefined();
    await send(key, bytes, 1, id);
    await send(key, bytes, 2, id);
    expect(asset(key)?.bytes).toBe(total);
  });

  it('the test server checks every chunk signature', async () => {
    const key = freshKey();
    const { uploadUrl, fields } = t.driver.createDirectUpload(key, 300);
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...fields, public_id: `vault/${freshKey('owner-b')}` })) {
      form.append(name, value);
    }
    form.append('file', new Blob([Uint8Array.from(randomBytes(CHUNK))]), 'file');
    const res = await fetch(uploadUrl, {
      method: 'POST',
      body: form,
      headers: { 'X-Unique-Upload-Id': uploadIdOf(), 'Content-Range': `bytes 0-${CHUNK - 1}/-1` },
    });
    expect(res.status).toBe(401);
    expect(await res.text()).toContain('Invalid Signature');
  });

  it("speaks the SDK's own chunked protocol (upload_chunked_stream, total -1 until the last chunk)", async () => {
    const key = freshKey();
    const bytes = randomBytes(2 * CHUNK + 99);
    const sdk = loadCloudinarySdk() as unknown as {
      uploader: {
        upload_chunked_stream(
          options: Record<string, unknown>,
          callback: (error: unknown, result?: { bytes?: number }) => void,
        ): NodeJS.WritableStream;
      };
    };
    const result = await new Promise<{ bytes?: number; error?: unknown }>((resolve) => {
      const stream = sdk.uploader.upload_chunked_stream(
        {
          resource_type: 'raw',
          type: 'authenticated',
          public_id: `vault/${key}`,
          chunk_size: CHUNK,
          cloud_name: t.account.cloudName,
          api_key: t.account.apiKey,
          api_secret: t.account.apiSecret,
        },
        (error, answer) => resolve({ error, bytes: answer?.bytes }),
      );
      void pipeline(Readable.from([bytes]), stream);
    });
    expect(result.error).toBeUndefined();
    expect(result.bytes).toBe(bytes.length);
    expect((await readAll(await t.driver.get(key))).equals(bytes)).toBe(true);
  });
});
