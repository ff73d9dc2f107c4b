// @vitest-environment node
import { KDF_LIMITS } from '@vault/crypto';
import { vectors } from '@vault/crypto/vectors';
import { afterEach, describe, expect, it } from 'vitest';
import { channelClient } from '../testing/channel-worker';
import { suggestKdfParams } from './crypto-benchmark';
import { cryptoSelfTestOps, runSelfTest } from './crypto-self-test';
import type { SelfTestId } from './crypto-self-test-service';

const ALL: SelfTestId[] = [
  'vectors',
  'aes-gcm',
  'hkdf',
  'pbkdf2',
  'argon2id',
  'flipped-tag',
  'wrong-aad',
  'truncated-stream',
  'reordered-chunk',
];
/** The protocol's floor: the cheapest Argon2id a client accepts (keeps the benchmark fast here). */
const FLOOR = { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };

const original = structuredClone(vectors.fileContent);
afterEach(() => {
  vectors.fileContent.splice(0, vectors.fileContent.length, ...structuredClone(original));
});

describe('the crypto Worker self-test (real @vault/crypto, through worker-rpc)', () => {
  it.each(ALL)('%s passes every quick case', async (id) => {
    const worker = channelClient(cryptoSelfTestOps);
    const report = await worker.call('runSelfTest', id, { quick: true });
    expect(report.id).toBe(id);
    expect(report.cases.length).toBeGreaterThan(0);
    expect(report.cases.filter((c) => !c.passed)).toEqual([]);
  });

  it('the full run adds the cases Quick Test leaves out (64 MiB Argon2id, c = 80000, ...)', async () => {
    for (const id of ['argon2id', 'pbkdf2', 'aes-gcm', 'flipped-tag'] as const) {
      const quick = await runSelfTest(id, { quick: true });
      const full = await runSelfTest(id, { quick: false });
      expect(quick.skipped).toBeGreaterThan(0);
      expect(full.skipped).toBe(0);
      expect(full.cases.length).toBe(quick.cases.length + quick.skipped);
      expect(full.cases.every((c) => c.passed)).toBe(true);
    }
  }, 60_000);

  it('a planted wrong vector fails the vectors self-test, naming the case and the difference', async () => {
    const planted = vectors.fileContent[1];
    if (!planted) throw new Error('no fileContent[1] vector');
    planted.ciphertextSha256 = '00'.repeat(32);
    const report = await runSelfTest('vectors', { quick: true });
    const broken = report.cases.filter((c) => !c.passed);
    expect(broken).toHaveLength(1);
    expect(broken[0]?.name).toBe(
      `fileContent[size ${planted.originalSize}] encrypt stream reproduces the ciphertext`,
    );
    expect(broken[0]?.message).toContain('ciphertextSha256');
  });

  it('stops between cases when the signal aborts, and the page call rejects at once', async () => {
    const local = new AbortController();
    const running = runSelfTest('vectors', { quick: false }, local.signal);
    local.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });

    const remote = new AbortController();
    const call = channelClient(cryptoSelfTestOps).call(
      'runSelfTest',
      'vectors',
      { quick: false },
      remote.signal,
    );
    remote.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('the crypto Worker benchmarks', () => {
  it('times the KDF with the given parameters and suggests parameters within the protocol limits', async () => {
    const result = await cryptoSelfTestOps.benchmarkKdf(FLOOR, 2, 1000);
    expect(result.params).toEqual(FLOOR);
    expect(result.samplesMs).toHaveLength(2);
    expect(result.samplesMs.every((t) => t > 0)).toBe(true);
    const s = result.suggested as typeof FLOOR;
    expect(s.iterations).toBeGreaterThanOrEqual(KDF_LIMITS.argon2id.iterations.min);
    expect(s.memoryKiB).toBeGreaterThanOrEqual(KDF_LIMITS.argon2id.memoryKiB.min);
  });

  it('refuses KDF parameters below the floor before deriving anything', async () => {
    await expect(
      cryptoSelfTestOps.benchmarkKdf({ kdf: 'pbkdf2-sha256', iterations: 1000 }, 1, 1000),
    ).rejects.toMatchObject({ code: 'KDF_PARAMS_REJECTED' });
  });

  it('suggests more iterations when fast, less memory when even the fewest iterations are slow', () => {
    const base = { kdf: 'argon2id' as const, memoryKiB: 65536, iterations: 3, parallelism: 4 };
    expect(suggestKdfParams(base, 300, 1000)).toEqual({ ...base, iterations: 10 });
    expect(suggestKdfParams(base, 1000, 1000)).toEqual(base);
    expect(suggestKdfParams(base, 6000, 1000)).toEqual({ ...base, iterations: 2, memoryKiB: 19456 });
    expect(suggestKdfParams(base, 3000, 1000)).toEqual({ ...base, iterations: 2, memoryKiB: 32768 });
    expect(suggestKdfParams({ kdf: 'pbkdf2-sha256', iterations: 600000 }, 250, 1000)).toEqual({
      kdf: 'pbkdf2-sha256',
      iterations: 2400000,
    });
  });

  it('measures AES-GCM round trips and note decryption', async () => {
    const aes = await cryptoSelfTestOps.benchmarkAesGcm(256 * 1024, 2);
    expect(aes).toMatchObject({ bytes: 256 * 1024 });
    expect(aes.encryptMs).toHaveLength(2);
    expect(aes.decryptMs).toHaveLength(2);
    const notes = await cryptoSelfTestOps.benchmarkNoteDecrypt(10, 2);
    expect(notes.notes).toBe(10);
    expect(notes.samplesMs.every((t) => t > 0)).toBe(true);
  });
});
