import { Readable } from 'node:stream';
import { CloudinaryStorageDriver } from '../../src';
import { startCloudinaryTestServer, type CloudinaryTestServer } from '../../src/testing';
import { freshKey, sendUpload, storageDriverBehaviour } from './storage-behaviour';

const account = { cloudName: 'vault-test', apiKey: '614335564976464', apiSecret: 'medium-test-api-secret' };

describe(CloudinaryStorageDriver.name, () => {
  let server: CloudinaryTestServer;
  let driver: CloudinaryStorageDriver;
  const previousUrl = process.env.CLOUDINARY_URL;

  beforeAll(async () => {
    server = await startCloudinaryTestServer(account);
    // Before the driver's first call: the SDK reads upload_prefix (and so http:) once, at load.
    process.env.CLOUDINARY_URL = server.cloudinaryUrl;
    driver = new CloudinaryStorageDriver(account);
  });
  afterAll(async () => {
    if (previousUrl === undefined) delete process.env.CLOUDINARY_URL;
    else process.env.CLOUDINARY_URL = previousUrl;
    await server?.close();
  });

  storageDriverBehaviour(() => ({
    driver,
    signUpload: async (key, _length, ttl) => {
      const { uploadUrl, fields } = driver.createDirectUpload(key, ttl);
      return { method: 'POST', url: uploadUrl, fields };
    },
    resolve: (url) => url,
    listStored: async () => [...server.objects.keys()].sort(),
    maxLiveBuffers: 8 * 1024 * 1024,
    crossOrigin: true,
    storesEmptyObjects: false,
  }));

  it('stores raw assets of type authenticated under the folder, never public ones', async () => {
    const key = freshKey();
    const { fields } = driver.createDirectUpload(key, 300);
    expect(fields).toMatchObject({ public_id: `vault/${key}`, type: 'authenticated', overwrite: '0' });
    expect(fields.api_key).toBe(account.apiKey);
    expect(JSON.stringify(fields)).not.toContain(account.apiSecret);
    await driver.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 1 });
    expect(server.objects.get(`raw/authenticated/vault/${key}`)).toMatchObject({
      bytes: 1,
      type: 'authenticated',
    });
    const url = new URL((await driver.createDownloadUrl(key, { expiresInSeconds: 60 })).url);
    expect(url.pathname).toBe(`/v1_1/${account.cloudName}/raw/download`);
    expect(url.searchParams.get('type')).toBe('authenticated');
    expect(url.searchParams.get('public_id')).toBe(`vault/${key}`);
  });

  it('a direct upload may not switch to a public type or overwrite', async () => {
    const key = freshKey();
    const { uploadUrl, fields } = driver.createDirectUpload(key, 300);
    const publicType = await sendUpload(
      { method: 'POST', url: uploadUrl, fields: { ...fields, type: 'upload' } },
      Buffer.from('x'),
    );
    expect(publicType.status).toBe(401);
    const overwrite = await sendUpload(
      { method: 'POST', url: uploadUrl, fields: { ...fields, overwrite: '1' } },
      Buffer.from('x'),
    );
    expect(overwrite.status).toBe(401);
    expect(await driver.stat(key)).toBeNull();
  });

  it('refuses to overwrite an existing object, by direct upload or by put', async () => {
    const key = freshKey();
    const { uploadUrl, fields } = driver.createDirectUpload(key, 300);
    expect((await sendUpload({ method: 'POST', url: uploadUrl, fields }, Buffer.from('first'))).status).toBe(
      200,
    );
    const again = await sendUpload({ method: 'POST', url: uploadUrl, fields }, Buffer.from('second!'));
    expect(await again.json()).toMatchObject({ existing: true, bytes: 5 });
    await expect(
      driver.put(key, Readable.from([Buffer.from('third')]), { maxBytes: 10 }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await driver.stat(key)).toEqual({ size: 5 });
  });

  it('cuts the range out itself when the download answers with the whole object', async () => {
    const key = freshKey();
    const bytes = Buffer.from('0123456789abcdefghij');
    await driver.put(key, Readable.from([bytes]), { maxBytes: bytes.length });
    server.settings.honourRange = false;
    try {
      const parts: Buffer[] = [];
      for await (const part of await driver.get(key, { start: 5, end: 12 })) parts.push(part as Buffer);
      expect(Buffer.concat(parts).toString()).toBe('56789abc');
    } finally {
      server.settings.honourRange = true;
    }
  });

  it('the Admin API needs the API secret', async () => {
    const res = await fetch(`${server.url}/v1_1/${account.cloudName}/resources/raw/authenticated/x`, {
      headers: { Authorization: `Basic ${Buffer.from(`${account.apiKey}:wrong`).toString('base64')}` },
    });
    expect(res.status).toBe(401);
  });

  it('createUploadUrl points to createDirectUpload', async () => {
    await expect(driver.createUploadUrl()).rejects.toThrow('use createDirectUpload');
  });
});
