import { ACCESS_TOKEN, ErrorCode, ROLES, VaultError, type RpcAuth } from '@vault/contracts';
import { importSPKI, jwtVerify, type KeyLike } from 'jose';

/** Small allowance for clock skew between auth and the gateway. */
export const CLOCK_TOLERANCE_SECONDS = 5;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TOKEN_RE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Verifies access tokens (docs/api.md "Authentication"): EdDSA only, so `alg: none` and an
 * HS256 token "signed" with the public key are refused; audience, issuer, exp and iat are
 * checked. Any failure is the same 401, so a caller learns nothing about why.
 */
export class JwtVerifier {
  private constructor(private readonly key: KeyLike) {}

  static async fromPem(spkiPem: string): Promise<JwtVerifier> {
    return new JwtVerifier(await importSPKI(spkiPem, 'EdDSA'));
  }

  async verify(token: string): Promise<RpcAuth> {
    if (token.length > 4096 || !TOKEN_RE.test(token)) throw unauthenticated();
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [...ACCESS_TOKEN.algorithms],
        audience: ACCESS_TOKEN.audience,
        issuer: ACCESS_TOKEN.issuer,
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      }));
    } catch {
      throw unauthenticated();
    }
    const { sub, sid, role, iat } = payload;
    // jose checks exp; a token "issued" in the future is refused here (auth sets the lifetime).
    if (typeof iat !== 'number' || iat > Date.now() / 1000 + CLOCK_TOLERANCE_SECONDS) throw unauthenticated();
    if (typeof sub !== 'string' || !UUID_RE.test(sub)) throw unauthenticated();
    if (typeof sid !== 'string' || !UUID_RE.test(sid)) throw unauthenticated();
    if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) throw unauthenticated();
    return { userId: sub, sessionId: sid, role: role as RpcAuth['role'] };
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
