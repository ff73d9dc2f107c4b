import { LocalStorageDriver, S3StorageDriver } from '@vault/storage';
import { loadScanWorkerConfig } from '../config/scan-worker.config';
import { STORAGE_ENV } from '../testing/storage-env';
import { createObjectReaders } from './object-reader';

describe('object readers', () => {
  it("maps each configured storage type to @vault/storage's driver", () => {
    const config = loadScanWorkerConfig({
      ...STORAGE_ENV,
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'vault',
      S3_ACCESS_KEY: 'user',
      S3_SECRET_KEY: 'secret',
    });
    const readers = createObjectReaders(config.storage);
    expect(Object.keys(readers).sort()).toEqual(['local', 's3']);
    expect(readers.local).toBeInstanceOf(LocalStorageDriver);
    expect(readers.s3).toBeInstanceOf(S3StorageDriver);
    expect(readers.cloudinary).toBeUndefined();
  });
});
