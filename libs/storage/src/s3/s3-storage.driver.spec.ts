import { S3StorageDriver, type S3StorageOptions } from './s3-storage.driver';

const credentials = { accessKey: 'AKIDEXAMPLE', secretKey: 'secret', bucket: 'vault' };

async function downloadUrl(options: Omit<S3StorageOptions, keyof typeof credentials>): Promise<URL> {
  const driver = new S3StorageDriver({ ...credentials, ...options });
  return new URL((await driver.createDownloadUrl('owner/file', { expiresInSeconds: 300 })).url);
}

const minioDriver = () =>
  new S3StorageDriver({ ...credentials, endpoint: 'http://x:9000', region: 'us-east-1', pathStyle: true });

/** Presigning is offline (the region is configured), so these need no server. */
describe(S3StorageDriver.name, () => {
  it.each([
    {
      provider: 'MinIO: path-style URL on the public endpoint, region us-east-1',
      options: {
        endpoint: 'http://minio:9000',
        publicEndpoint: 'http://localhost:9000',
        region: 'us-east-1',
        pathStyle: true,
      },
      base: 'http://localhost:9000/vault/owner/file',
      credential: /^AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request$/,
    },
    {
      provider: 'AWS S3: virtual-hosted URL on the regional endpoint',
      options: { endpoint: 'https://s3.amazonaws.com', region: 'eu-central-1', pathStyle: false },
      base: 'https://vault.s3.eu-central-1.amazonaws.com/owner/file',
      credential: /\/eu-central-1\/s3\/aws4_request$/,
    },
    {
      provider: 'Cloudflare R2: account endpoint, path-style, region auto',
      options: { endpoint: 'https://0123abcd.r2.cloudflarestorage.com', region: 'auto', pathStyle: true },
      base: 'https://0123abcd.r2.cloudflarestorage.com/vault/owner/file',
      credential: /\/auto\/s3\/aws4_request$/,
    },
  ])('$provider', async ({ options, base, credential }) => {
    const url = await downloadUrl(options);
    expect(`${url.origin}${url.pathname}`).toBe(base);
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(credential);
  });

  it('expiresAt is exactly the signed date plus the lifetime', async () => {
    const driver = minioDriver();
    const signed = await driver.createUploadUrl('owner/file', { contentLength: 1, expiresInSeconds: 60 });
    const url = new URL(signed.url);
    const date = url.searchParams.get('X-Amz-Date') as string;
    const signedAt = Date.UTC(
      Number(date.slice(0, 4)),
      Number(date.slice(4, 6)) - 1,
      Number(date.slice(6, 8)),
      Number(date.slice(9, 11)),
      Number(date.slice(11, 13)),
      Number(date.slice(13, 15)),
    );
    expect(signed.expiresAt.getTime()).toBe(signedAt + 60_000);
    expect(signed.method).toBe('PUT');
  });

  it('refuses endpoints that are not http(s) URLs without a path, and small parts', () => {
    const base = { ...credentials, region: 'us-east-1', pathStyle: true };
    expect(() => new S3StorageDriver({ ...base, endpoint: 'minio:9000' })).toThrow(/http: or https:/);
    expect(() => new S3StorageDriver({ ...base, endpoint: 'http://minio:9000/vault' })).toThrow(
      /must not have a path/,
    );
    expect(() => new S3StorageDriver({ ...base, endpoint: 'http://minio:9000', partSize: 1024 })).toThrow(
      /5 MiB/,
    );
  });

  it('refuses lifetimes beyond what SigV4 allows (7 days)', async () => {
    const driver = minioDriver();
    await expect(
      driver.createDownloadUrl('owner/file', { expiresInSeconds: 8 * 86_400 }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});
