import { hmacSha256 } from '@vault/server-kit';
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomInt } from 'node:crypto';

/**
 * The short-lived secrets of recovery, as pure helpers. None of them is ever stored or logged
 * in clear: e-mail codes are kept as HMACs bound to the account, bypass tokens as SHA-256
 * digests, and a code waiting in the mail queue is sealed under a key derived from the
 * server secret.
 */

export const RECOVERY_CODE_DIGITS = 6;

/** A uniformly random 6-digit code (crypto.randomInt, no modulo bias), zero-padded. */
export function newRecoveryCode(): string {
  return randomInt(0, 10 ** RECOVERY_CODE_DIGITS)
    .toString()
    .padStart(RECOVERY_CODE_DIGITS, '0');
}

/**
 * HMAC-SHA256(server secret, userId + code). Bound to the account, so a code stored for one
 * user never matches for another; keyed, so a leaked Redis dump cannot be brute-forced over
 * the 10^6 codes without the secret.
 */
export function hashRecoveryCode(serverSecret: string, userId: string, code: string): string {
  return hmacSha256(serverSecret, `recovery-code:${userId}:${code}`).toString('hex');
}

/** 32 random bytes, base64url: the bearer secret of the 10-minute password reset. */
export function newBypassToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The bypass token's key in Redis: a high-entropy secret needs no salt or slow hash. */
export function hashBypassToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Subject of per-address counters: an HMAC, so Redis keys never carry an address in clear. */
export function emailSubject(serverSecret: string, email: string): string {
  return hmacSha256(serverSecret, `recovery-email:${email.trim().toLowerCase()}`)
    .subarray(0, 16)
    .toString('hex');
}

const JOB_KEY_INFO = 'vault:auth:mail-job:v1';

function jobKey(serverSecret: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), Buffer.alloc(0), JOB_KEY_INFO, 32),
  );
}

/** AES-256-GCM under HKDF(server secret): `hex(ciphertext||tag):hex(iv)`. */
export function sealForMailJob(serverSecret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', jobKey(serverSecret), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${body.toString('hex')}:${iv.toString('hex')}`;
}

/** The inverse of sealForMailJob; throws on any tampering or a different server secret. */
export function openMailJobSecret(serverSecret: string, sealed: string): string {
  const [bodyHex, ivHex] = sealed.split(':');
  if (!bodyHex || !ivHex || ivHex.length !== 24 || bodyHex.length < 32)
    throw new Error('Malformed sealed value');
  const body = Buffer.from(bodyHex, 'hex');
  const decipher = createDecipheriv('aes-256-gcm', jobKey(serverSecret), Buffer.from(ivHex, 'hex'));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

/** Resolves no earlier than `startedAt + floorMs`: equalises the answer time of known and unknown e-mails. */
export async function answerNotBefore(startedAt: number, floorMs: number, now = Date.now): Promise<void> {
  const wait = startedAt + floorMs - now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}
