import { CloudinaryStorageDriver } from './cloudinary/cloudinary-storage.driver';
import { LocalStorageDriver } from './local/local-storage.driver';
import { S3StorageDriver } from './s3/s3-storage.driver';
import { createStorageDrivers, describeStorage, type StorageOptions } from './storage-factory';

const secrets = {
  signing: 'local-signing-secret-0123456789abcdef',
  s3Secret: 's3-secret-key-wJalrXUtnFEMI/K7MDENG',
  cloudinarySecret: 'cloudinary-api-secret-abcdefghij',
};

const all: StorageOptions = {
  local: { root: '/var/lib/vault/files', signingSecret: secrets.signing },
  s3: {
    endpoint: 'http://minio:9000',
    publicEndpoint: 'https://files.example.org',
    region: 'us-east-1',
    bucket: 'vault',
    accessKey: 'AKIAEXAMPLEKEY',
    secretKey: secrets.s3Secret,
    pathStyle: true,
  },
  cloudinary: { cloudName: 'demo', apiKey: '123456789012345', apiSecret: secrets.cloudinarySecret },
  defaultType: 's3',
};

describe(createStorageDrivers.name, () => {
  it('builds every configured driver, keyed by type, with labels', () => {
    const { drivers, defaultType } = createStorageDrivers(all);
    expect(defaultType).toBe('s3');
    expect(drivers.get('local')).toBeInstanceOf(LocalStorageDriver);
    expect(drivers.get('s3')).toBeInstanceOf(S3StorageDriver);
    expect(drivers.get('cloudinary')).toBeInstanceOf(CloudinaryStorageDriver);
    expect([...drivers.values()].map((d) => d.label)).toEqual([
      'Local disk',
      'S3 / R2 / MinIO',
      'Cloudinary',
    ]);
  });

  it('builds a subset', () => {
    const { drivers } = createStorageDrivers({ local: all.local, defaultType: 'local' });
    expect([...drivers.keys()]).toEqual(['local']);
  });

  it('throws when the default type is not configured', () => {
    expect(() => createStorageDrivers({ local: all.local, defaultType: 'cloudinary' })).toThrow(
      'The default storage type "cloudinary" is not configured (configured: local)',
    );
    expect(() => createStorageDrivers({ defaultType: 'local' })).toThrow(/configured: none/);
  });

  it('refuses a local signing secret shorter than 32 bytes', () => {
    expect(() =>
      createStorageDrivers({ local: { root: '/x', signingSecret: 'short' }, defaultType: 'local' }),
    ).toThrow(/at least 32 bytes/);
  });
});

describe(describeStorage.name, () => {
  it('names each driver and the default without printing a secret', () => {
    const text = describeStorage(all).join('\n');
    expect(text).toContain('local: Local disk at /var/lib/vault/files');
    expect(text).toContain('s3 (default): S3 / R2 / MinIO bucket vault at http://minio:9000');
    expect(text).toContain('browsers use https://files.example.org');
    expect(text).toContain('cloudinary: Cloudinary cloud demo');
    for (const secret of Object.values(secrets)) expect(text).not.toContain(secret);
    expect(text).not.toContain('AKIAEXAMPLEKEY');
    expect(text).not.toContain('123456789012345');
    expect(text).toContain('AKIA****');
  });

  it('drops credentials written into endpoint URLs', () => {
    const text = describeStorage({
      s3: { ...all.s3!, endpoint: 'https://user:pass@s3.example.org' },
      defaultType: 's3',
    }).join('\n');
    expect(text).not.toContain('pass');
    expect(text).toContain('https://s3.example.org');
  });
});
