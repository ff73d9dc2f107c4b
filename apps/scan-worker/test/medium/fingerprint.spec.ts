import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CLEAN_DETAIL,
  FINGERPRINT_CLEAN,
  FINGERPRINT_UNCHECKED,
  FileScanner,
} from '../../src/scanners/file-scanner.service';
import { startTestClamd, type TestClamd } from './support/clamd';
import { startScanWorkerTestApp, type ScanWorkerTestApp } from './support/scan-worker-test-app';

jest.setTimeout(45_000);

/** A "known malware" plaintext whose SHA-256 the signature folder lists (as freshclam's .hsb would). */
const MALWARE = randomBytes(5_000);
const MALWARE_SHA256 = createHash('sha256').update(MALWARE).digest('hex');
const SIGNATURE = 'Vault.Test.Fingerprint';

describe(`${FileScanner.name}: the opt-in plaintext fingerprint (real clamd, real Redis)`, () => {
  let clamd: TestClamd;
  let withDb: ScanWorkerTestApp;
  let withoutDb: ScanWorkerTestApp;
  let dbDir: string;

  beforeAll(async () => {
    dbDir = mkdtempSync(join(tmpdir(), 'vault-sigs-'));
    writeFileSync(join(dbDir, 'vault.hsb'), `${MALWARE_SHA256}:${MALWARE.length}:${SIGNATURE}\n`);
    writeFileSync(join(dbDir, 'other.hdb'), `${'0'.repeat(32)}:*:Vault.Test.Md5\n`);
    clamd = await startTestClamd();
    withDb = await startScanWorkerTestApp('fp', { clamd, env: { CLAMD_DATABASE_DIR: dbDir } });
    withoutDb = await startScanWorkerTestApp('fp-none', { clamd });
  });

  afterAll(async () => {
    await withDb?.close();
    await withoutDb?.close();
    await clamd?.stop();
    rmSync(dbDir, { recursive: true, force: true });
  });

  it('answers infected, naming the signature, when the fingerprint is a known one', async () => {
    const job = { ...(await withDb.storeObject({ size: MALWARE.length })), plaintextSha256: MALWARE_SHA256 };
    await withDb.enqueue(job);
    expect(await withDb.result(job.fileId)).toEqual({
      fileId: job.fileId,
      result: 'infected',
      detail: `The SHA-256 fingerprint of the file's plaintext, sent by your device, matches the known-malware signature ${SIGNATURE}.`,
    });
  });

  it('answers clean and says the fingerprint was checked when it matches nothing (or only at another size)', async () => {
    const other = { ...(await withDb.storeObject({ size: 1_000 })), plaintextSha256: 'ab'.repeat(32) };
    const resized = {
      ...(await withDb.storeObject({ size: MALWARE.length + 1 })),
      plaintextSha256: MALWARE_SHA256,
    };
    for (const job of [other, resized]) {
      await withDb.enqueue(job);
      expect(await withDb.result(job.fileId)).toEqual({
        fileId: job.fileId,
        result: 'clean',
        detail: CLEAN_DETAIL + FINGERPRINT_CLEAN,
      });
    }
  });

  it('says nothing of a fingerprint when none was sent', async () => {
    const job = await withDb.storeObject({ size: 1_000 });
    await withDb.enqueue(job);
    expect((await withDb.result(job.fileId)).detail).toBe(CLEAN_DETAIL);
  });

  it('says the fingerprint was not checked when the worker has no signature folder', async () => {
    const job = {
      ...(await withoutDb.storeObject({ size: MALWARE.length })),
      plaintextSha256: MALWARE_SHA256,
    };
    await withoutDb.enqueue(job);
    expect(await withoutDb.result(job.fileId)).toEqual({
      fileId: job.fileId,
      result: 'clean',
      detail: CLEAN_DETAIL + FINGERPRINT_UNCHECKED,
    });
  });

  it('still reports malware in the stored bytes first', async () => {
    const job = {
      ...(await withDb.storeObject({
        size: 5_000,
        insert: { bytes: Buffer.from('EICAR-STANDARD-ANTIVIRUS-TEST-FILE') },
      })),
      plaintextSha256: 'cd'.repeat(32),
    };
    await withDb.enqueue(job);
    expect(await withDb.result(job.fileId)).toMatchObject({
      result: 'infected',
      detail: expect.stringMatching(/^ClamAV found /),
    });
  });
});
