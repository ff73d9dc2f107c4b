import { ErrorCode, VaultError } from '@vault/contracts';
import {
  assertObjectKey,
  isValidObjectKey,
  objectKey,
  OBJECT_KEY_INVALID,
  parseObjectKey,
} from './object-key';

const owner = '0b8f6f3e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const file = '7d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a';

describe(parseObjectKey.name, () => {
  it('accepts owner/file and owner/file.thumb', () => {
    expect(parseObjectKey(`${owner}/${file}`)).toEqual({ ownerId: owner, fileId: file, thumb: false });
    expect(parseObjectKey(`${owner}/${file}.thumb`)).toEqual({ ownerId: owner, fileId: file, thumb: true });
  });

  it.each([
    ['parent traversal', '../x'],
    ['traversal inside', `${owner}/../${file}`],
    ['dot segment', `${owner}/.`],
    ['three levels', 'a/b/c'],
    ['one level', file],
    ['leading slash', `/${owner}/${file}`],
    ['trailing slash', `${owner}/${file}/`],
    ['empty owner', `/${file}`],
    ['empty file', `${owner}/`],
    ['uppercase', `${owner.toUpperCase()}/${file}`],
    ['underscore', 'a_b/c'],
    ['space', 'a b/c'],
    ['backslash', 'a\\b/c'],
    ['percent-encoding', 'a%2fb/c'],
    ['another suffix', `${owner}/${file}.jpg`],
    ['suffix on the owner', `${owner}.thumb/${file}`],
    ['double suffix', `${owner}/${file}.thumb.thumb`],
    ['newline', `${owner}/${file}\n`],
    ['NUL byte', `${owner}/${file}\0`],
    ['unicode', 'ä/b'],
    ['overlong segment', `${'a'.repeat(65)}/b`],
    ['empty string', ''],
  ])('refuses %s', (_name, key) => {
    expect(() => parseObjectKey(key)).toThrow(OBJECT_KEY_INVALID);
    expect(isValidObjectKey(key)).toBe(false);
  });

  it('refuses what is not a string', () => {
    for (const key of [undefined, null, 42, {}, ['a/b']]) {
      expect(isValidObjectKey(key)).toBe(false);
      expect(() => assertObjectKey(key)).toThrow(VaultError);
    }
  });

  it('throws a VALIDATION_FAILED VaultError', () => {
    try {
      parseObjectKey('../x');
      throw new Error('not thrown');
    } catch (err) {
      expect(err).toBeInstanceOf(VaultError);
      expect((err as VaultError).code).toBe(ErrorCode.VALIDATION_FAILED);
    }
  });
});

describe(objectKey.name, () => {
  it('builds the key of a file and of its thumbnail', () => {
    expect(objectKey(owner, file)).toBe(`${owner}/${file}`);
    expect(objectKey(owner, file, 'thumb')).toBe(`${owner}/${file}.thumb`);
  });

  it('refuses ids that would make an invalid key', () => {
    expect(() => objectKey('..', file)).toThrow(OBJECT_KEY_INVALID);
    expect(() => objectKey(owner, 'a/b')).toThrow(OBJECT_KEY_INVALID);
  });
});
