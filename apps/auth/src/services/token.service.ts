import { ACCESS_TOKEN, type AccessTokenClaims, type Role } from '@vault/contracts';
import { importPKCS8, importSPKI, jwtVerify, SignJWT, type KeyLike } from 'jose';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { jwtKeyId } from '@vault/server-kit';
import type { AuthConfig } from '../config/auth.config';

const ALG = 'EdDSA';

export interface AccessTokenSubject {
  userId: string;
  sessionId: string;
  role: Role;
}

/**
 * Access tokens: EdDSA (Ed25519) JWTs with the claims of `AccessTokenClaims`. Keys are
 * imported once at boot, and the pair is checked to match, so a misconfigured key stops the
 * service instead of minting tokens the gateway would refuse. Each token names its key (`kid`,
 * the public key's thumbprint), so the gateway can verify with the old and the new key while the
 * signing key is rotated.
 */
export class TokenService {
  private constructor(
    private readonly privateKey: KeyLike,
    private readonly publicKey: KeyLike,
    private readonly keyId: string,
    private readonly ttlSeconds: number,
  ) {}

  static async create(jwt: AuthConfig['jwt']): Promise<TokenService> {
    const privateKey = await importEd25519(
      jwt.privateKeyPem,
      (pem) => createPrivateKey(pem),
      importPKCS8,
      'JWT_PRIVATE_KEY is not an Ed25519 PKCS8 private key',
    );
    const publicKey = await importEd25519(
      jwt.publicKeyPem,
      (pem) => createPublicKey(pem),
      importSPKI,
      'JWT_PUBLIC_KEY is not an Ed25519 SPKI public key',
    );
    const service = new TokenService(privateKey, publicKey, await jwtKeyId(publicKey), jwt.accessTtlSeconds);
    const probe = await service.sign({ userId: 'probe', sessionId: 'probe', role: 'user' });
    try {
      await service.verify(probe);
    } catch {
      throw new Error('JWT_PUBLIC_KEY does not match JWT_PRIVATE_KEY');
    }
    return service;
  }

  get accessTtlSeconds(): number {
    return this.ttlSeconds;
  }

  sign(subject: AccessTokenSubject, nowSeconds = Math.floor(Date.now() / 1000)): Promise<string> {
    return new SignJWT({ sid: subject.sessionId, role: subject.role })
      .setProtectedHeader({ alg: ALG, typ: 'JWT', kid: this.keyId })
      .setSubject(subject.userId)
      .setAudience(ACCESS_TOKEN.audience)
      .setIssuer(ACCESS_TOKEN.issuer)
      .setIssuedAt(nowSeconds)
      .setExpirationTime(nowSeconds + this.ttlSeconds)
      .sign(this.privateKey);
  }

  /** Verifies as the gateway does (algorithm, audience, issuer, expiry). */
  async verify(token: string): Promise<AccessTokenClaims> {
    const { payload } = await jwtVerify(token, this.publicKey, {
      algorithms: [...ACCESS_TOKEN.algorithms],
      audience: ACCESS_TOKEN.audience,
      issuer: ACCESS_TOKEN.issuer,
    });
    return payload as unknown as AccessTokenClaims;
  }
}

async function importEd25519(
  pem: string,
  parse: (pem: string) => KeyObject,
  importKey: (pem: string, alg: string) => Promise<KeyLike>,
  problem: string,
): Promise<KeyLike> {
  try {
    // EdDSA would also take Ed448; the contract says Ed25519.
    if (parse(pem).asymmetricKeyType !== 'ed25519') throw new Error(problem);
    return await importKey(pem, ALG);
  } catch {
    throw new Error(problem);
  }
}
