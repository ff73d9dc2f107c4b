import { Inject, Injectable } from '@nestjs/common';
import { ErrorCode, VaultError, type ScanFileJob, type ScanFileResult } from '@vault/contracts';
import { SCAN_WORKER_CONFIG } from '../config/scan-worker.config';
import type { ScanWorkerConfig } from '../config/scan-worker.config';
import {
  ClamdUnavailableError,
  ObjectStreamError,
  pingClamd,
  scanStream,
  type ClamdEndpoint,
  type ClamdVerdict,
} from './clamd-client';
import { checkDeclaredFraming, checkStoredSize, OBJECT_MISSING } from './framing';
import { HashSignatureDatabase } from './hash-signatures';
import type { ObjectReaders } from './object-reader';

export const OBJECT_READERS = Symbol('OBJECT_READERS');

/** What one scan came to: a verdict for the files service, or a dependency that did not answer. */
export type ScanOutcome =
  | { kind: 'verdict'; result: ScanFileResult['result']; detail: string }
  | { kind: 'unavailable'; dependency: 'scanner' | 'storage'; reason: string };

/**
 * The badge's words (docs/architecture.md "Virus scanning of end-to-end encrypted files": it names
 * what was checked, never more).
 */
export const CLEAN_DETAIL =
  'Stored ciphertext matches the declared size and chunk framing; ClamAV found no known malware in the ' +
  "stored bytes. The file's contents are end-to-end encrypted and cannot be scanned by the server.";
export const SCANNER_UNAVAILABLE = 'Virus scanner unavailable';
export const STORAGE_UNAVAILABLE = 'File storage unavailable';

const DETAIL_MAX = 500;
const clip = (text: string, max = DETAIL_MAX) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Appended to the clean detail when the job carried the opt-in plaintext fingerprint. */
export const FINGERPRINT_CLEAN =
  ' The SHA-256 fingerprint of the plaintext, sent by your device, matches no known-malware hash signature.';
export const FINGERPRINT_UNCHECKED =
  ' The plaintext fingerprint sent by your device was not checked: the server has no hash signatures.';
export const FINGERPRINT_UNREADABLE =
  ' The plaintext fingerprint sent by your device was not checked: the hash signatures could not be read.';

export function fingerprintInfectedDetail(signature: string): string {
  return clip(
    `The SHA-256 fingerprint of the file's plaintext, sent by your device, matches the known-malware ` +
      `signature ${clip(signature, 200)}.`,
  );
}

export function infectedDetail(signature: string): string {
  return clip(`ClamAV found ${clip(signature, 200)} in the stored bytes.`);
}

/** The last try found the scanner (or the storage) still unavailable. */
export function unavailableDetail(
  outcome: Extract<ScanOutcome, { kind: 'unavailable' }>,
  tries: number,
): string {
  const what = outcome.dependency === 'scanner' ? SCANNER_UNAVAILABLE : STORAGE_UNAVAILABLE;
  const times = tries === 1 ? '1 try' : `${tries} tries`;
  return clip(`${what} after ${times} (${clip(outcome.reason, 200)}); the stored bytes were not scanned.`);
}

const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A read error that no retry can fix: the key is refused, or the object is gone. */
function missingOrRefused(error: unknown): string | null {
  if (error instanceof VaultError) {
    if (error.code === ErrorCode.NOT_FOUND) return OBJECT_MISSING;
    if (error.code === ErrorCode.VALIDATION_FAILED) return `Refused by the storage: ${error.message}`;
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return OBJECT_MISSING;
  if (error instanceof Error && error.message === 'Invalid storage object key')
    return 'Invalid storage object key';
  return null;
}

/**
 * One file's scan (docs/architecture.md "Virus scanning of end-to-end encrypted files"):
 * (1) the declared sizes agree with the chunk framing and the stored object has exactly the
 * declared size; (2) clamd scans the stored bytes, streamed. Pure decision: it neither retries
 * nor publishes (the scan-file job does), and running it twice gives the same outcome.
 */
@Injectable()
export class FileScanner {
  private readonly clamd: ClamdEndpoint;
  /** clamd's hash signatures, for the opt-in plaintext fingerprints (null: not configured). */
  private readonly signatures: HashSignatureDatabase | null;

  constructor(
    @Inject(OBJECT_READERS) private readonly readers: ObjectReaders,
    @Inject(SCAN_WORKER_CONFIG) config: ScanWorkerConfig,
  ) {
    this.clamd = config.clamd;
    this.signatures = config.clamd.databaseDir ? new HashSignatureDatabase(config.clamd.databaseDir) : null;
  }

  async scan(job: ScanFileJob): Promise<ScanOutcome> {
    const declared = checkDeclaredFraming(job);
    if (declared) return this.error(declared);

    const reader = this.readers[job.storageType];
    if (!reader) return this.error(`Storage type ${job.storageType} is not configured on the scan worker`);

    let stored: { size: number } | null;
    try {
      stored = await reader.stat(job.objectKey);
    } catch (error) {
      const permanent = missingOrRefused(error);
      if (permanent) return this.error(permanent);
      return { kind: 'unavailable', dependency: 'storage', reason: reasonOf(error) };
    }
    if (!stored) return this.error(OBJECT_MISSING);
    const sizeProblem = checkStoredSize(stored.size, job.encryptedSize);
    if (sizeProblem) return this.error(sizeProblem);

    let verdict: ClamdVerdict;
    try {
      const bytes = await reader.get(job.objectKey);
      verdict = await scanStream(this.clamd, bytes);
    } catch (error) {
      if (error instanceof ClamdUnavailableError) {
        return { kind: 'unavailable', dependency: 'scanner', reason: error.message };
      }
      const permanent = missingOrRefused(error);
      if (permanent) return this.error(permanent);
      const reason = error instanceof ObjectStreamError ? error.message : reasonOf(error);
      return { kind: 'unavailable', dependency: 'storage', reason };
    }

    switch (verdict.status) {
      case 'clean':
        return this.checkFingerprint(job);
      case 'infected':
        return { kind: 'verdict', result: 'infected', detail: infectedDetail(verdict.signature) };
      case 'error':
        return this.error(`ClamAV could not scan the stored bytes: ${verdict.message}`);
    }
  }

  /**
   * The stored bytes are clean; a plaintext fingerprint sent by an opted-in client is looked up
   * in the hash signatures (a match is `infected`), and the detail says whether it was checked.
   */
  private async checkFingerprint(job: ScanFileJob): Promise<ScanOutcome> {
    const clean = (extra = ''): ScanOutcome => ({
      kind: 'verdict',
      result: 'clean',
      detail: CLEAN_DETAIL + extra,
    });
    if (!job.plaintextSha256) return clean();
    if (!this.signatures) return clean(FINGERPRINT_UNCHECKED);
    let match: string | null;
    try {
      match = await this.signatures.lookup(job.plaintextSha256, job.size);
    } catch {
      return clean(FINGERPRINT_UNREADABLE);
    }
    if (!match) return clean(FINGERPRINT_CLEAN);
    return { kind: 'verdict', result: 'infected', detail: fingerprintInfectedDetail(match) };
  }

  /** For the readiness probe. */
  ping(): Promise<void> {
    return pingClamd(this.clamd);
  }

  private error(detail: string): ScanOutcome {
    return { kind: 'verdict', result: 'error', detail: clip(detail) };
  }
}
