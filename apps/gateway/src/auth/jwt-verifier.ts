import { ACCESS_TOKEN, ErrorCode, ROLES, VaultError, type RpcAuth } from '@vault/contracts';
import { jwtKeyId } from '@vault/server-kit';
import { decodeProtectedHeader, importSPKI, jwtVerify, type KeyLike } from 'jose';

/** Small allowance for clock skew between auth and the gateway. */
export const CLOCK_TOLERANCE_SECONDS = 5;

/**
 * Verified tokens remembered at most (a few hundred bytes each): the access tokens of this many
 * active sessions within their 15 minutes.
 */
export const VERIFIED_TOKENS_KEPT = 10_000;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_RE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Verifies access tokens (docs/api.md "Authentication"): EdDSA only, so `alg: none` and an
 * HS256 token "signed" with the public key are refused; audience, issuer, exp and iat are
 * checked. Any failure is the same 401, so a caller learns nothing about why.
 *
 * It may hold several public keys (JWT_PUBLIC_KEY with more than one PEM block) while the signing
 * key is rotated: a token is verified with the key its `kid` names (the key's thumbprint, as auth
 * sets it), a token naming no key we hold is refused, and a token without a `kid` (signed before
 * auth set one) is tried against each key.
 *
 * A token that verified is remembered (the exact string, with the caller it names) until its `exp`
 * plus the clock tolerance, the moment jose would start refusing it: the same token sent again
 * skips the signature check, which was a tenth of the gateway's CPU per authenticated call
 * (bench/README.md "Load"). Nothing else about a token changes with time once it verified (`iat`
 * only gets older), and whether its session still lives is asked of Redis on every call
 * (JwtAuthGuard), so a revoked session is refused at once as before. At most `cacheSize` tokens
 * are kept, the oldest dropped first, and the expired ones leave as new tokens come.
 */
export class JwtVerifier {
  private readonly verified = new Map<string, { auth: RpcAuth; until: number }>();

  private constructor(
    private readonly keys: ReadonlyMap<string, KeyLike>,
    private readonly cacheSize: number,
  ) {}

  static async fromPems(
    spkiPems: readonly string[],
    { cacheSize = VERIFIED_TOKENS_KEPT }: { cacheSize?: number } = {},
  ): Promise<JwtVerifier> {
    const keys = new Map<string, KeyLike>();
    for (const pem of spkiPems) {
      const key = await importSPKI(pem, 'EdDSA');
      keys.set(await jwtKeyId(key), key);
    }
    return new JwtVerifier(keys, cacheSize);
  }

  static fromPem(spkiPem: string): Promise<JwtVerifier> {
    return JwtVerifier.fromPems([spkiPem]);
  }

  /** How many verified tokens are remembered now. */
  get remembered(): number {
    return this.verified.size;
  }

  async verify(token: string): Promise<RpcAuth> {
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.until) return { ...known.auth };
      this.verified.delete(token);
    }
    const { auth, exp } = await this.check(token);
    if (this.cacheSize > 0) {
      this.forgetExpired(Date.now());
      if (this.verified.size >= this.cacheSize) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { auth, until: (exp + CLOCK_TOLERANCE_SECONDS) * 1000 });
    }
    return { ...auth };
  }

  /**
   * Drops the expired tokens at the front. Tokens are remembered in the order they are first seen,
   * nearly always the order they expire in (auth gives every token the same lifetime), so the
   * tokens of ended and idle sessions leave within a lifetime instead of staying until the bound
   * pushes them out (a sign-in every few seconds filled the memory by ~1 KiB a token in the soak).
   * Each token is dropped once: the cost per new token stays constant.
   */
  private forgetExpired(now: number): void {
    for (const [token, { until }] of this.verified) {
      if (until > now) return;
      this.verified.delete(token);
    }
  }

  /** The full check: signature, claims, times. */
  private async check(token: string): Promise<{ auth: RpcAuth; exp: number }> {
    if (token.length > 4096 || !TOKEN_RE.test(token)) throw unauthenticated();
    let payload: Record<string, unknown> | undefined;
    for (const key of this.candidates(token)) {
      try {
        ({ payload } = await jwtVerify(token, key, {
          algorithms: [...ACCESS_TOKEN.algorithms],
          audience: ACCESS_TOKEN.audience,
          issuer: ACCESS_TOKEN.issuer,
          requiredClaims: ['sub', 'exp', 'iat'],
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
        }));
        break;
      } catch {
        // the next key, if the token names none
      }
    }
    if (!payload) throw unauthenticated();
    const { sub, sid, role, iat, exp } = payload;
    // jose checks exp; a token "issued" in the future is refused here (auth sets the lifetime).
    if (typeof iat !== 'number' || iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw unauthenticated();
    if (typeof sub !== 'string' || !UUID_RE.test(sub)) throw unauthenticated();
    if (typeof sid !== 'string' || !UUID_RE.test(sid)) throw unauthenticated();
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) throw unauthenticated();
    // jose checked that exp is a number (a required claim).
    if (typeof exp !== 'number') throw unauthenticated();
    return { auth: { userId: sub, sessionId: sid, role: role as RpcAuth['role'] }, exp };
  }

  /** The keys a token may be checked with: the one its `kid` names, or every key when it names none. */
  private candidates(token: string): KeyLike[] {
    // One key (no rotation under way): it decides alone, without reading the header twice.
    if (this.keys.size === 1) return [...this.keys.values()];
    let kid: unknown;
    try {
      ({ kid } = decodeProtectedHeader(token));
    } catch {
      return [];
    }
    if (kid === undefined) return [...this.keys.values()];
    const key = typeof kid === 'string' ? this.keys.get(kid) : undefined;
    return key ? [key] : [];
  }
}

function unauthenticated(): VaultError {
  return new VaultError(ErrorCode.UNAUTHENTICATED);
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
  return match?.[1];
}
