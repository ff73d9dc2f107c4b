import { Readable } from 'node:stream';
import { ErrorCode, VaultError, expectedEncryptedSize, type ScanFileJob } from '@vault/contracts';
import { loadScanWorkerConfig } from '../config/scan-worker.config';
import { STORAGE_ENV } from '../testing/storage-env';
import { closedPort, startFakeClamd, type FakeClamd } from '../testing/fake-clamd';
import { CLEAN_DETAIL, FileScanner, unavailableDetail } from './file-scanner.service';
import type { ObjectReader } from './object-reader';

const CHUNK = 65_536;

function job(overrides: Partial<ScanFileJob> = {}): ScanFileJob {
  const size = 100;
  return {
    fileId: '0b7c3a52-8a4e-4d6b-9a0e-3f0f6f1f2a11',
    ownerId: '5d1c0a52-8a4e-4d6b-9a0e-3f0f6f1f2a22',
    storageType: 'local',
    objectKey: 'owner/file',
    size,
    encryptedSize: expectedEncryptedSize(size, CHUNK),
    chunkSize: CHUNK,
    ...overrides,
  };
}

/** An in-memory object store; `fail` makes every call reject with that error. */
function fakeReader(
  objects: Record<string, Buffer>,
  fail?: { stat?: unknown; get?: unknown },
): ObjectReader & {
  gets: number;
} {
  const reader = {
    gets: 0,
    async stat(key: string) {
      if (fail?.stat) throw fail.stat;
      const bytes = objects[key];
      return bytes ? { size: bytes.length } : null;
    },
    async get(key: string) {
      reader.gets += 1;
      if (fail?.get) throw fail.get;
      const bytes = objects[key];
      if (!bytes) throw new VaultError(ErrorCode.NOT_FOUND, 'File not found');
      return Readable.from([bytes]);
    },
  };
  return reader;
}

describe(FileScanner.name, () => {
  let clamd: FakeClamd;
  const stored = Buffer.alloc(116, 7);

  beforeEach(async () => {
    clamd = await startFakeClamd();
  });
  afterEach(() => clamd.close());

  const scanner = (reader: ObjectReader | undefined, port = clamd.port) =>
    new FileScanner(
      reader ? { local: reader } : {},
      loadScanWorkerConfig({ ...STORAGE_ENV, CLAMD_PORT: String(port), CLAMD_TIMEOUT_MS: '1000' }),
    );

  it('answers clean, saying exactly what was checked', async () => {
    const outcome = await scanner(fakeReader({ 'owner/file': stored })).scan(job());
    expect(outcome).toEqual({ kind: 'verdict', result: 'clean', detail: CLEAN_DETAIL });
    expect(CLEAN_DETAIL).toBe(
      'Stored ciphertext matches the declared size and chunk framing; ClamAV found no known malware in the ' +
        "stored bytes. The file's contents are end-to-end encrypted and cannot be scanned by the server.",
    );
    expect(clamd.streams[0]?.bytes).toBe(116);
  });

  it.each([
    {
      verdict: 'infected with the signature clamd found',
      answer: 'stream: Vault.Test.EICAR.UNOFFICIAL FOUND',
      result: 'infected',
      detail: 'ClamAV found Vault.Test.EICAR.UNOFFICIAL in the stored bytes.',
    },
    {
      verdict: 'error when clamd cannot scan the bytes',
      answer: 'INSTREAM size limit exceeded. ERROR',
      result: 'error',
      detail: 'ClamAV could not scan the stored bytes: INSTREAM size limit exceeded.',
    },
  ])('answers $verdict', async ({ answer, result, detail }) => {
    clamd.behaviour.answer = () => answer;
    const outcome = await scanner(fakeReader({ 'owner/file': stored })).scan(job());
    expect(outcome).toEqual({ kind: 'verdict', result, detail });
  });

  it('answers error for declared sizes that break the framing, without reading the object', async () => {
    const reader = fakeReader({ 'owner/file': stored });
    const outcome = await scanner(reader).scan(job({ encryptedSize: 117 }));
    expect(outcome).toMatchObject({ kind: 'verdict', result: 'error' });
    expect(outcome.kind === 'verdict' && outcome.detail).toContain('the chunk framing does not match');
    expect(reader.gets).toBe(0);
    expect(clamd.streams).toHaveLength(0);
  });

  it('answers error for a truncated or padded object, without scanning it', async () => {
    const truncated = await scanner(fakeReader({ 'owner/file': stored.subarray(0, 50) })).scan(job());
    expect(truncated).toEqual({
      kind: 'verdict',
      result: 'error',
      detail: 'Stored object is 50 bytes; expected 116: truncated or padded',
    });
    const padded = await scanner(fakeReader({ 'owner/file': Buffer.alloc(200) })).scan(job());
    expect(padded).toMatchObject({ detail: 'Stored object is 200 bytes; expected 116: truncated or padded' });
    expect(clamd.streams).toHaveLength(0);
  });

  it('answers error for a missing object, also when it vanishes between stat and read', async () => {
    expect(await scanner(fakeReader({})).scan(job())).toEqual({
      kind: 'verdict',
      result: 'error',
      detail: 'Stored object not found',
    });
    const vanishing = fakeReader({ 'owner/file': stored }, { get: new VaultError(ErrorCode.NOT_FOUND) });
    expect(await scanner(vanishing).scan(job())).toMatchObject({
      result: 'error',
      detail: 'Stored object not found',
    });
  });

  it('answers error for a storage type this worker has no driver for', async () => {
    expect(await scanner(undefined).scan(job({ storageType: 's3' }))).toEqual({
      kind: 'verdict',
      result: 'error',
      detail: 'Storage type s3 is not configured on the scan worker',
    });
  });

  it('answers error for a key the storage refuses', async () => {
    const refused = new VaultError(ErrorCode.VALIDATION_FAILED, 'Invalid storage object key');
    expect(await scanner(fakeReader({}, { stat: refused })).scan(job())).toMatchObject({
      result: 'error',
      detail: 'Refused by the storage: Invalid storage object key',
    });
  });

  it('reports the storage unavailable when it cannot be asked', async () => {
    const down = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9000'), { code: 'ECONNREFUSED' });
    expect(await scanner(fakeReader({}, { stat: down })).scan(job())).toEqual({
      kind: 'unavailable',
      dependency: 'storage',
      reason: 'connect ECONNREFUSED 127.0.0.1:9000',
    });
  });

  it('reports the scanner unavailable when clamd does not answer', async () => {
    const port = await closedPort();
    const outcome = await scanner(fakeReader({ 'owner/file': stored }), port).scan(job());
    expect(outcome).toEqual({
      kind: 'unavailable',
      dependency: 'scanner',
      reason: `ClamAV is unreachable at 127.0.0.1:${port}: ECONNREFUSED`,
    });
    if (outcome.kind === 'unavailable') {
      expect(unavailableDetail(outcome, 5)).toBe(
        `Virus scanner unavailable after 5 tries (ClamAV is unreachable at 127.0.0.1:${port}: ECONNREFUSED); ` +
          'the stored bytes were not scanned.',
      );
    }
  });
});
