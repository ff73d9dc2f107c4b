import { hmacSha256 } from '@vault/server-kit';
import { identifierKey, toIdentifierLookup } from './identifier';

/** The identifier as it names an account: two spellings of one phone number are one key. */
const keyOf = (identifier: string): string => identifierKey(toIdentifierLookup(identifier));

/**
 * Prelogin's answer for an identifier that matches no account (docs/crypto-protocol.md
 * "Account keys"): the first 16 bytes of HMAC-SHA256(server secret, identifier key), hex: the
 * lowercased identifier, or `phone:` and the number's normal form. Stable across calls and
 * restarts, different per account an identifier could name, unguessable without the secret.
 */
export function fakeSalt(serverSecret: string, identifier: string): string {
  return hmacSha256(serverSecret, keyOf(identifier)).subarray(0, 16).toString('hex');
}

/** Lockout subject for an identifier with no account, so unknown ones lock out like real ones. */
export function unknownIdentifierSubject(serverSecret: string, identifier: string): string {
  const mac = hmacSha256(serverSecret, `lockout:${keyOf(identifier)}`);
  return `x:${mac.subarray(0, 16).toString('hex')}`;
}
