import { Readable } from 'node:stream';
import { S3StorageDriver } from '../../src';
import { freshKey, s3rverPerFile, storageDriverBehaviour } from './storage-behaviour';

async function listObjects(driver: S3StorageDriver): Promise<string[]> {
  const names: string[] = [];
  for await (const item of driver.client.listObjectsV2(driver.bucket, '', true) as AsyncIterable<{
    name?: string;
  }>) {
    if (item.name) names.push(item.name);
  }
  return names.sort();
}

describe(S3StorageDriver.name, () => {
  const t = s3rverPerFile();

  storageDriverBehaviour(() => ({
    driver: t.driver,
    signUpload: async (key, length, ttl) => {
      const signed = await t.driver.createUploadUrl(key, { contentLength: length, expiresInSeconds: ttl });
      return { method: 'PUT', url: signed.url };
    },
    resolve: (url) => url,
    listStored: () => listObjects(t.driver),
    // Two 5 MiB parts may be live at once (one filling, one on the wire).
    maxLiveBuffers: 14 * 1024 * 1024,
    crossOrigin: true,
    storesEmptyObjects: true,
    firstByteRangeBroken: true,
  }));

  // s3rver checks the expiry of presigned URLs but does not verify SigV4 signatures; the
  // refusals above come from startS3rver's own SigV4 check. The signed query itself is
  // checked here too, so expiry and key scoping do not rest on the test server alone.
  it('presigns for exactly one key, one method and the requested lifetime', async () => {
    const key = freshKey();
    const up = new URL((await t.driver.createUploadUrl(key, { contentLength: 5, expiresInSeconds: 1 })).url);
    expect(up.pathname).toBe(`/${t.s3.bucket}/${key}`);
    expect(up.searchParams.get('X-Amz-Expires')).toBe('1');
    expect(up.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(up.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    const down = new URL((await t.driver.createDownloadUrl(key, { expiresInSeconds: 300 })).url);
    expect(down.pathname).toBe(`/${t.s3.bucket}/${key}`);
    expect(down.searchParams.get('X-Amz-Expires')).toBe('300');
    expect(t.s3.refused.length).toBeGreaterThan(0); // the tampering tests were refused by the check
  });

  it('signs browser URLs for the public endpoint without a request', async () => {
    const publicDriver = new S3StorageDriver({
      endpoint: 'http://127.0.0.1:1', // nothing listens: signing must stay offline
      publicEndpoint: 'https://files.example.org',
      region: 'auto',
      bucket: 'vault',
      accessKey: 'id',
      secretKey: 'secret',
      pathStyle: true,
    });
    const url = new URL((await publicDriver.createDownloadUrl('owner/file', { expiresInSeconds: 60 })).url);
    expect(url.origin).toBe('https://files.example.org');
    expect(url.pathname).toBe('/vault/owner/file');
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(/\/auto\/s3\/aws4_request$/);
  });

  it('ensureBucket creates a missing bucket (and is idempotent)', async () => {
    const other = new S3StorageDriver({
      endpoint: t.s3.endpoint,
      region: t.s3.region,
      bucket: 'vault-created-by-test',
      accessKey: t.s3.accessKey,
      secretKey: t.s3.secretKey,
      pathStyle: true,
    });
    await other.ensureBucket();
    await other.ensureBucket();
    const key = freshKey();
    await other.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 1 });
    expect(await other.stat(key)).toEqual({ size: 1 });
  });

  it('a multipart put whose source fails leaves no object', async () => {
    const key = freshKey();
    async function* failing() {
      for (let i = 0; i < 7; i++) yield Buffer.alloc(1024 * 1024, i);
      throw new Error('client went away');
    }
    await expect(t.driver.put(key, Readable.from(failing()), { maxBytes: 50 * 1024 * 1024 })).rejects.toThrow(
      'client went away',
    );
    expect(await t.driver.stat(key)).toBeNull();
  });
});
