import { z } from 'zod';

/** Lowercase UUID v4: ids of notes and files are made by the client (docs/crypto-protocol.md "Notation"). */
export const UUID_V4_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** `hex(ciphertext || tag) + ":" + hex(iv)`, iv 12 bytes. */
export const SEALED_RE = /^[0-9a-f]+:[0-9a-f]{24}$/;
export const HEX_RE = /^[0-9a-f]*$/;

export const uuidV4 = z.string().regex(UUID_V4_RE, 'Invalid id');
export const sealed = (message = 'Invalid encrypted value') =>
  z
    .string()
    .max(2 * 1024 * 1024)
    .regex(SEALED_RE, message);
export const hexBytes = (bytes: number, message: string) =>
  z
    .string()
    .length(bytes * 2, message)
    .regex(HEX_RE, message);

/** A sealed 32-byte key: 32 bytes + 16 tag bytes of ciphertext. */
export const SEALED_KEY_RE = /^[0-9a-f]{96}:[0-9a-f]{24}$/;
export const sealedKey = (message = 'Invalid wrapped key') => z.string().regex(SEALED_KEY_RE, message);
