/**
 * The crypto Worker's speed on this device (the dashboard's Performance suite): the password KDF
 * with the account's parameters, AES-256-GCM through the files' chunked stream, and note
 * decryption. Every input is made here under throwaway keys; no user key or data is involved.
 */
import {
  DEFAULT_KDF_PARAMS,
  KDF_LIMITS,
  decryptFileBytes,
  decryptNote,
  derivePasswordKey,
  encryptFileBytes,
  encryptNote,
  importVaultKey,
  newItemId,
  randomBytes,
  validateKdfParams,
  type EncryptedNote,
  type KdfParams,
} from '@vault/crypto';
import { median } from '../lib/stats';
import type {
  KdfBenchmark,
  KdfParamsInput,
  NotesBenchmark,
  ThroughputBenchmark,
} from './crypto-self-test-service';

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

const clamp = (value: number, limits: { min: number; max: number }) =>
  Math.min(limits.max, Math.max(limits.min, value));

/**
 * Parameters that take about `targetMs` here, given that `params` took `measuredMs`: the time of
 * Argon2id grows with iterations and memory, PBKDF2's with iterations. Argon2id changes its
 * iterations first and its memory only when the iterations hit the protocol limits.
 */
export function suggestKdfParams(params: KdfParams, measuredMs: number, targetMs: number): KdfParams {
  const scale = targetMs / Math.max(measuredMs, 1);
  if (params.kdf === 'pbkdf2-sha256') {
    const iterations = Math.round((params.iterations * scale) / 10_000) * 10_000;
    return { kdf: params.kdf, iterations: clamp(iterations, KDF_LIMITS['pbkdf2-sha256'].iterations) };
  }
  const limits = KDF_LIMITS.argon2id;
  const wanted = params.iterations * scale;
  const iterations = clamp(Math.round(wanted), limits.iterations);
  // What the iterations could not absorb goes to memory (in whole MiB).
  const memoryScale = wanted / iterations;
  const memoryKiB =
    Math.abs(memoryScale - 1) < 0.25
      ? params.memoryKiB
      : clamp(Math.round((params.memoryKiB * memoryScale) / 1024) * 1024, limits.memoryKiB);
  return { kdf: 'argon2id', memoryKiB, iterations, parallelism: params.parallelism };
}

export async function benchmarkKdf(
  params: KdfParamsInput | null,
  rounds: number,
  targetMs: number,
  signal?: AbortSignal,
): Promise<KdfBenchmark> {
  // The same refusal as a sign-in: parameters below the floors or above the ceilings are not run.
  const checked = validateKdfParams(params ?? DEFAULT_KDF_PARAMS);
  const salt = randomBytes(16);
  const samplesMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    signal?.throwIfAborted();
    samplesMs.push(
      await timed(async () => (await derivePasswordKey('vault-self-test', salt, checked)).fill(0)),
    );
  }
  const suggested = suggestKdfParams(checked, median(samplesMs), targetMs);
  return { params: { ...checked }, samplesMs, suggested: { ...suggested } };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export async function benchmarkAesGcm(
  bytes: number,
  rounds: number,
  signal?: AbortSignal,
): Promise<ThroughputBenchmark> {
  const plaintext = randomBytes(bytes);
  const params = { fileKey: randomBytes(32), fileId: newItemId(), iv: randomBytes(12) };
  const encryptMs: number[] = [];
  const decryptMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    signal?.throwIfAborted();
    let ciphertext: Uint8Array = new Uint8Array(0);
    encryptMs.push(await timed(async () => (ciphertext = await encryptFileBytes(params, plaintext))));
    signal?.throwIfAborted();
    let opened: Uint8Array = new Uint8Array(0);
    decryptMs.push(
      await timed(async () => (opened = await decryptFileBytes({ ...params, size: bytes }, ciphertext))),
    );
    // A fast wrong answer is no result.
    if (!sameBytes(opened, plaintext)) throw new Error('AES-GCM round trip returned other bytes');
  }
  params.fileKey.fill(0);
  return { bytes, encryptMs, decryptMs };
}

/** A note of typical size: a title, about 2 KB of text and two tags. */
function testNote(index: number) {
  const line = `Self-test note ${index}: measured on this device, sealed under a throwaway key.\n`;
  return { title: `Self-test note ${index}`, content: line.repeat(24), tags: ['self-test', `n${index}`] };
}

export async function benchmarkNoteDecrypt(
  notes: number,
  rounds: number,
  signal?: AbortSignal,
): Promise<NotesBenchmark> {
  const raw = randomBytes(32);
  const vaultKey = await importVaultKey(raw);
  raw.fill(0);
  const sealed: EncryptedNote[] = [];
  for (let i = 0; i < notes; i++) sealed.push(await encryptNote(vaultKey, newItemId(), testNote(i)));
  const samplesMs: number[] = [];
  for (let round = 0; round < rounds; round++) {
    signal?.throwIfAborted();
    let last = '';
    samplesMs.push(
      await timed(async () => {
        for (const note of sealed) last = (await decryptNote(vaultKey, note)).title;
      }),
    );
    if (last !== testNote(notes - 1).title) throw new Error('a test note decrypted to another title');
  }
  return { notes, samplesMs };
}
