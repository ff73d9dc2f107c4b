// @vitest-environment node
import { createHash } from 'node:crypto';
import { FILE_THUMBNAIL_MAX_CHARS, createUploadBodySchema } from '@vault/contracts';
import {
  FILE_CHUNK_SIZE,
  decryptFileBytes,
  decryptFileMetadata,
  encryptFileMetadata,
  importVaultKey,
  newItemId,
  randomBytes,
  unwrapFileKey,
} from '@vault/crypto';
import { describe, expect, it, vi } from 'vitest';
import { channelClient } from '../testing/channel-worker';
import { InlineFilesCrypto } from './files-crypto';
import {
  SEALED_THUMBNAIL_MAX_CHARS,
  blobStream,
  createFilesApi,
  decryptMetadataBatch,
  openThumbnail,
  sealUploadMeta,
  sendUploadParts,
  type UploadEnvironment,
} from './files-ops';
import { BATCH_BYTES } from './files-chunks';
import { prepareUpload } from '../testing/prepare-upload';
import { PART_BYTES } from './files-parts';
import { UploadHttpError } from './xhr-put';
import type { UploadInput } from './files-messages';
import { MemoryStaging, type StagingSink } from './files-staging';
import { thumbnailMimeType, thumbnailSize } from './files-thumbnail';

const key = () => importVaultKey(randomBytes(32));

/** One file to upload: `bytes` as its content, no tags, no thumbnail unless asked. */
function uploadInput(
  bytes: BlobPart[],
  name: string,
  mimeType: string,
  more: Partial<UploadInput> = {},
): UploadInput {
  return { file: new Blob(bytes), name, mimeType, tags: [], thumbnail: false, ...more };
}

async function bytesOf(blob: Blob): Promise<Uint8Array> {
  return new Uint8Array(await blob.arrayBuffer());
}

function memoryEnv(overrides: Partial<UploadEnvironment> = {}) {
  const sinks: MemoryStaging[] = [];
  const env: UploadEnvironment = {
    putPart: async () => {
      throw new Error('this storage takes no parts');
    },
    openStaging: async () => {
      const sink = new MemoryStaging(256 * 1024);
      sinks.push(sink);
      return sink;
    },
    makeThumbnail: async () => null,
    ...overrides,
  };
  return { env, sinks };
}

describe('files worker operations (real @vault/crypto)', () => {
  it('seals a file for upload: fresh UUID v4 id, sealed metadata, chunked ciphertext that decrypts back', async () => {
    const vaultKey = await key();
    const plain = randomBytes(3 * FILE_CHUNK_SIZE + 1234);
    const progress: Array<[number, number]> = [];
    const { env, sinks } = memoryEnv();
    const prepared = await prepareUpload(
      vaultKey,
      uploadInput([plain], 'Report Q3.pdf', 'application/pdf', { tags: ['work'] }),
      (done, total) => progress.push([done, total]),
      env,
    );
    const { fields } = prepared;
    expect(fields.fileId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(fields.size).toBe(plain.length);
    expect(fields.encryptedSize).toBe(plain.length + 16 * 4);
    expect(fields.chunkSize).toBe(FILE_CHUNK_SIZE);
    expect(fields.iv).toMatch(/^[0-9a-f]{24}$/);
    expect(fields.encryptedThumbnail).toBeUndefined();
    // Exactly the body the gateway validates (plus the storage type the dialog adds).
    expect(createUploadBodySchema.safeParse({ ...fields, storageType: 'local' }).success).toBe(true);
    // Nothing readable in the sealed fields.
    expect(JSON.stringify(fields)).not.toMatch(/Report|pdf|work/);

    expect(prepared.staging).toEqual({ kind: 'memory' });
    expect(prepared.ciphertext.size).toBe(fields.encryptedSize);
    expect(await decryptFileMetadata(vaultKey, fields.fileId, fields)).toEqual({
      name: 'Report Q3.pdf',
      mimeType: 'application/pdf',
      tags: ['work'],
    });
    const fileKey = await unwrapFileKey(vaultKey, fields.fileId, fields.wrappedKey);
    const back = await decryptFileBytes(
      { fileKey, fileId: fields.fileId, iv: fields.iv, size: fields.size },
      await bytesOf(prepared.ciphertext),
    );
    expect(back).toEqual(plain);

    expect(progress[0]).toEqual([0, fields.encryptedSize]);
    expect(progress.at(-1)).toEqual([fields.encryptedSize, fields.encryptedSize]);
    // The staging held at most one slab (256 KiB here) in the heap.
    expect(sinks[0]!.maxHeldBytes).toBeLessThanOrEqual(256 * 1024 + FILE_CHUNK_SIZE + 16);
  });

  const MIB4 = 4 * 1024 * 1024;

  it('sends in parts while sealing: ranges in order, the stored object decrypts back, sealed stays ahead of sent', async () => {
    const vaultKey = await key();
    // Two batches and a bit, so sealing and sending really interleave.
    const plain = randomBytes(2 * BATCH_BYTES + 3 * FILE_CHUNK_SIZE + 77);
    const input = uploadInput([plain], 'big.bin', 'application/zip');
    const fields = await sealUploadMeta(vaultKey, input, memoryEnv().env);
    const received: Array<{ first: number; last: number; total: number; body: Uint8Array }> = [];
    const progress: Array<[number, number, number]> = [];
    const sent = await sendUploadParts(
      vaultKey,
      fields,
      { ...input, fingerprint: true },
      // The storage's limit is below PART_BYTES here, so it sets the part size.
      { url: '/api/files/blob/x', partSize: MIB4 },
      (sealed, total, stored) => progress.push([sealed, total, stored]),
      {
        putPart: async (p) => {
          received.push({ first: p.first, last: p.last, total: p.total, body: await bytesOf(p.body) });
        },
      },
    );
    const total = fields.encryptedSize;
    expect(PART_BYTES).toBeGreaterThan(MIB4);
    expect(received.map((r) => [r.first, r.last, r.total])).toEqual([
      [0, MIB4 - 1, total],
      [MIB4, 2 * MIB4 - 1, total],
      [2 * MIB4, total - 1, total],
    ]);
    const stored = new Uint8Array(total);
    for (const r of received) stored.set(r.body, r.first);
    const fileKey = await unwrapFileKey(vaultKey, fields.fileId, fields.wrappedKey);
    const back = await decryptFileBytes(
      { fileKey, fileId: fields.fileId, iv: fields.iv, size: fields.size },
      stored,
    );
    // Compared by digest: a deep equality of 8 MiB takes the matcher tens of seconds.
    const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
    expect(back.length).toBe(plain.length);
    expect(sha256(back)).toBe(sha256(plain));
    expect(sent.plaintextSha256).toBe(sha256(plain));
    expect(progress[0]).toEqual([0, total, 0]);
    expect(progress.at(-1)).toEqual([total, total, total]);
    for (const [sealed, , stored2] of progress) expect(stored2).toBeLessThanOrEqual(sealed);
  });

  it('a part the storage refuses fails the upload with its status (code UPLOAD_HTTP)', async () => {
    const vaultKey = await key();
    const input = uploadInput([randomBytes(1000)], 'a', 'text/plain');
    const fields = await sealUploadMeta(vaultKey, input, memoryEnv().env);
    const rpc = channelClient(
      createFilesApi({
        ...memoryEnv().env,
        putPart: async () => {
          throw new UploadHttpError(403);
        },
      }),
    );
    await expect(
      rpc.call('sendUpload', vaultKey, fields, input, { url: '/u', partSize: 1 << 20 }),
    ).rejects.toMatchObject({ code: 'UPLOAD_HTTP', message: 'Upload failed with status 403' });
    rpc.terminate();
  });

  it('each upload gets its own id and key; an empty file is one empty chunk', async () => {
    const vaultKey = await key();
    const { env } = memoryEnv();
    const input = uploadInput([], 'empty.txt', 'text/plain');
    const a = await prepareUpload(vaultKey, input, undefined, env);
    const b = await prepareUpload(vaultKey, input, undefined, env);
    expect(a.fields.fileId).not.toBe(b.fields.fileId);
    expect(a.fields.wrappedKey).not.toBe(b.fields.wrappedKey);
    expect(a.fields.size).toBe(0);
    expect(a.fields.encryptedSize).toBe(16);
    expect(a.ciphertext.size).toBe(16);
  });

  it('seals the thumbnail under the file key; a failing or oversized picture is left out', async () => {
    const vaultKey = await key();
    const picture = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    const { env } = memoryEnv({ makeThumbnail: async () => picture });
    const input = uploadInput([randomBytes(100)], 'cat.jpg', 'image/jpeg', { thumbnail: true });
    const prepared = await prepareUpload(vaultKey, input, undefined, env);
    expect(prepared.fields.encryptedThumbnail).toMatch(/^[0-9a-f]+:[0-9a-f]{24}$/);
    expect(
      await openThumbnail(
        vaultKey,
        { id: prepared.fields.fileId, wrappedKey: prepared.fields.wrappedKey },
        prepared.fields.encryptedThumbnail!,
      ),
    ).toEqual(picture);

    const failing = memoryEnv({ makeThumbnail: async () => Promise.reject(new Error('decode failed')) });
    expect(
      (await prepareUpload(vaultKey, input, undefined, failing.env)).fields.encryptedThumbnail,
    ).toBeUndefined();
    const huge = memoryEnv({ makeThumbnail: async () => new Uint8Array(SEALED_THUMBNAIL_MAX_CHARS) });
    expect(
      (await prepareUpload(vaultKey, input, undefined, huge.env)).fields.encryptedThumbnail,
    ).toBeUndefined();
    const notAsked = vi.fn(async () => picture);
    await prepareUpload(
      vaultKey,
      { ...input, thumbnail: false },
      undefined,
      memoryEnv({ makeThumbnail: notAsked }).env,
    );
    expect(notAsked).not.toHaveBeenCalled();
  });

  it('a failure while encrypting aborts the staging (nothing is left behind)', async () => {
    const vaultKey = await key();
    const abort = vi.fn(async () => undefined);
    const sink: StagingSink = {
      write: () => {
        throw new Error('disk full');
      },
      finish: async () => ({ blob: new Blob([]), staging: { kind: 'memory' } }),
      abort,
    };
    await expect(
      prepareUpload(vaultKey, uploadInput([randomBytes(10)], 'a.txt', 'text/plain'), undefined, {
        openStaging: async () => sink,
        makeThumbnail: async () => null,
      }),
    ).rejects.toThrow();
    expect(abort).toHaveBeenCalledTimes(1);
  });

  it('decrypts metadata in batches; a foreign or damaged file fails alone', async () => {
    const vaultKey = await key();
    const other = await key();
    const mine = async (name: string, k = vaultKey) => {
      const id = newItemId();
      const { fileKey: _fk, ...sealed } = await encryptFileMetadata(k, id, {
        name,
        mimeType: 'text/plain',
        tags: ['t'],
      });
      return { id, ...sealed };
    };
    const good = await mine('a.txt');
    const foreign = await mine('b.txt', other);
    const damaged = { ...(await mine('c.txt')), encryptedName: 'zz' };
    const out = await decryptMetadataBatch(vaultKey, [good, foreign, damaged]);
    expect(out.map((o) => o.id)).toEqual([good.id, foreign.id, damaged.id]);
    expect(out[0]).toEqual({
      id: good.id,
      ok: true,
      meta: { name: 'a.txt', mimeType: 'text/plain', tags: ['t'] },
    });
    expect(out[1]!.ok).toBe(false);
    expect(out[2]!.ok).toBe(false);
  });

  it('through the worker: progress comes before the answer, failures keep their code', async () => {
    const vaultKey = await key();
    const rpc = channelClient(createFilesApi(memoryEnv().env), { inOrder: true });
    await expect(
      rpc.call('decryptThumbnail', vaultKey, { id: newItemId(), wrappedKey: 'x' }, 'y'),
    ).rejects.toMatchObject({ code: 'BAD_FORMAT' });
    const input = uploadInput([randomBytes(2 * FILE_CHUNK_SIZE)], 'a.bin', 'application/zip');
    const fields = await rpc.call('sealUploadMeta', vaultKey, input);
    const events: string[] = [];
    const staged = rpc
      .call('stageUpload', vaultKey, fields, input, (done, total) => events.push(`${done}/${total}`))
      .then((prepared) => {
        events.push('answer');
        return prepared;
      });
    expect((await staged).ciphertext.size).toBe(fields.encryptedSize);
    expect(events).toEqual([
      `0/${fields.encryptedSize}`,
      `${fields.encryptedSize}/${fields.encryptedSize}`,
      'answer',
    ]);
    rpc.terminate();
  });

  it('InlineFilesCrypto: cancelUploads makes a running upload reject', async () => {
    const crypto = new InlineFilesCrypto();
    const vaultKey = await key();
    const input = uploadInput([randomBytes(2 * FILE_CHUNK_SIZE)], 'a.bin', 'application/zip');
    const fields = await crypto.sealUploadMeta(vaultKey, input);
    const running = crypto.stageUpload(vaultKey, fields, input);
    crypto.cancelUploads();
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
  });

  it('blobStream reads a Blob without stream() piece by piece', async () => {
    const data = randomBytes(10_000);
    const blob = new Blob([data]);
    const bare = { size: blob.size, slice: (a: number, b: number) => blob.slice(a, b) } as unknown as Blob;
    const pieces: Uint8Array[] = [];
    const reader = blobStream(bare, 4096).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      pieces.push(value);
    }
    expect(pieces.map((p) => p.length)).toEqual([4096, 4096, 1808]);
    expect(new Uint8Array(await new Blob(pieces as BlobPart[]).arrayBuffer())).toEqual(data);
  });
});

describe('thumbnails', () => {
  it('fit in 256 px on the longer side, keep the aspect ratio and are never enlarged', () => {
    expect(thumbnailSize(4000, 3000)).toEqual({ width: 256, height: 192 });
    expect(thumbnailSize(1000, 4000)).toEqual({ width: 64, height: 256 });
    expect(thumbnailSize(100, 50)).toEqual({ width: 100, height: 50 });
    expect(thumbnailSize(10_000, 1)).toEqual({ width: 256, height: 1 });
  });

  it('are typed from their signature', () => {
    const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
    expect(thumbnailMimeType(new Uint8Array([...ascii('RIFF'), 0, 0, 0, 0, ...ascii('WEBP')]))).toBe(
      'image/webp',
    );
    expect(thumbnailMimeType(new Uint8Array([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(thumbnailMimeType(new Uint8Array([0x89, ...ascii('PNG'), 13, 10, 26, 10]))).toBe('image/png');
    expect(thumbnailMimeType(new Uint8Array(ascii('GIF89a')))).toBe('image/gif');
    expect(thumbnailMimeType(new Uint8Array([1, 2, 3]))).toBe('application/octet-stream');
  });

  it('the sealed-size limit matches the contract', () => {
    expect(SEALED_THUMBNAIL_MAX_CHARS).toBe(FILE_THUMBNAIL_MAX_CHARS);
  });
});
