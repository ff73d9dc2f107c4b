import { FILE_CHUNK_SIZE, FILE_MAX_BYTES, expectedEncryptedSize } from '@vault/contracts';
import { checkDeclaredFraming, checkStoredSize } from './framing';

describe('framing rules', () => {
  const C = FILE_CHUNK_SIZE;

  describe('declared sizes', () => {
    it.each([
      ['an empty file (one empty chunk)', 0, 16],
      ['one byte', 1, 17],
      ['exactly one chunk', C, C + 16],
      ['one byte into the second chunk', C + 1, C + 1 + 32],
      ['the largest file', FILE_MAX_BYTES, FILE_MAX_BYTES + 16 * 1600],
    ])('accepts %s', (_what, size, encryptedSize) => {
      expect(checkDeclaredFraming({ size, encryptedSize, chunkSize: C })).toBeNull();
      expect(expectedEncryptedSize(size, C)).toBe(encryptedSize);
    });

    it('refuses an encrypted size that does not match the chunk count', () => {
      expect(checkDeclaredFraming({ size: C + 1, encryptedSize: C + 17, chunkSize: C })).toBe(
        `Declared encrypted size is ${C + 17} bytes; ${C + 1} bytes in chunks of ${C} make ${C + 33}: ` +
          'the chunk framing does not match',
      );
    });

    it('refuses an empty file declared without its one tag', () => {
      expect(checkDeclaredFraming({ size: 0, encryptedSize: 0, chunkSize: C })).toContain('make 16');
    });

    it.each([0, -1, 1.5])('refuses chunk size %p', (chunkSize) => {
      expect(checkDeclaredFraming({ size: 10, encryptedSize: 26, chunkSize })).toBe(
        `Declared chunk size ${chunkSize} is not a positive whole number of bytes`,
      );
    });
  });

  describe('stored size', () => {
    it('accepts an object of exactly the declared size', () => {
      expect(checkStoredSize(456, 456)).toBeNull();
    });

    it.each([
      ['truncated', 123, 456],
      ['padded', 457, 456],
      ['empty', 0, 16],
    ])('refuses a %s object in plain words', (_what, stored, declared) => {
      expect(checkStoredSize(stored, declared)).toBe(
        `Stored object is ${stored} bytes; expected ${declared}: truncated or padded`,
      );
    });
  });
});
