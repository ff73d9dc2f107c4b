/** Test helpers for Web Streams (no Node built-ins: these run anywhere). */
import { concatBytes } from '../../src/encoding';

/** A readable stream that yields the given pieces in order. */
export function streamOf(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = pieces[i++];
      if (next === undefined) controller.close();
      else controller.enqueue(next);
    },
  });
}

/** Cuts `data` into pieces whose sizes cycle through `sizes` (each >= 1). */
export function cut(data: Uint8Array, sizes: readonly number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let off = 0;
  let k = 0;
  while (off < data.length) {
    const n = Math.max(1, sizes.length === 0 ? data.length : (sizes[k++ % sizes.length] ?? 1));
    out.push(data.slice(off, off + n));
    off += n;
  }
  return out;
}

/** Reads a stream to its end. Resolves with the pieces, or rejects with the stream's error (after the pieces seen). */
export async function readAll(
  readable: ReadableStream<Uint8Array>,
): Promise<{ pieces: Uint8Array[]; error?: unknown; closed: boolean }> {
  const reader = readable.getReader();
  const pieces: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { pieces, closed: true };
      pieces.push(value);
    }
  } catch (error) {
    return { pieces, error, closed: false };
  }
}

/** Pipes pieces through a transform and collects the output (throws the stream's error). */
export async function pipeAll(
  pieces: readonly Uint8Array[],
  transform: TransformStream<Uint8Array, Uint8Array>,
): Promise<Uint8Array> {
  const res = await readAll(streamOf(pieces).pipeThrough(transform));
  if (!res.closed) throw res.error;
  return concatBytes(res.pieces);
}

/** Small deterministic PRNG (mulberry32) for test data. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pseudoRandomBytes(length: number, seed: number): Uint8Array {
  const next = prng(seed);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 4) {
    const v = (next() * 4294967296) >>> 0;
    out[i] = v & 0xff;
    if (i + 1 < length) out[i + 1] = (v >>> 8) & 0xff;
    if (i + 2 < length) out[i + 2] = (v >>> 16) & 0xff;
    if (i + 3 < length) out[i + 3] = (v >>> 24) & 0xff;
  }
  return out;
}

/** Fast byte equality (Jest's toEqual walks typed arrays element by element, which is slow for big buffers). */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
