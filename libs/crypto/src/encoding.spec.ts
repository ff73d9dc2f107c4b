import fc from 'fast-check';
import {
  base32Decode,
  base32Encode,
  bytesToHex,
  bytesToUtf8,
  hexToBytes,
  isHex,
  utf8ToBytes,
} from './encoding';
import { VaultCryptoError } from './errors';

describe('encoding', () => {
  describe('hex', () => {
    it('round-trips any bytes (property)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
          const h = bytesToHex(bytes);
          expect(h).toMatch(/^[0-9a-f]*$/);
          expect(hexToBytes(h)).toEqual(new Uint8Array(bytes));
        }),
        { numRuns: 200 },
      );
    });

    it('refuses upper case, odd length, non-hex and wrong length with BAD_INPUT', () => {
      for (const bad of ['ABCD', 'abc', 'zz', '0x00']) {
        expect(() => hexToBytes(bad)).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
      }
      expect(() => hexToBytes('00', 16, 'salt')).toThrow('salt must be 16 bytes (32 hex digits), got 1');
      expect(isHex('00ff')).toBe(true);
      expect(isHex('00F')).toBe(false);
    });

    it('decodes exactly what the lowercase-hex pattern accepts, as Node decodes it (property)', () => {
      // Digits, their upper case, neighbours in ASCII and characters whose low byte is a digit
      // ('\u0161' is 0x161: a decoder that masked codes to 7 or 8 bits would take it for 'a').
      const unit = fc.constantFrom(
        ...'0123456789abcdefABCDEF/:`g ',
        '\u0161',
        '\u0130',
        '\uff41',
        '\u{1F600}',
      );
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 40 }), (text) => {
          const valid = /^(?:[0-9a-f]{2})*$/.test(text);
          if (valid) expect(hexToBytes(text)).toEqual(new Uint8Array(Buffer.from(text, 'hex')));
          else expect(() => hexToBytes(text)).toThrow('must be lowercase hex with an even number of digits');
        }),
        { numRuns: 2_000, seed: 0x5ea1 },
      );
    });
  });

  describe('utf8', () => {
    it('round-trips well-formed strings (property)', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme', maxLength: 64 }), (s) => {
          expect(bytesToUtf8(utf8ToBytes(s))).toBe(s);
        }),
        { numRuns: 200 },
      );
    });

    it('encodes as TextEncoder does, short ASCII by hand and everything else by TextEncoder (property)', () => {
      const encoder = new TextEncoder();
      const text = fc.oneof(
        fc.string({ unit: 'binary-ascii', maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 64 }),
        fc.string({ unit: fc.constantFrom('a', '\u007f', '\u0080', '\u00e9', '\u{1F600}'), maxLength: 260 }),
      );
      fc.assert(
        fc.property(text, (s) => {
          expect(utf8ToBytes(s)).toEqual(encoder.encode(s));
        }),
        { numRuns: 500, seed: 0xa5c1 },
      );
      for (const n of [255, 256, 257])
        expect(utf8ToBytes('x'.repeat(n))).toEqual(encoder.encode('x'.repeat(n)));
      expect(() => utf8ToBytes('abc\uD800')).toThrow(/lone surrogate/);
    });

    it('refuses lone surrogates instead of writing U+FFFD', () => {
      expect(() => utf8ToBytes('a\uD800b')).toThrow(VaultCryptoError);
      expect(() => utf8ToBytes('\uDC00')).toThrow(/lone surrogate/);
      expect(bytesToHex(utf8ToBytes('\uD83E\uDD55'))).toBe('f09fa595');
    });

    it('refuses invalid UTF-8 when decoding', () => {
      expect(() => bytesToUtf8(new Uint8Array([0xc3, 0x28]))).toThrow(
        expect.objectContaining({ code: 'BAD_INPUT' }),
      );
    });
  });

  describe('base32 (RFC 4648, no padding)', () => {
    it('matches the RFC 4648 test vectors', () => {
      const cases: [string, string][] = [
        ['', ''],
        ['f', 'MY'],
        ['fo', 'MZXQ'],
        ['foo', 'MZXW6'],
        ['foob', 'MZXW6YQ'],
        ['fooba', 'MZXW6YTB'],
        ['foobar', 'MZXW6YTBOI'],
      ];
      for (const [plain, b32] of cases) {
        expect(base32Encode(utf8ToBytes(plain))).toBe(b32);
        expect(bytesToUtf8(base32Decode(b32))).toBe(plain);
      }
    });

    it('round-trips any bytes (property)', () => {
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 128 }), (bytes) => {
          const text = base32Encode(bytes);
          expect(text).toMatch(/^[A-Z2-7]*$/);
          expect(base32Decode(text)).toEqual(new Uint8Array(bytes));
        }),
        { numRuns: 200 },
      );
    });

    it('refuses characters outside the alphabet, impossible lengths and non-canonical tails', () => {
      expect(() => base32Decode('MZXW0')).toThrow(/"0" at position 5, which is not base32/);
      expect(() => base32Decode('M')).toThrow(/impossible length/);
      expect(() => base32Decode('MZ')).toThrow(/non-zero padding bits/);
      expect(() => base32Decode('mzxq')).toThrow(expect.objectContaining({ code: 'BAD_INPUT' }));
    });
  });
});
