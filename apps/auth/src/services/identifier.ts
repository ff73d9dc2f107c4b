import { PHONE_RE } from '@vault/contracts';

/**
 * Sign-in identifiers: a username or an e-mail address (both case-insensitive) or a phone
 * number (compared by its digits and leading +).
 */

/** Digits only, keeping a leading + when the number starts with one. */
export function normalizePhone(phone: string): string {
  const trimmed = phone.trim();
  const digits = trimmed.replace(/\D/g, '');
  return trimmed.startsWith('+') ? `+${digits}` : digits;
}

export interface IdentifierLookup {
  /** Lowercased, trimmed: compared with `username_lower` and `email`. */
  lower: string;
  /** Set when the identifier reads as a phone number. */
  phone: string | null;
}

export function toIdentifierLookup(identifier: string): IdentifierLookup {
  const trimmed = identifier.trim();
  const isPhone = PHONE_RE.test(trimmed) && /\d/.test(trimmed);
  return { lower: trimmed.toLowerCase(), phone: isPhone ? normalizePhone(trimmed) : null };
}

export interface IdentifierCandidate {
  usernameLower: string;
  email: string;
  phoneNormalized: string;
}

/**
 * The account an identifier names: a username match first, then an e-mail match, then a
 * phone match only when exactly one account has that number (phones are not unique).
 */
export function pickIdentifierMatch<T extends IdentifierCandidate>(
  candidates: readonly T[],
  lookup: IdentifierLookup,
): T | undefined {
  const byUsername = candidates.find((c) => c.usernameLower === lookup.lower);
  if (byUsername) return byUsername;
  const byEmail = candidates.find((c) => c.email === lookup.lower);
  if (byEmail) return byEmail;
  if (lookup.phone === null) return undefined;
  const byPhone = candidates.filter((c) => c.phoneNormalized === lookup.phone);
  return byPhone.length === 1 ? byPhone[0] : undefined;
}
