import { z } from 'zod';

/**
 * KDF parameters with the protocol's floors and ceilings (docs/crypto-protocol.md "Password KDF").
 * The server refuses weak parameters too, so a faulty client cannot store them.
 */
export const KDF_LIMITS = {
  argon2id: {
    minMemoryKiB: 19456,
    maxMemoryKiB: 1048576,
    minIterations: 2,
    maxIterations: 10,
    minParallelism: 1,
    maxParallelism: 16,
  },
  pbkdf2: { minIterations: 600000, maxIterations: 10000000 },
} as const;

const L = KDF_LIMITS;
const KDF_MESSAGE = 'Invalid KDF parameters';

export const argon2idParamsSchema = z.strictObject({
  kdf: z.literal('argon2id'),
  memoryKiB: z
    .number()
    .int()
    .min(L.argon2id.minMemoryKiB, KDF_MESSAGE)
    .max(L.argon2id.maxMemoryKiB, KDF_MESSAGE),
  iterations: z
    .number()
    .int()
    .min(L.argon2id.minIterations, KDF_MESSAGE)
    .max(L.argon2id.maxIterations, KDF_MESSAGE),
  parallelism: z
    .number()
    .int()
    .min(L.argon2id.minParallelism, KDF_MESSAGE)
    .max(L.argon2id.maxParallelism, KDF_MESSAGE),
});

export const pbkdf2ParamsSchema = z.strictObject({
  kdf: z.literal('pbkdf2-sha256'),
  iterations: z
    .number()
    .int()
    .min(L.pbkdf2.minIterations, KDF_MESSAGE)
    .max(L.pbkdf2.maxIterations, KDF_MESSAGE),
});

export const kdfParamsSchema = z.discriminatedUnion('kdf', [argon2idParamsSchema, pbkdf2ParamsSchema], {
  error: KDF_MESSAGE,
});
export type KdfParamsDto = z.infer<typeof kdfParamsSchema>;

export const DEFAULT_KDF_PARAMS: KdfParamsDto = {
  kdf: 'argon2id',
  memoryKiB: 65536,
  iterations: 3,
  parallelism: 4,
};
