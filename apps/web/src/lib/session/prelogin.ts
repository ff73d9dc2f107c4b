import { KDF_LIMITS, kdfParamsSchema, preloginResponseSchema, type PreloginResponse } from '@vault/contracts';
import type { ApiClient } from '../api-client';
import { parseResponse } from '../parse-response';

/** Why a prelogin's KDF parameters were refused: below a floor, above a ceiling, or not a KDF of the protocol. */
export type KdfRefusal = 'weak' | 'costly' | 'unknown';

const AFTER = 'so your password was not used and nothing was sent.';

/** What the sign-in screen, the file password prompt and the admin sign-in say for each refusal. */
export const KDF_REFUSED_MESSAGES: Record<KdfRefusal, string> = {
  weak: `The server asked for key-derivation settings too weak to protect your password (below the protocol's minimum), ${AFTER}`,
  costly: `The server asked for key-derivation settings too costly for this device (above the protocol's maximum), ${AFTER}`,
  unknown: `The server asked for an unknown or malformed key-derivation method, ${AFTER}`,
};

/** The prelogin answer named KDF parameters this client refuses (docs/crypto-protocol.md "Password KDF"). */
export class KdfParamsRefusedError extends Error {
  constructor(readonly reason: KdfRefusal) {
    super(KDF_REFUSED_MESSAGES[reason]);
    this.name = 'KdfParamsRefusedError';
  }
}

type Bounds = Record<string, { min: number; max: number }>;

const A = KDF_LIMITS.argon2id;
const BOUNDS: Record<string, Bounds> = {
  argon2id: {
    memoryKiB: { min: A.minMemoryKiB, max: A.maxMemoryKiB },
    iterations: { min: A.minIterations, max: A.maxIterations },
    parallelism: { min: A.minParallelism, max: A.maxParallelism },
  },
  'pbkdf2-sha256': {
    iterations: { min: KDF_LIMITS.pbkdf2.minIterations, max: KDF_LIMITS.pbkdf2.maxIterations },
  },
};

/**
 * Null for parameters of the protocol's range (the contract's schema); otherwise why not. A value
 * below a floor is 'weak' even when another is above a ceiling: weakening is the worse lie.
 */
export function kdfRefusal(params: unknown): KdfRefusal | null {
  if (kdfParamsSchema.safeParse(params).success) return null;
  if (typeof params !== 'object' || params === null) return 'unknown';
  const given = params as Record<string, unknown>;
  const bounds = typeof given['kdf'] === 'string' ? BOUNDS[given['kdf']] : undefined;
  if (!bounds) return 'unknown';
  const values = Object.entries(bounds).map(([field, range]) => ({ value: given[field], range }));
  if (values.some(({ value, range }) => typeof value === 'number' && value < range.min)) return 'weak';
  if (values.some(({ value, range }) => typeof value === 'number' && value > range.max)) return 'costly';
  return 'unknown';
}

/**
 * POST /api/auth/prelogin: the account's salt and KDF parameters (a stable fake for unknown
 * identifiers). Parameters outside the protocol's floors and ceilings are refused here, before the
 * password reaches the KDF (a hostile server can neither weaken nor freeze the derivation), with
 * KdfParamsRefusedError saying which way they were wrong.
 */
export async function prelogin(api: ApiClient, identifier: string): Promise<PreloginResponse> {
  const data = await api.post<unknown>('/auth/prelogin', { identifier });
  const kdfParams =
    typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['kdfParams'] : undefined;
  const refusal = kdfRefusal(kdfParams);
  if (refusal) throw new KdfParamsRefusedError(refusal);
  return parseResponse(preloginResponseSchema, data);
}
