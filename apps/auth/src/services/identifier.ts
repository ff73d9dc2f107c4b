import { PHONE_RE } from '@vault/contracts';

/**
 * Sign-in identifiers. An identifier's shape alone decides what it names, never a lookup that
 * tries one column and then another: with an `@` it is an e-mail address; made of digits and
 * phone punctuation it is a phone number (compared in its normal form); anything else is a
 * username. Usernames must hold a letter (the sign-up schema), e-mail addresses and phone
 * numbers are unique, so every identifier names at most one account. See apps/auth/README.md
 * "Identifiers".
 */

/** Digits only, keeping a leading + when the number starts with one. */
export function normalizePhone(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

export type IdentifierKind = 'username' | 'email' | 'phone';

export interface IdentifierLookup {
  kind: IdentifierKind;
  /** The value compared: lowercased for usernames and e-mail, the normal form for phones. */
  value: string;
}

export function toIdentifierLookup(identifier: string): IdentifierLookup {
  const trimmed = identifier.trim();
  if (trimmed.includes('@')) return { kind: 'email', value: trimmed.toLowerCase() };
  if (PHONE_RE.test(trimmed) && /\d/.test(trimmed)) return { kind: 'phone', value: normalizePhone(trimmed) };
  return { kind: 'username', value: trimmed.toLowerCase() };
}

/**
 * One string per account an identifier could name, for what is derived from identifiers that
 * match no account (fake salts, lockout subjects): two spellings of one phone number must get
 * the same fake answer, as they would get the same real one.
 */
export function identifierKey(lookup: IdentifierLookup): string {
  return lookup.kind === 'phone' ? `phone:${lookup.value}` : lookup.value;
}
