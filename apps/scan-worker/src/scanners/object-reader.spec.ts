import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalDiskReader } from './object-reader';

describe(LocalDiskReader.name, () => {
  let root: string;
  let reader: LocalDiskReader;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'scan-reader-'));
    mkdirSync(join(root, 'owner'));
    writeFileSync(join(root, 'owner', 'file'), 'ciphertext');
    writeFileSync(join(tmpdir(), 'outside-scan-root'), 'secret');
    reader = new LocalDiskReader(root);
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('stats and streams an object', async () => {
    expect(await reader.stat('owner/file')).toEqual({ size: 10 });
    const chunks: Buffer[] = [];
    for await (const chunk of await reader.get('owner/file')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('ciphertext');
  });

  it('answers null for a missing object or a folder', async () => {
    expect(await reader.stat('owner/nothing')).toBeNull();
    expect(await reader.stat('owner')).toBeNull();
    await expect(reader.get('owner/nothing')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.each(['../outside-scan-root', '/etc/passwd', '', 'owner/../../x'])('refuses key %j', async (key) => {
    await expect(reader.stat(key)).rejects.toThrow('Invalid storage object key');
  });
});
