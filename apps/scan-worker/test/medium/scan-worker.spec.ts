import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { FILE_CHUNK_SIZE, FILE_MAX_BYTES, expectedEncryptedSize, type ScanFileJob } from '@vault/contracts';
import { S3StorageDriver } from '@vault/storage';
import { startS3rver, type S3rverHandle } from '@vault/storage/testing';
import { SCAN_FILE_JOB } from '@vault/server-kit';
import { closedPort } from '../../src/testing/fake-clamd';
import { CLEAN_DETAIL } from '../../src/scanners/file-scanner.service';
import { createObjectReaders, type ObjectReader } from '../../src/scanners/object-reader';
import { startTestClamd, type TestClamd } from './support/clamd';
import { EICAR, sleep, startScanWorkerTestApp, type ScanWorkerTestApp } from './support/scan-worker-test-app';

// clamd, Redis and a 100 MiB object on a shared, busy machine: more than Jest's default 5 s.
jest.setTimeout(45_000);

/** Counts the scans of each object that run at the same time (reads of its bytes). */
class CountingReader implements ObjectReader {
  readonly running = new Map<string, number>();
  readonly maxRunning = new Map<string, number>();
  readonly reads = new Map<string, number>();

  constructor(private readonly inner: ObjectReader) {}

  stat(key: string) {
    return this.inner.stat(key);
  }

  async get(key: string) {
    const stream = await this.inner.get(key);
    const now = (this.running.get(key) ?? 0) + 1;
    this.running.set(key, now);
    this.reads.set(key, (this.reads.get(key) ?? 0) + 1);
    this.maxRunning.set(key, Math.max(now, this.maxRunning.get(key) ?? 0));
    stream.once('close', () => this.running.set(key, (this.running.get(key) ?? 1) - 1));
    return stream;
  }
}

describe('scan worker (real Redis, real clamd)', () => {
  let clamd: TestClamd;
  let t: ScanWorkerTestApp;
  let reader: CountingReader;

  beforeAll(async () => {
    clamd = await startTestClamd();
    t = await startScanWorkerTestApp('main', {
      clamd,
      overrides: (config) => {
        const readers = createObjectReaders(config.storage);
        reader = new CountingReader(readers.local as ObjectReader);
        return { readers: { ...readers, local: reader } };
      },
    });
  });

  afterAll(async () => {
    await t?.close();
    await clamd?.stop();
  });

  it('answers clean for ciphertext of the declared size, saying what was checked', async () => {
    const job = await t.storeObject({ size: 200_000 });
    await t.enqueue(job);
    expect(await t.result(job.fileId)).toEqual({ fileId: job.fileId, result: 'clean', detail: CLEAN_DETAIL });
  });

  it('answers infected, naming the signature, for an object holding the EICAR string', async () => {
    const job = await t.storeObject({ size: 5000, insert: { bytes: EICAR } });
    await t.enqueue(job);
    expect(await t.result(job.fileId)).toEqual({
      fileId: job.fileId,
      result: 'infected',
      detail: 'ClamAV found Vault.Test.EICAR.UNOFFICIAL in the stored bytes.',
    });
  });

  it('answers error for a truncated object, without scanning it', async () => {
    const declared = await t.storeObject({ size: 70_000 });
    const job = await t.storeObject({ size: 70_000, storedBytes: declared.encryptedSize - 100 });
    await t.enqueue(job);
    expect(await t.result(job.fileId)).toEqual({
      fileId: job.fileId,
      result: 'error',
      detail: `Stored object is ${job.encryptedSize - 100} bytes; expected ${job.encryptedSize}: truncated or padded`,
    });
    expect(reader.reads.get(job.objectKey)).toBeUndefined();
  });

  it('streams the largest file (100 MiB) to clamd with flat memory, scanning up to its last byte', async () => {
    // The marker sits in the last bytes: found only if clamd's limits let it see the whole object.
    const job = await t.storeObject({ size: FILE_MAX_BYTES, insert: { bytes: EICAR, at: 'end' } });
    expect(job.encryptedSize).toBe(FILE_MAX_BYTES + 16 * 1600);
    global.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    try {
      await t.enqueue(job);
      expect(await t.result(job.fileId, 40_000)).toMatchObject({ result: 'infected' });
    } finally {
      clearInterval(sampler);
    }
    const growthMiB = (peak - baseline) / 1024 / 1024;
    expect(growthMiB).toBeLessThan(32);
    expect(reader.reads.get(job.objectKey)).toBe(1);
  });

  it('never scans one file twice at the same time, and publishes one verdict', async () => {
    const job = await t.storeObject({ size: 30 * 1024 * 1024 });
    // The files service de-duplicates by jobId = fileId; a second add with that id is a no-op.
    const first = await t.enqueue(job);
    const again = await t.enqueue(job);
    expect(again.id).toBe(first.id);
    // A duplicate under another id (a retried request, another replica) meets the file's lock.
    await t.enqueue(job, `${job.fileId}-again`);
    expect(await t.result(job.fileId)).toMatchObject({ result: 'clean' });
    await sleep(300);
    expect(reader.maxRunning.get(job.objectKey)).toBe(1);
    const results = (await t.resultQueue.getJobs(['waiting'])).filter((j) => j.data.fileId === job.fileId);
    expect(results).toHaveLength(1);
  });

  it('fails a job with an invalid payload for good, publishing nothing', async () => {
    const job = await t.scanQueue.add(SCAN_FILE_JOB, { fileId: 'not-a-uuid' }, { jobId: 'bad-payload' });
    for (let i = 0; i < 100 && !(await job.isFailed()); i += 1) await sleep(20);
    const failed = await t.scanQueue.getJob('bad-payload');
    expect(failed?.failedReason).toMatch(/^Invalid "scan-file" payload: fileId: /);
    expect(failed?.attemptsMade).toBe(1);
  });
});

describe('scan worker when clamd is down', () => {
  let t: ScanWorkerTestApp;

  beforeAll(async () => {
    t = await startScanWorkerTestApp('down', { clamd: { host: '127.0.0.1', port: await closedPort() } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('retries with backoff, then answers error: virus scanner unavailable', async () => {
    const job = await t.storeObject({ size: 1000 });
    const started = Date.now();
    await t.enqueue(job);
    const verdict = await t.result(job.fileId);
    expect(verdict.result).toBe('error');
    expect(verdict.detail).toMatch(
      /^Virus scanner unavailable after 3 tries \(ClamAV is unreachable at 127\.0\.0\.1:\d+: ECONNREFUSED\); the stored bytes were not scanned\.$/,
    );
    // Backoff 50 ms, then 100 ms: the retries waited.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const retries = t.logs.filter((line) => line.includes(`File ${job.fileId}: scanner unavailable`));
    expect(retries).toHaveLength(2);
  });
});

describe('scan worker reading from S3 (s3rver)', () => {
  let clamd: TestClamd;
  let s3: S3rverHandle;
  let t: ScanWorkerTestApp;
  let driver: S3StorageDriver;

  beforeAll(async () => {
    [clamd, s3] = await Promise.all([startTestClamd(), startS3rver()]);
    t = await startScanWorkerTestApp('s3', {
      clamd,
      env: {
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: s3.region,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY: s3.accessKey,
        S3_SECRET_KEY: s3.secretKey,
        S3_PATH_STYLE: 'true',
      },
    });
    driver = new S3StorageDriver(t.config.storage.s3!);
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([s3?.close(), clamd?.stop()]);
  });

  async function putS3Object(size: number, bytes: Buffer): Promise<ScanFileJob> {
    const fileId = randomUUID();
    const ownerId = randomUUID();
    const objectKey = `${ownerId}/${fileId}`;
    await driver.put(objectKey, Readable.from([bytes]), { maxBytes: bytes.length });
    const encryptedSize = expectedEncryptedSize(size, FILE_CHUNK_SIZE);
    return { fileId, ownerId, storageType: 's3', objectKey, size, encryptedSize, chunkSize: FILE_CHUNK_SIZE };
  }

  it("scans an object through the job's storage type: clean, infected, truncated", async () => {
    const size = 100_000;
    const length = expectedEncryptedSize(size, FILE_CHUNK_SIZE);
    const clean = await putS3Object(size, randomBytes(length));
    const marked = randomBytes(length);
    EICAR.copy(marked, 4096);
    const infected = await putS3Object(size, marked);
    const truncated = await putS3Object(size, randomBytes(length - 1));
    await Promise.all([clean, infected, truncated].map((job) => t.enqueue(job)));
    expect(await t.result(clean.fileId)).toMatchObject({ result: 'clean', detail: CLEAN_DETAIL });
    expect(await t.result(infected.fileId)).toMatchObject({
      result: 'infected',
      detail: 'ClamAV found Vault.Test.EICAR.UNOFFICIAL in the stored bytes.',
    });
    expect(await t.result(truncated.fileId)).toMatchObject({
      result: 'error',
      detail: `Stored object is ${length - 1} bytes; expected ${length}: truncated or padded`,
    });
  });

  it('answers error for a storage type the worker is not configured for', async () => {
    const job = { ...(await t.storeObject({ size: 10 })), storageType: 'cloudinary' as const };
    await t.enqueue(job);
    expect(await t.result(job.fileId)).toEqual({
      fileId: job.fileId,
      result: 'error',
      detail: 'Storage type cloudinary is not configured on the scan worker',
    });
  });
});
