import { randomBytes } from 'node:crypto';

/** A sealed field as the client sends it: `hex(ciphertext||tag):hex(iv)`, random bytes. */
export const sealed = (bytes = 24): string =>
  `${randomBytes(bytes + 16).toString('hex')}:${randomBytes(12).toString('hex')}`;
