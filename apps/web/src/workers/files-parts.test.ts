// @vitest-environment node
import { UPLOAD_PART_MAX_BYTES, UPLOAD_PART_MIN_BYTES } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import { FIRST_PART_BYTES, PART_BYTES, PartSender, type PartRequest } from './files-parts';
import { UploadHttpError } from './xhr-put';

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
/** The blob route: one URL taking `Content-Range` parts (the sender's own part size applies). */
const route = (url = 'u') => ({ url, partSize: Number.MAX_SAFE_INTEGER });
const bytes = (n: number, seed = 5) => Uint8Array.from({ length: n }, (_, i) => (i * seed + 1) & 0xff);

/** A storage that records each part (a copy: the sender reuses its buffers) and can fail some. */
function storage(opts: { failures?: number[]; delayMs?: number } = {}) {
  const parts: Array<{ first: number; last: number; total: number; body: Uint8Array }> = [];
  const failures = [...(opts.failures ?? [])];
  let inFlight = 0;
  let maxInFlight = 0;
  let attempts = 0;
  const put = async (p: PartRequest) => {
    attempts++;
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
      const status = failures.shift();
      if (status !== undefined) throw new UploadHttpError(status);
      parts.push({ first: p.first, last: p.last, total: p.total, body: await bytesOf(p.body) });
    } finally {
      inFlight--;
    }
  };
  const joined = () => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.body.length, 0));
    let at = 0;
    for (const p of parts) {
      expect(p.first).toBe(at);
      out.set(p.body, at);
      at += p.body.length;
    }
    return out;
  };
  return { put, parts, joined, maxInFlight: () => maxInFlight, attempts: () => attempts };
}

describe('PartSender', () => {
  it('sends the bytes in order as parts of at most partBytes, with inclusive ranges, one on the wire at a time', async () => {
    const data = bytes(10_000);
    const s = storage({ delayMs: 3 });
    const sent: number[] = [];
    const sender = new PartSender(
      route('https://vault.test/api/files/blob/x'),
      data.length,
      4096,
      s.put,
      (n) => sent.push(n),
      1,
      1,
    );
    // Pieces that do not line up with the parts.
    for (let at = 0; at < data.length; at += 1500) await sender.write(data.subarray(at, at + 1500));
    await sender.finish();
    expect(s.parts.map((p) => [p.first, p.last, p.total])).toEqual([
      [0, 4095, 10_000],
      [4096, 8191, 10_000],
      [8192, 9999, 10_000],
    ]);
    expect(s.joined()).toEqual(data);
    expect(s.maxInFlight()).toBe(1);
    expect(sent).toEqual([4096, 8192, 10_000]);
  });

  it('keeps filling the next part while one is on the wire', async () => {
    const data = bytes(8192);
    let release: () => void = () => undefined;
    const first = new Promise<void>((r) => (release = r));
    const parts: Array<{ first: number; body: Uint8Array }> = [];
    const sender = new PartSender(
      route(),
      data.length,
      4096,
      async (p) => {
        parts.push({ first: p.first, body: await bytesOf(p.body) });
        if (p.first === 0) await first;
      },
      () => undefined,
      1,
      1,
    );
    await sender.write(data.subarray(0, 4096));
    // The first part is held by the storage; the second still fills without waiting.
    await sender.write(data.subarray(4096, 6000));
    expect(parts).toHaveLength(1);
    release();
    await sender.write(data.subarray(6000));
    await sender.finish();
    expect(parts.map((p) => p.first)).toEqual([0, 4096]);
    expect(parts[1]!.body).toEqual(data.subarray(4096));
  });

  it('the first part is the smallest every storage takes (Cloudinary refuses a shorter part that is not the last)', () => {
    expect(FIRST_PART_BYTES).toBe(UPLOAD_PART_MIN_BYTES);
    expect(PART_BYTES).toBe(UPLOAD_PART_MAX_BYTES);
  });

  it('to the blob route the first part is FIRST_PART_BYTES, the rest full parts; part URLs keep one size', async () => {
    const partBytes = 6 * 1024 * 1024;
    const total = FIRST_PART_BYTES + 2 * partBytes + 1000;
    const data = new Uint8Array(total);
    for (let i = 0; i < total; i += 4096) data[i] = (i >>> 12) & 0xff;
    const ranged: Array<[number, number]> = [];
    const blobRoute = new PartSender(
      route(),
      total,
      partBytes,
      async (p) => void ranged.push([p.first, p.last]),
      () => undefined,
      1,
    );
    const urls: Array<[string, number]> = [];
    const s3 = new PartSender(
      { url: 'w', partSize: partBytes, partUrls: ['p1', 'p2', 'p3'] },
      total,
      partBytes,
      async (p) => void urls.push([p.url, p.body.size]),
      () => undefined,
      1,
    );
    // The sealer's batches: about 4 MiB each (files-chunks.ts), not in step with the parts.
    const batchBytes = 4 * 1024 * 1024 + 1024;
    for (let at = 0; at < total; at += batchBytes) {
      const batch = data.subarray(at, at + batchBytes);
      await blobRoute.write(batch);
      await s3.write(batch);
    }
    await blobRoute.finish();
    await s3.finish();
    expect(ranged).toEqual([
      [0, FIRST_PART_BYTES - 1],
      [FIRST_PART_BYTES, FIRST_PART_BYTES + partBytes - 1],
      [FIRST_PART_BYTES + partBytes, FIRST_PART_BYTES + 2 * partBytes - 1],
      [FIRST_PART_BYTES + 2 * partBytes, total - 1],
    ]);
    expect(urls).toEqual([
      ['p1', partBytes],
      ['p2', partBytes],
      ['p3', total - 2 * partBytes],
    ]);
  });

  it('to part URLs (S3): part i to URL i, exactly partSize bytes each but the last, without Content-Range', async () => {
    const data = bytes(10_000);
    const seen: Array<{ url: string; ranged: boolean; first: number; size: number }> = [];
    const sender = new PartSender(
      { url: 'whole', partSize: 4096, partUrls: ['p1', 'p2', 'p3'] },
      data.length,
      1024, // the blob route's cap does not cut a part URL's part
      async (p) => {
        seen.push({ url: p.url, ranged: p.ranged, first: p.first, size: p.body.size });
      },
      () => undefined,
      1,
    );
    for (let at = 0; at < data.length; at += 3000) await sender.write(data.subarray(at, at + 3000));
    await sender.finish();
    expect(seen).toEqual([
      { url: 'p1', ranged: false, first: 0, size: 4096 },
      { url: 'p2', ranged: false, first: 4096, size: 4096 },
      { url: 'p3', ranged: false, first: 8192, size: 10_000 - 8192 },
    ]);
    expect(
      () => new PartSender({ url: 'w', partSize: 4096, partUrls: ['p1'] }, 10_000, 4096, async () => {}),
    ).toThrow('part URL list');
  });

  it('part URLs take their parts side by side: the next one does not wait for the body before it', async () => {
    const data = bytes(3 * 4096);
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const started: string[] = [];
    const sender = new PartSender(
      { url: 'whole', partSize: 4096, partUrls: ['p1', 'p2', 'p3'] },
      data.length,
      4096,
      async (p) => {
        started.push(p.url);
        await held; // no body ever "leaves" until released
      },
      () => undefined,
      1,
    );
    await sender.write(data);
    expect(started).toEqual(['p1', 'p2', 'p3']);
    release();
    await sender.finish();
  });

  it('a part URL that fails on the way is sent again to the same URL, and only that part', async () => {
    const data = bytes(9000);
    const s = storage({ failures: [503] });
    const urls: string[] = [];
    const sender = new PartSender(
      { url: 'whole', partSize: 4096, partUrls: ['p1', 'p2', 'p3'] },
      data.length,
      4096,
      async (p) => {
        urls.push(p.url);
        await s.put(p);
      },
      () => undefined,
      1,
    );
    await sender.write(data);
    await sender.finish();
    // p2 and p3 were on the wire with p1 and are not sent again.
    expect(urls).toEqual(['p1', 'p2', 'p3', 'p1']);
    s.parts.sort((a, b) => a.first - b.first);
    expect(s.joined()).toEqual(data);
  });

  it('a single part when the object fits', async () => {
    const s = storage();
    const sender = new PartSender(route(), 16, 8 * 1024 * 1024, s.put);
    await sender.write(bytes(16));
    await sender.finish();
    expect(s.parts.map((p) => [p.first, p.last, p.total])).toEqual([[0, 15, 16]]);
  });

  it('sends a part again after a network error, a 5xx or a 429, from the same offset', async () => {
    const data = bytes(5000);
    const s = storage({ failures: [0, 503] });
    const sender = new PartSender(route(), data.length, 4096, s.put, () => undefined, 1);
    await sender.write(data);
    await sender.finish();
    expect(s.attempts()).toBe(4);
    expect(s.joined()).toEqual(data);
  });

  it('gives up after two more tries, and at once on a refusal (409, 400, 403)', async () => {
    const tired = storage({ failures: [500, 500, 500] });
    const a = new PartSender(route(), 100, 4096, tired.put, () => undefined, 1);
    await a.write(bytes(100));
    await expect(a.finish()).rejects.toMatchObject({ code: 'UPLOAD_HTTP', status: 500 });
    expect(tired.attempts()).toBe(3);

    const refused = storage({ failures: [409] });
    const b = new PartSender(route(), 100, 4096, refused.put, () => undefined, 1);
    await b.write(bytes(100));
    await expect(b.finish()).rejects.toThrow('Upload failed with status 409');
    expect(refused.attempts()).toBe(1);
  });

  it('a failed part stops the next write', async () => {
    const s = storage({ failures: [403] });
    const sender = new PartSender(route(), 8192, 4096, s.put, () => undefined, 1, 1);
    await sender.write(bytes(4096));
    await expect(sender.write(bytes(4096))).rejects.toMatchObject({ status: 403 });
  });

  it('refuses more bytes than announced, and fewer at the end', async () => {
    const s = storage();
    const long = new PartSender(route(), 10, 4096, s.put);
    await expect(long.write(bytes(11))).rejects.toThrow('larger than announced');
    const short = new PartSender(route(), 10, 4096, s.put);
    await short.write(bytes(9));
    await expect(short.finish()).rejects.toThrow('9 bytes instead of 10');
  });
});

/**
 * The files service's rules for parts: one at a time per upload, in arrival order; a part must
 * start where the stored bytes end (409 otherwise), a part at 0 starts over; a failed part stores
 * nothing. `failOnce` fails the first try of the parts starting at those offsets.
 */
function orderedStorage(failOnce: Map<number, number>) {
  let stored = new Uint8Array(0);
  let queue: Promise<unknown> = Promise.resolve();
  let active = 0;
  let maxActive = 0;
  const tries: number[] = [];
  const put = (p: PartRequest) => {
    p.onBodySent?.();
    active++;
    maxActive = Math.max(maxActive, active);
    const run = queue.then(async () => {
      const body = await bytesOf(p.body);
      await new Promise((r) => setTimeout(r, 2));
      tries.push(p.first);
      const status = failOnce.get(p.first);
      if (status !== undefined) {
        failOnce.delete(p.first);
        throw new UploadHttpError(status);
      }
      const held = p.first === 0 ? new Uint8Array(0) : stored;
      if (held.length !== p.first) throw new UploadHttpError(409);
      const next = new Uint8Array(held.length + body.length);
      next.set(held);
      next.set(body, held.length);
      stored = next;
    });
    queue = run.catch(() => undefined);
    return run.finally(() => active--);
  };
  return { put, stored: () => stored, tries, maxActive: () => maxActive };
}

describe('PartSender with parts in flight', () => {
  it('keeps up to three parts on the wire; the storage still gets them in order', async () => {
    const data = bytes(20_000, 3);
    const s = orderedStorage(new Map());
    const sender = new PartSender(route(), data.length, 2000, s.put, () => undefined, 1, 3);
    for (let at = 0; at < data.length; at += 700) await sender.write(data.subarray(at, at + 700));
    await sender.finish();
    expect(s.stored()).toEqual(data);
    expect(s.maxActive()).toBe(3);
  });

  it('a part lost on the way is sent again with the parts refused after it, in order', async () => {
    const data = bytes(10_000, 9);
    const s = orderedStorage(new Map([[2000, 0]]));
    const sent: number[] = [];
    const sender = new PartSender(route(), data.length, 2000, s.put, (n) => sent.push(n), 1, 3);
    await sender.write(data);
    await sender.finish();
    expect(s.stored()).toEqual(data);
    // 2000 failed, 4000 and 6000 were refused behind it (409); then 2000, 4000, 6000 and 8000.
    expect(s.tries).toEqual([0, 2000, 4000, 6000, 2000, 4000, 6000, 8000]);
    expect(sent).toEqual([2000, 4000, 6000, 8000, 10_000]);
  });

  it('a refusal that is not about the network ends the upload', async () => {
    const s = orderedStorage(new Map([[2000, 403]]));
    const sender = new PartSender(route(), 10_000, 2000, s.put, () => undefined, 1, 3);
    const upload = async () => {
      await sender.write(bytes(10_000));
      await sender.finish();
    };
    await expect(upload()).rejects.toMatchObject({ code: 'UPLOAD_HTTP', status: 403 });
    expect(s.tries).not.toContain(8000);
  });
});

describe('PartSender and parts that overtake each other', () => {
  it('starts a part only once the body of the one before has left', async () => {
    const events: string[] = [];
    const sender = new PartSender(
      route(),
      6000,
      2000,
      async (p) => {
        events.push(`start ${p.first}`);
        await new Promise((r) => setTimeout(r, 5));
        events.push(`left ${p.first}`);
        p.onBodySent?.();
        await new Promise((r) => setTimeout(r, 20));
        events.push(`stored ${p.first}`);
      },
      () => undefined,
      1,
      3,
    );
    await sender.write(bytes(6000));
    await sender.finish();
    expect(events.slice(0, 4)).toEqual(['start 0', 'left 0', 'start 2000', 'left 2000']);
    // Part 2000 started before part 0 was stored: the wire stayed busy.
    expect(events.indexOf('start 2000')).toBeLessThan(events.indexOf('stored 0'));
  });

  it('a part refused as out of order (it arrived first) is sent again after the earlier one', async () => {
    const data = bytes(6000, 13);
    let stored = new Uint8Array(0);
    const tries: number[] = [];
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((r) => (releaseFirst = r));
    const sender = new PartSender(
      route(),
      data.length,
      2000,
      async (p) => {
        const body = await bytesOf(p.body);
        p.onBodySent?.();
        // The first try of part 0 reaches the storage only after part 2000 did.
        if (p.first === 0 && !tries.includes(0)) await firstHeld;
        tries.push(p.first);
        if (p.first === 2000 && !tries.includes(0)) releaseFirst();
        if (stored.length !== p.first) throw new UploadHttpError(409);
        const next = new Uint8Array(stored.length + body.length);
        next.set(stored);
        next.set(body, stored.length);
        stored = next;
      },
      () => undefined,
      1,
      3,
    );
    await sender.write(data);
    await sender.finish();
    expect(stored).toEqual(data);
    expect(tries.slice(0, 2)).toEqual([2000, 0]);
  });

  it('a 409 of a part sent alone is final', async () => {
    const sender = new PartSender(
      route(),
      100,
      4096,
      async () => {
        throw new UploadHttpError(409);
      },
      () => undefined,
      1,
      3,
    );
    await sender.write(bytes(100));
    await expect(sender.finish()).rejects.toMatchObject({ status: 409 });
  });
});
