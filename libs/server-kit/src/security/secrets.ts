import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import argon2 from 'argon2';

/**
 * Server-side secret handling. The end-to-end protocol lives in @vault/crypto and runs on
 * clients; these are the server's own one-way hashes and tokens, which never see plaintext.
 */

/** Constant-time equality of two strings (length leak only). */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ba.length !== bb.length) {
    timingSafeEqual(ba, ba);
    return false;
  }
  return timingSafeEqual(ba, bb);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmacSha256(key: string | Buffer, value: string): Buffer {
  return createHmac('sha256', key).update(value, 'utf8').digest();
}

export interface SecretHashParams {
  memoryKiB: number;
  iterations: number;
  parallelism: number;
}

/**
 * OWASP's Argon2id minimum. The secrets hashed here (authKey, recoveryAuth, answersAuth)
 * are already outputs of a memory-hard KDF on the client, so the server hash guards a
 * stolen database without making sign-in a denial-of-service lever.
 */
export const DEFAULT_SECRET_HASH: SecretHashParams = { memoryKiB: 19456, iterations: 2, parallelism: 1 };

/** Argon2id (native, off the event loop) with its own random salt; PHC string out. */
export class SecretHasher {
  private dummy?: Promise<string>;

  constructor(private readonly params: SecretHashParams = DEFAULT_SECRET_HASH) {}

  hash(secret: string): Promise<string> {
    return argon2.hash(secret, {
      type: argon2.argon2id,
      memoryCost: this.params.memoryKiB,
      timeCost: this.params.iterations,
      parallelism: this.params.parallelism,
    });
  }

  async verify(encoded: string, secret: string): Promise<boolean> {
    try {
      return await argon2.verify(encoded, secret);
    } catch {
      return false;
    }
  }

  /** Spends the same time as a real verify, so unknown accounts are not told apart by timing. */
  async verifyDummy(secret: string): Promise<false> {
    this.dummy ??= this.hash(randomToken());
    await this.verify(await this.dummy, secret);
    return false;
  }
}
