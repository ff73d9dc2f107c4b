import { Readable } from 'node:stream';
import { CloudinaryStorageDriver } from '../../src';
import { cloudinaryPerFile, freshKey, sendUpload, storageDriverBehaviour } from './storage-behaviour';

describe(CloudinaryStorageDriver.name, () => {
  const t = cloudinaryPerFile();

  storageDriverBehaviour(() => ({
    driver: t.driver,
    signUpload: async (key, _length, ttl) => {
      const { uploadUrl, fields } = t.driver.createDirectUpload(key, ttl);
      return { method: 'POST', url: uploadUrl, fields };
    },
    resolve: (url) => url,
    listStored: async () => [...t.server.objects.keys()].sort(),
    maxLiveBuffers: 8 * 1024 * 1024,
    crossOrigin: true,
    storesEmptyObjects: false,
  }));

  it('stores raw assets of type authenticated under the folder, never public ones', async () => {
    const key = freshKey();
    const { fields } = t.driver.createDirectUpload(key, 300);
    expect(fields).toMatchObject({ public_id: `vault/${key}`, type: 'authenticated', overwrite: '0' });
    expect(fields.api_key).toBe(t.account.apiKey);
    expect(JSON.stringify(fields)).not.toContain(t.account.apiSecret);
    await t.driver.put(key, Readable.from([Buffer.from('x')]), { maxBytes: 1 });
    expect(t.server.objects.get(`raw/authenticated/vault/${key}`)).toMatchObject({
      bytes: 1,
      type: 'authenticated',
    });
    const url = new URL((await t.driver.createDownloadUrl(key, { expiresInSeconds: 60 })).url);
    expect(url.pathname).toBe(`/v1_1/${t.account.cloudName}/raw/download`);
    expect(url.searchParams.get('type')).toBe('authenticated');
    expect(url.searchParams.get('public_id')).toBe(`vault/${key}`);
  });

  it('a direct upload may not switch to a public type or overwrite', async () => {
    const key = freshKey();
    const { uploadUrl, fields } = t.driver.createDirectUpload(key, 300);
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
    expect(await t.driver.stat(key)).toBeNull();
  });

  it('refuses to overwrite an existing object, by direct upload or by put', async () => {
    const key = freshKey();
    const { uploadUrl, fields } = t.driver.createDirectUpload(key, 300);
    expect((await sendUpload({ method: 'POST', url: uploadUrl, fields }, Buffer.from('first'))).status).toBe(
      200,
    );
    const again = await sendUpload({ method: 'POST', url: uploadUrl, fields }, Buffer.from('second!'));
    expect(await again.json()).toMatchObject({ existing: true, bytes: 5 });
    await expect(
      t.driver.put(key, Readable.from([Buffer.from('third')]), { maxBytes: 10 }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await t.driver.stat(key)).toEqual({ size: 5 });
  });

  it('cuts the range out itself when the download answers with the whole object', async () => {
    const key = freshKey();
    const bytes = Buffer.from('0123456789abcdefghij');
    await t.driver.put(key, Readable.from([bytes]), { maxBytes: bytes.length });
    t.server.settings.honourRange = false;
    try {
      const parts: Buffer[] = [];
      for await (const part of await t.driver.get(key, { start: 5, end: 12 })) parts.push(part as Buffer);
      expect(Buffer.concat(parts).toString()).toBe('56789abc');
    } finally {
      t.server.settings.honourRange = true;
    }
  });

  it('the Admin API needs the API secret', async () => {
    const res = await fetch(`${t.server.url}/v1_1/${t.account.cloudName}/resources/raw/authenticated/x`, {
      headers: { Authorization: `Basic ${Buffer.from(`${t.account.apiKey}:wrong`).toString('base64')}` },
    });
    expect(res.status).toBe(401);
  });

  it('createUploadUrl points to createDirectUpload', async () => {
    await expect(t.driver.createUploadUrl()).rejects.toThrow('use createDirectUpload');
  });
});
