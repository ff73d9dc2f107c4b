// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../lib/api-client';
import { FakeServer, fakeJwt, json } from '../../../testing/fake-server';
import { cryptoSelfTestOps } from '../../../workers/crypto-self-test';
import type { CryptoSelfTestService, KdfParamsInput } from '../../../workers/crypto-self-test-service';
import type { CryptoService } from '../../../workers/crypto-service';
import type { TestingContext } from '../model/context';
import type { CheckContext } from '../model/suite';
import { runSuite } from '../runner/run-suite';
import { FakeVaultServer, fakeTestingContext } from '../testing/fake-vault-server';
import { performanceSuite } from './performance';

const check = (id: string) => {
  const found = performanceSuite.checks.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};

/** The suites' fake context on `server` (the fake vault's gateway unless given), recording the output. */
function context(
  crypto: object,
  options: { quick?: boolean; signal?: AbortSignal; server?: FakeServer | FakeVaultServer } = {},
) {
  const server = options.server ?? new FakeVaultServer();
  const lines: string[] = [];
  const overrides: Partial<TestingContext> = {
    crypto: crypto as CryptoService,
    quick: options.quick ?? true,
    log: (line) => lines.push(line),
    ...(options.signal ? { signal: options.signal } : {}),
  };
  if (server instanceof FakeServer) {
    const hooks = {
      getAccessToken: () => fakeJwt(),
      setAccessToken: () => undefined,
      onAuthFailure: () => undefined,
    };
    overrides.api = new ApiClient({ baseUrl: '/api', fetch: server.fetch as typeof fetch, hooks });
  }
  const ctx = fakeTestingContext(
    server instanceof FakeVaultServer ? server : new FakeVaultServer(),
    overrides,
  );
  return Object.assign(ctx, { lines });
}

/** A crypto Worker whose timings are given (the status rules are what is tested here). */
function timedWorker(times: { kdf?: number[]; encrypt?: number[]; decrypt?: number[]; notes?: number[] }) {
  const kdfCalls: (KdfParamsInput | null)[] = [];
  const worker: CryptoSelfTestService = {
    runSelfTest: () => Promise.reject(new Error('not used')),
    benchmarkKdf: async (params, rounds) => {
      kdfCalls.push(params);
      const measured = params ?? { kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 };
      const suggested = { ...measured, iterations: 2, memoryKiB: 19456 };
      return { params: measured, samplesMs: (times.kdf ?? []).slice(0, rounds), suggested };
    },
    benchmarkAesGcm: async (bytes) => ({
      bytes,
      encryptMs: times.encrypt ?? [],
      decryptMs: times.decrypt ?? [],
    }),
    benchmarkNoteDecrypt: async (notes) => ({ notes, samplesMs: times.notes ?? [] }),
  };
  return { worker, kdfCalls };
}

describe('the Performance suite', () => {
  it("times the KDF with the account's parameters and passes inside the target", async () => {
    const { worker, kdfCalls } = timedWorker({ kdf: [900, 1100, 1000, 950, 1300] });
    const ctx = context(worker, { quick: false });
    const outcome = await check('perf-kdf').run(ctx);
    expect(kdfCalls).toEqual([{ kdf: 'argon2id', memoryKiB: 65536, iterations: 3, parallelism: 4 }]);
    expect(outcome).toMatchObject({
      status: 'passed',
      detail:
        "Argon2id 64 MiB, t=3, p=4 (the account's parameters): 1000 ms, median of 5; target 500-1500 ms",
      metrics: { medianMs: 1000, rounds: 5 },
    });
  });

  it('warns outside the target and says which parameters would fit this device', async () => {
    const { worker } = timedWorker({ kdf: [3000] });
    const outcome = await check('perf-kdf').run(context(worker, { quick: true }));
    expect(outcome.status).toBe('warning');
    expect(outcome.detail).toContain('3000 ms, median of 1');
    expect(outcome.detail).toContain('suggested for this device: Argon2id 19 MiB, t=2, p=4');
    expect(outcome.metrics).toMatchObject({ suggestedIterations: 2, suggestedMemoryKiB: 19456 });
  });

  it('measures the protocol default when /auth/me cannot be read, and says so', async () => {
    const { worker, kdfCalls } = timedWorker({ kdf: [800] });
    const server = new FakeServer().on('GET /api/auth/me', () =>
      json(503, { error: 'Down', code: 'UNAVAILABLE' }),
    );
    const ctx = context(worker, { server });
    const outcome = await check('perf-kdf').run(ctx);
    expect(kdfCalls).toEqual([null]);
    expect(outcome.detail).toContain('(the protocol default)');
    expect(ctx.lines.join('\n')).toContain('GET /auth/me answered 503');
  });

  it('reports AES-GCM MB/s and notes per second from the medians, warning when slow', async () => {
    const { worker } = timedWorker({
      encrypt: [80, 90, 70, 85, 75],
      decrypt: [40, 40, 40, 40, 40],
      notes: [4000, 6000, 5000],
    });
    const ctx = context(worker, { quick: false });
    const aes = await check('perf-aes-gcm').run(ctx);
    expect(aes.status).toBe('passed');
    expect(aes.metrics).toMatchObject({ encryptMBps: 104.9, decryptMBps: 209.7, bytes: 8 * 1024 * 1024 });
    const notes = await check('perf-notes').run(ctx);
    expect(notes).toMatchObject({ status: 'warning', metrics: { notesPerSecond: 40, notes: 200 } });
    const fastNotes = await check('perf-notes').run(context(timedWorker({ notes: [10, 10, 10] }).worker));
    expect(fastNotes).toMatchObject({ status: 'passed', metrics: { notesPerSecond: 5000, notes: 50 } });
  });

  it('takes p50 and p95 over 20 real calls of GET /auth/me', async () => {
    const server = new FakeVaultServer();
    const outcome = await check('perf-api-latency').run(
      context(timedWorker({}).worker, { server, quick: false }),
    );
    expect(server.requests.filter((r) => r.path === '/api/auth/me')).toHaveLength(20);
    expect(outcome.status).toBe('passed');
    expect(outcome.metrics).toMatchObject({ calls: 20 });
    expect(outcome.metrics?.['p95Ms']).toBeGreaterThanOrEqual(outcome.metrics?.['p50Ms'] ?? Infinity);
  });

  it('fails when a call fails, naming it', async () => {
    let n = 0;
    const server = new FakeServer().on('GET /api/auth/me', () =>
      ++n === 3 ? json(503, { error: 'Service unavailable', code: 'UNAVAILABLE' }) : json(200, {}),
    );
    const outcome = await check('perf-api-latency').run(
      context(timedWorker({}).worker, { server, quick: false }),
    );
    expect(outcome).toMatchObject({ status: 'failed' });
    expect(outcome.detail).toContain('GET /auth/me (call 3 of 20) answered 503');
  });

  it('Stop during the latency calls sends no further request', async () => {
    const controller = new AbortController();
    let n = 0;
    const server = new FakeServer().on('GET /api/auth/me', () => {
      if (++n === 3) controller.abort();
      return json(200, {});
    });
    const ctx = context(timedWorker({}).worker, {
      server,
      quick: false,
      signal: controller.signal,
    });
    await expect(check('perf-api-latency').run(ctx)).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.calls('GET /api/auth/me')).toHaveLength(3);
  });

  it('Quick Test runs every check for real in the crypto Worker code, each measured', async () => {
    const result = await runSuite(
      performanceSuite,
      (base: CheckContext) =>
        fakeTestingContext(new FakeVaultServer(), {
          ...base,
          crypto: cryptoSelfTestOps as unknown as CryptoService,
        }),
      { quick: true, signal: new AbortController().signal },
    );
    expect(result.status).toBe('passed');
    for (const c of result.checks) {
      expect(['passed', 'warning']).toContain(c.status);
      expect(Object.keys(c.metrics ?? {}).length).toBeGreaterThan(0);
    }
    expect(result.checks.find((c) => c.id === 'perf-notes')?.metrics?.['notes']).toBe(50);
  }, 30_000);
});
