import { meResponseSchema } from '@vault/contracts';
import { median, percentile } from '../../../lib/stats';
import type { KdfParamsInput } from '../../../workers/crypto-self-test-service';
import type { TestingContext } from '../model/context';
import type { CheckDefinition, CheckOutcome, SuiteDefinition } from '../model/suite';
import { describeFailure, failed, isAbort, throwIfAborted } from './check-helpers';
import { selfTestWorker } from './crypto';

type PerfCheck = CheckDefinition<TestingContext>;

/** What "fast enough" means here; outside it a check warns (a slow device is no failure). */
export const PERFORMANCE_TARGETS = {
  /** One password derivation: slower annoys at every unlock, faster weakens a stolen database's guard. */
  kdfMs: { min: 500, max: 1500, aim: 1000 },
  /** AES-256-GCM through the files' stream: under this, a 100 MB file takes over 10 s. */
  aesMbPerS: 10,
  /** Under this, opening a list of 1,000 notes takes over 20 s. */
  notesPerS: 50,
  apiP50Ms: 300,
  apiP95Ms: 1000,
} as const;

/** Rounds and sizes: the full run's, and Quick Test's (its five suites together under 10 s). */
export const PERFORMANCE_PLAN = {
  full: { kdfRounds: 5, aesBytes: 8 * 1024 * 1024, aesRounds: 5, notes: 200, notesRounds: 5, apiCalls: 20 },
  quick: { kdfRounds: 1, aesBytes: 1024 * 1024, aesRounds: 3, notes: 50, notesRounds: 3, apiCalls: 5 },
} as const;

const plan = (ctx: TestingContext) => (ctx.quick ? PERFORMANCE_PLAN.quick : PERFORMANCE_PLAN.full);
const ms = (value: number) => `${Math.round(value)} ms`;
const rounded = (value: number, digits = 1) => Number(value.toFixed(digits));

function outcome(ok: boolean, detail: string, metrics: Record<string, number>): CheckOutcome {
  return { status: ok ? 'passed' : 'warning', detail, metrics };
}

export function describeKdf(params: KdfParamsInput): string {
  if (params['kdf'] === 'argon2id') {
    const memory = Number(params['memoryKiB']) / 1024;
    return `Argon2id ${memory} MiB, t=${String(params['iterations'])}, p=${String(params['parallelism'])}`;
  }
  return `PBKDF2-SHA256, ${Number(params['iterations']).toLocaleString('en')} iterations`;
}

/** The account's KDF parameters (GET /auth/me), or null (the protocol default) when unreadable. */
async function accountKdfParams(ctx: TestingContext): Promise<KdfParamsInput | null> {
  try {
    const me = meResponseSchema.safeParse(await ctx.api.get<unknown>('/auth/me', { signal: ctx.signal }));
    if (me.success) return me.data.vault.kdfParams as KdfParamsInput;
    ctx.log('GET /auth/me did not match its schema: measuring the protocol default instead');
  } catch (error) {
    if (isAbort(error)) throw error;
    ctx.log(`${describeFailure('GET /auth/me', error)}: measuring the protocol default instead`);
  }
  return null;
}

const kdf: PerfCheck = {
  id: 'perf-kdf',
  name: 'Password KDF time on this device',
  why: 'The KDF runs at every sign-in and unlock: too slow and the vault is painful to open, too fast and a stolen password hash is cheap to guess.',
  fix: 'A warning is no fault: the time depends on this device. The parameters belong to the account (set at sign-up, kept by a password change) and cannot be changed here; if sign-in is too slow on the devices you use, or far under the target on all of them, report it with the suggested parameters.',
  docs: 'perf-kdf',
  quick: true,
  async run(ctx) {
    const params = await accountKdfParams(ctx);
    throwIfAborted(ctx.signal);
    const { kdfMs } = PERFORMANCE_TARGETS;
    const rounds = plan(ctx).kdfRounds;
    const result = await selfTestWorker(ctx).benchmarkKdf(params, rounds, kdfMs.aim, ctx.signal);
    result.samplesMs.forEach((t, i) => ctx.log(`round ${i + 1}: ${ms(t)}`));
    const mid = median(result.samplesMs);
    const inTarget = mid >= kdfMs.min && mid <= kdfMs.max;
    const source = params ? "the account's parameters" : 'the protocol default';
    const suggestion = inTarget ? '' : `; suggested for this device: ${describeKdf(result.suggested)}`;
    const detail = `${describeKdf(result.params)} (${source}): ${ms(mid)}, median of ${rounds}; target ${kdfMs.min}-${kdfMs.max} ms${suggestion}`;
    const metrics: Record<string, number> = { medianMs: rounded(mid), rounds };
    if (typeof result.suggested['iterations'] === 'number')
      metrics['suggestedIterations'] = result.suggested['iterations'];
    if (typeof result.suggested['memoryKiB'] === 'number')
      metrics['suggestedMemoryKiB'] = result.suggested['memoryKiB'];
    return outcome(inTarget, detail, metrics);
  },
};

const aesGcm: PerfCheck = {
  id: 'perf-aes-gcm',
  name: 'AES-256-GCM throughput in the Worker',
  why: 'Every file is sealed and opened in 64 KiB chunks on this device; this speed bounds uploads, downloads and previews.',
  fix: 'Close other heavy tabs, and use a browser with hardware AES (any current desktop or phone browser); a very slow result on a capable device is worth reporting.',
  docs: 'perf-aes-gcm',
  quick: true,
  async run(ctx) {
    throwIfAborted(ctx.signal);
    const { aesBytes, aesRounds } = plan(ctx);
    const result = await selfTestWorker(ctx).benchmarkAesGcm(aesBytes, aesRounds, ctx.signal);
    const mbPerS = (samples: number[]) => result.bytes / 1e6 / (median(samples) / 1000);
    const encrypt = mbPerS(result.encryptMs);
    const decrypt = mbPerS(result.decryptMs);
    const mib = result.bytes / (1024 * 1024);
    const detail = `seal ${rounded(encrypt)} MB/s, open ${rounded(decrypt)} MB/s (median of ${aesRounds} over ${mib} MiB; target at least ${PERFORMANCE_TARGETS.aesMbPerS} MB/s)`;
    return outcome(Math.min(encrypt, decrypt) >= PERFORMANCE_TARGETS.aesMbPerS, detail, {
      encryptMBps: rounded(encrypt),
      decryptMBps: rounded(decrypt),
      bytes: result.bytes,
      rounds: aesRounds,
    });
  },
};

const notes: PerfCheck = {
  id: 'perf-notes',
  name: 'Notes decrypted per second',
  why: 'The notes list opens every note on this device; this rate decides how long a large vault takes to show.',
  fix: 'Close other heavy tabs or try another browser; a slow rate on a capable device is worth reporting with the downloaded report.',
  docs: 'perf-notes',
  quick: true,
  async run(ctx) {
    throwIfAborted(ctx.signal);
    const { notes: count, notesRounds } = plan(ctx);
    const result = await selfTestWorker(ctx).benchmarkNoteDecrypt(count, notesRounds, ctx.signal);
    const perS = result.notes / (median(result.samplesMs) / 1000);
    const detail = `${Math.round(perS)} notes/s (median of ${notesRounds} over ${result.notes} test notes under a throwaway key; target at least ${PERFORMANCE_TARGETS.notesPerS})`;
    return outcome(perS >= PERFORMANCE_TARGETS.notesPerS, detail, {
      notesPerSecond: Math.round(perS),
      notes: result.notes,
      rounds: notesRounds,
    });
  },
};

const apiLatency: PerfCheck = {
  id: 'perf-api-latency',
  name: 'API latency (GET /api/auth/me)',
  why: 'Every page waits for the API; a slow median is felt on each click, a slow p95 as pages that sometimes hang.',
  fix: 'Check the network between this device and the server, then the server’s load and its database (docs/operations.md).',
  docs: 'perf-api-latency',
  quick: true,
  async run(ctx) {
    const calls = plan(ctx).apiCalls;
    const samples: number[] = [];
    for (let i = 0; i < calls; i++) {
      throwIfAborted(ctx.signal);
      const started = performance.now();
      try {
        await ctx.api.get<unknown>('/auth/me', { signal: ctx.signal });
      } catch (error) {
        if (isAbort(error)) throw error;
        return failed(`${describeFailure(`GET /auth/me (call ${i + 1} of ${calls})`, error)}`);
      }
      samples.push(performance.now() - started);
    }
    const p50 = percentile(samples, 50);
    const p95 = percentile(samples, 95);
    const { apiP50Ms, apiP95Ms } = PERFORMANCE_TARGETS;
    const detail = `p50 ${ms(p50)}, p95 ${ms(p95)} over ${calls} calls (target p50 under ${apiP50Ms} ms, p95 under ${apiP95Ms} ms)`;
    return outcome(p50 <= apiP50Ms && p95 <= apiP95Ms, detail, {
      p50Ms: rounded(p50),
      p95Ms: rounded(p95),
      calls,
    });
  },
};

export const performanceSuite: SuiteDefinition<TestingContext> = {
  id: 'performance',
  name: 'Performance',
  description:
    'How fast this device and this server are: the password KDF, AES-GCM and note decryption in the crypto Worker, and API latency.',
  category: 'performance',
  covers: [
    'Password KDF with the account’s parameters, against a 500-1500 ms target, with suggested parameters',
    'AES-256-GCM MB/s through the files’ chunked stream (median of 5 over 8 MiB)',
    'Notes decrypted per second (test notes under a throwaway key)',
    'API latency p50/p95 over 20 calls of GET /api/auth/me',
  ],
  checks: [kdf, aesGcm, notes, apiLatency],
};
