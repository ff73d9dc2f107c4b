import { DEFAULT_KDF_PARAMS } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api-client';
import { KDF_REFUSED_MESSAGES, KdfParamsRefusedError, kdfRefusal, prelogin } from './prelogin';

const FLOOR = { kdf: 'argon2id', memoryKiB: 19456, iterations: 2, parallelism: 1 };
const CEILING = { kdf: 'argon2id', memoryKiB: 1048576, iterations: 10, parallelism: 16 };

describe(kdfRefusal.name, () => {
  it.each([DEFAULT_KDF_PARAMS, FLOOR, CEILING, { kdf: 'pbkdf2-sha256', iterations: 600000 }])(
    'accepts the protocol range: %j',
    (params) => expect(kdfRefusal(params)).toBeNull(),
  );

  it.each([
    [{ ...FLOOR, memoryKiB: 19455 }, 'weak'],
    [{ ...FLOOR, iterations: 1 }, 'weak'],
    [{ kdf: 'pbkdf2-sha256', iterations: 599999 }, 'weak'],
    // Weakening is the worse lie: said even when another value is absurd.
    [{ ...CEILING, iterations: 1, memoryKiB: 1 << 30 }, 'weak'],
    [{ ...CEILING, memoryKiB: 1048577 }, 'costly'],
    [{ ...CEILING, iterations: 11 }, 'costly'],
    [{ ...CEILING, parallelism: 17 }, 'costly'],
    [{ kdf: 'pbkdf2-sha256', iterations: 10000001 }, 'costly'],
    [{ kdf: 'scrypt', N: 16384 }, 'unknown'],
    [{ ...FLOOR, extra: 1 }, 'unknown'],
    [{ ...FLOOR, memoryKiB: 20000.5 }, 'unknown'],
    [{ kdf: 'argon2id' }, 'unknown'],
    [null, 'unknown'],
    ['argon2id', 'unknown'],
    [undefined, 'unknown'],
  ])('refuses %j as %s', (params, reason) => expect(kdfRefusal(params)).toBe(reason));
});

describe(prelogin.name, () => {
  const api = (answer: unknown) => ({ post: async () => answer }) as unknown as ApiClient;

  it('answers the salt and the parameters when they are in range', async () => {
    const answer = { salt: 'ab'.repeat(16), kdfParams: DEFAULT_KDF_PARAMS };
    await expect(prelogin(api(answer), 'alice')).resolves.toEqual(answer);
  });

  it('throws KdfParamsRefusedError, saying which way the parameters were wrong', async () => {
    const answer = { salt: 'ab'.repeat(16), kdfParams: { ...FLOOR, memoryKiB: 1024 } };
    const error = await prelogin(api(answer), 'alice').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KdfParamsRefusedError);
    expect(error).toMatchObject({ reason: 'weak', message: KDF_REFUSED_MESSAGES.weak });
    await expect(prelogin(api({ salt: 'ab'.repeat(16) }), 'alice')).rejects.toMatchObject({
      reason: 'unknown',
    });
  });
});
