import { expectedEncryptedSize } from '@vault/contracts';

/**
 * The checks a server can make on end-to-end encrypted bytes (docs/architecture.md
 * "Virus scanning of end-to-end encrypted files", docs/crypto-protocol.md "Content in chunks"):
 * the declared sizes agree with the chunk framing, and the stored object has exactly the declared
 * size. A truncated, padded or foreign object fails them.
 */
export interface DeclaredSizes {
  size: number;
  encryptedSize: number;
  chunkSize: number;
}

/** Null when the declared sizes agree with the framing; otherwise what is wrong, in words. */
export function checkDeclaredFraming(declared: DeclaredSizes): string | null {
  const { size, encryptedSize, chunkSize } = declared;
  if (!Number.isSafeInteger(chunkSize) || chunkSize <= 0) {
    return `Declared chunk size ${chunkSize} is not a positive whole number of bytes`;
  }
  if (!Number.isSafeInteger(size) || size < 0) {
    return `Declared size ${size} is not a whole number of bytes`;
  }
  const expected = expectedEncryptedSize(size, chunkSize);
  if (encryptedSize !== expected) {
    return (
      `Declared encrypted size is ${encryptedSize} bytes; ${size} bytes in chunks of ${chunkSize} ` +
      `make ${expected}: the chunk framing does not match`
    );
  }
  return null;
}

/** Null when the stored object has exactly the declared encrypted size. */
export function checkStoredSize(storedBytes: number, encryptedSize: number): string | null {
  if (storedBytes === encryptedSize) return null;
  return `Stored object is ${storedBytes} bytes; expected ${encryptedSize}: truncated or padded`;
}

export const OBJECT_MISSING = 'Stored object not found';
