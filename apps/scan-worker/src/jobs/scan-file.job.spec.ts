import type { ScanFileJob, ScanFileResult } from '@vault/contracts';
import { loadScanWorkerConfig } from '../config/scan-worker.config';
import { STORAGE_ENV } from '../testing/storage-env';
import type { ScanLocksRepository } from '../queues/scan-locks.repository';
import type { ScanResultPublisher } from '../queues/scan-result.publisher';
import type { FileScanner, ScanOutcome } from '../scanners/file-scanner.service';
import { ScanFileJobHandler } from './scan-file.job';

const payload: ScanFileJob = {
  fileId: '0b7c3a52-8a4e-4d6b-9a0e-3f0f6f1f2a11',
  ownerId: 'owner',
  storageType: 'local',
  objectKey: 'owner/file',
  size: 0,
  encryptedSize: 16,
  chunkSize: 65_536,
};

function harness(outcome: ScanOutcome, opts: { locked?: boolean } = {}) {
  const published: ScanFileResult[] = [];
  const events: string[] = [];
  const scanner = {
    scan: jest.fn(async () => {
      events.push('scan');
      return outcome;
    }),
  };
  const locks = {
    acquire: jest.fn(async () => {
      if (opts.locked) return null;
      events.push('lock');
      return { release: async () => void events.push('release') };
    }),
  };
  const results = {
    publish: jest.fn(async (r: ScanFileResult) => {
      events.push('publish');
      published.push(r);
    }),
  };
  const config = loadScanWorkerConfig({ ...STORAGE_ENV, SCAN_ATTEMPTS: '3', SCAN_BACKOFF_MS: '100' });
  const handler = new ScanFileJobHandler(
    scanner as unknown as FileScanner,
    locks as unknown as ScanLocksRepository,
    results as unknown as ScanResultPublisher,
    config,
  );
  return { handler, published, events, scanner };
}

describe(ScanFileJobHandler.name, () => {
  it('publishes the verdict under the file lock, then releases it', async () => {
    const h = harness({ kind: 'verdict', result: 'clean', detail: 'checked' });
    const outcome = await h.handler.handle(payload, { jobId: 'j1', attempt: 1 });
    expect(outcome).toEqual({ kind: 'done', value: { result: 'clean' } });
    expect(h.published).toEqual([{ fileId: payload.fileId, result: 'clean', detail: 'checked' }]);
    expect(h.events).toEqual(['lock', 'scan', 'publish', 'release']);
  });

  it('retries with exponential backoff while clamd is unavailable, publishing nothing', async () => {
    const h = harness({ kind: 'unavailable', dependency: 'scanner', reason: 'ECONNREFUSED' });
    expect(await h.handler.handle(payload, { jobId: 'j1', attempt: 1 })).toEqual({
      kind: 'retry',
      afterMs: 100,
      reason: 'ECONNREFUSED',
    });
    expect(await h.handler.handle(payload, { jobId: 'j1', attempt: 2 })).toMatchObject({ afterMs: 200 });
    expect(h.published).toEqual([]);
    expect(h.events.filter((e) => e === 'release')).toHaveLength(2);
  });

  it('publishes error after the last try', async () => {
    const h = harness({ kind: 'unavailable', dependency: 'scanner', reason: 'ECONNREFUSED' });
    expect(await h.handler.handle(payload, { jobId: 'j1', attempt: 3 })).toEqual({
      kind: 'done',
      value: { result: 'error' },
    });
    expect(h.published).toEqual([
      {
        fileId: payload.fileId,
        result: 'error',
        detail: 'Virus scanner unavailable after 3 tries (ECONNREFUSED); the stored bytes were not scanned.',
      },
    ]);
  });

  it('does not scan a file whose scan is already running', async () => {
    const h = harness({ kind: 'verdict', result: 'clean', detail: 'x' }, { locked: true });
    const outcome = await h.handler.handle(payload, { jobId: 'j2', attempt: 1 });
    expect(outcome).toEqual({ kind: 'done', value: { skipped: 'a scan of this file is already running' } });
    expect(h.scanner.scan).not.toHaveBeenCalled();
    expect(h.published).toEqual([]);
  });

  it('reports a job that failed for good as error, so the file does not stay pending', async () => {
    const h = harness({ kind: 'verdict', result: 'clean', detail: 'x' });
    await h.handler.onFinalFailure(payload, new Error('boom'));
    expect(h.published).toEqual([
      { fileId: payload.fileId, result: 'error', detail: 'Scan failed (boom); the scan did not complete.' },
    ]);
  });
});
