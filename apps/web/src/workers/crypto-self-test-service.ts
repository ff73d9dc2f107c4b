/**
 * What the testing dashboard asks of the crypto Worker (issue 15): its own self-test and its speed,
 * measured in the same Worker (and the same @vault/crypto) that the vault uses. Types only here, so
 * the page's bundle carries no crypto code; the operations are crypto-self-test.ts and
 * crypto-benchmark.ts.
 */
import { hasMethods } from './crypto-service';

/** One self-test, run by name: the protocol vectors, a standard's known answers, or a refusal. */
export type SelfTestId =
  | 'vectors'
  | 'aes-gcm'
  | 'hkdf'
  | 'pbkdf2'
  | 'argon2id'
  | 'flipped-tag'
  | 'wrong-aad'
  | 'truncated-stream'
  | 'reordered-chunk';

export interface SelfTestOptions {
  /** Quick Test: no 64 MiB Argon2id and no long PBKDF2 (the cheap cases of each test only). */
  quick: boolean;
}

/** One case of a self-test: a vector, a known answer or a refusal. `message` says what differed. */
export interface SelfTestCase {
  name: string;
  passed: boolean;
  message?: string;
  ms: number;
}

export interface SelfTestReport {
  id: SelfTestId;
  cases: SelfTestCase[];
  /** Cases left out by Quick Test. */
  skipped: number;
}

/** The KDF parameters as the server stores them (checked in the Worker before anything is derived). */
export type KdfParamsInput = Record<string, unknown>;

export interface KdfBenchmark {
  /** The parameters measured (the account's, or the protocol default). */
  params: KdfParamsInput;
  /** One derivation's time, each round, in ms. */
  samplesMs: number[];
  /** The parameters that would take about `targetMs` on this device (within the protocol limits). */
  suggested: KdfParamsInput;
}

export interface ThroughputBenchmark {
  bytes: number;
  /** One pass over `bytes`, each round, in ms. */
  encryptMs: number[];
  decryptMs: number[];
}

export interface NotesBenchmark {
  notes: number;
  /** Decrypting all `notes`, each round, in ms. */
  samplesMs: number[];
}

export interface CryptoSelfTestService {
  runSelfTest(id: SelfTestId, options: SelfTestOptions, signal?: AbortSignal): Promise<SelfTestReport>;
  /** `params` null: the protocol default. */
  benchmarkKdf(
    params: KdfParamsInput | null,
    rounds: number,
    targetMs: number,
    signal?: AbortSignal,
  ): Promise<KdfBenchmark>;
  /** Seals and opens `bytes` as a file (the files' chunked stream), `rounds` times. */
  benchmarkAesGcm(bytes: number, rounds: number, signal?: AbortSignal): Promise<ThroughputBenchmark>;
  /** Decrypts `notes` test notes sealed under a throwaway key (never the user's), `rounds` times. */
  benchmarkNoteDecrypt(notes: number, rounds: number, signal?: AbortSignal): Promise<NotesBenchmark>;
}

export function isCryptoSelfTestService(service: unknown): service is CryptoSelfTestService {
  return hasMethods<CryptoSelfTestService>(service, [
    'runSelfTest',
    'benchmarkKdf',
    'benchmarkAesGcm',
    'benchmarkNoteDecrypt',
  ]);
}
