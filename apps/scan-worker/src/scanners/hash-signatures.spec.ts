import { mkdtempSync, rmSync, utimesSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HashSignatureDatabase, parseHashSignatures } from './hash-signatures';

const SHA256 = 'ab'.repeat(32);
const SHA1 = 'cd'.repeat(20);
const MD5 = 'ef'.repeat(16);

describe('parseHashSignatures', () => {
  it('reads hash:size:name lines, the algorithm from the hash length, * for any size', () => {
    const parsed = parseHashSignatures(
      [`${SHA256.toUpperCase()}:68:Test.A`, `${SHA1}:*:Test.B:73`, `${MD5}:10:Test.C`, ''].join('\n'),
    );
    expect(parsed.get(SHA256)).toEqual([{ algorithm: 'sha256', size: 68, name: 'Test.A' }]);
    expect(parsed.get(SHA1)).toEqual([{ algorithm: 'sha1', size: null, name: 'Test.B' }]);
    expect(parsed.get(MD5)).toEqual([{ algorithm: 'md5', size: 10, name: 'Test.C' }]);
  });

  it('skips malformed lines and comments', () => {
    const parsed = parseHashSignatures(
      ['# comment', 'abc:1:Short', `${SHA256}:x:BadSize`, `${SHA256}:1:`, `${'zz'.repeat(32)}:1:NotHex`].join(
        '\n',
      ),
    );
    expect(parsed.size).toBe(0);
  });
});

describe(HashSignatureDatabase.name, () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vault-hsb-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a hash of the right size in .hsb and .hdb files, and ignores other files', async () => {
    writeFileSync(join(dir, 'a.hsb'), `${SHA256}:68:Test.A\n`);
    writeFileSync(join(dir, 'b.hdb'), `${MD5}:*:Test.C\n`);
    writeFileSync(join(dir, 'c.ndb'), `${'12'.repeat(32)}:5:NotAHashFile\n`);
    const db = new HashSignatureDatabase(dir);
    expect(await db.lookup(SHA256, 68)).toBe('Test.A');
    expect(await db.lookup(SHA256, 69)).toBeNull();
    expect(await db.lookup(MD5, 123)).toBe('Test.C');
    expect(await db.lookup('12'.repeat(32), 5)).toBeNull();
  });

  it('picks up appended signatures once the recheck interval has passed', async () => {
    const file = join(dir, 'vault.hsb');
    writeFileSync(file, `${SHA256}:68:Test.A\n`);
    const db = new HashSignatureDatabase(dir);
    const t0 = 1_000_000;
    expect(await db.lookup(SHA1, 7, t0)).toBeNull();
    appendFileSync(file, `${SHA1}:7:Test.B\n`);
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect(await db.lookup(SHA1, 7, t0 + 1_000)).toBeNull(); // not looked at again yet
    expect(await db.lookup(SHA1, 7, t0 + 61_000)).toBe('Test.B');
  });

  it('rejects when the folder cannot be read', async () => {
    await expect(new HashSignatureDatabase(join(dir, 'missing')).lookup(SHA256, 1)).rejects.toThrow();
  });
});
