import { DEFAULT_KDF_PARAMS } from '@vault/contracts';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../api-client';
import { getMe } from './get-me';
import { KDF_REFUSED_MESSAGES, KdfParamsRefusedError } from './prelogin';

const USER = {
  id: '5b0c8a4e-1f2d-4c3b-9a8e-7d6c5b4a3f21',
  email: 'alice@example.com',
  username: 'alice',
  role: 'user',
  permissions: [],
  twoFactorEnabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
};
const answer = (kdfParams: unknown) => ({
  user: USER,
  vault: { salt: 'ab'.repeat(16), kdfParams, wrappedVaultKey: 'cd'.repeat(60) },
});
const api = (body: unknown) => ({ get: async () => body }) as unknown as ApiClient;

describe('getMe', () => {
  it('answers the account and its key material when the KDF parameters are in range', async () => {
    await expect(getMe(api(answer(DEFAULT_KDF_PARAMS)))).resolves.toEqual(answer(DEFAULT_KDF_PARAMS));
  });

  it.each([
    [{ kdf: 'argon2id', memoryKiB: 1024, iterations: 3, parallelism: 4 }, 'weak'],
    [{ kdf: 'argon2id', memoryKiB: 65536, iterations: 1000, parallelism: 4 }, 'costly'],
    [{ kdf: 'scrypt', N: 1 }, 'unknown'],
  ] as const)(
    'refuses %j at unlock with the sign-in words (%s), not "Unexpected response"',
    async (params, reason) => {
      const error = await getMe(api(answer(params))).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KdfParamsRefusedError);
      expect(error).toMatchObject({ reason, message: KDF_REFUSED_MESSAGES[reason] });
    },
  );

  it('still refuses any other malformed answer with the schema', async () => {
    await expect(getMe(api({ user: USER }))).rejects.toThrow('Unexpected response from server');
  });
});
