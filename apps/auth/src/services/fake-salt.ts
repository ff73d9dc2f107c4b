import { hmacSha256 } from '@vault/server-kit';

/**
 * Prelogin's answer for an identifier that matches no account (crypto-protocol.md
 * "Account keys"): the first 16 bytes of HMAC-SHA256(server secret, lowercased identifier),
 * hex. Stable across calls and restarts, different per identifier, unguessable without
 * the secret.
 */
export function fakeSalt(serverSecret: string, identifier: string): string {
  return hmacSha256(serverSecret, identifier.trim().toLowerCase()).subarray(0, 16).toString('hex');
}

/** Lockout subject for an identifier with no account, so unknown ones lock out like real ones. */
export function unknownIdentifierSubject(serverSecret: string, identifier: string): string {
  const mac = hmacSha256(serverSecret, `lockout:${identifier.trim().toLowerCase()}`);
  return `x:${mac.subarray(0, 16).toString('hex')}`;
}
