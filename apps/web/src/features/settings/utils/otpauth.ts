/** What the otpauth URL carries that the user may type by hand (RFC 6238 key URI). */
export interface OtpauthDetails {
  secret: string;
  /** The account label (after the issuer prefix), e.g. the e-mail. */
  account: string;
  issuer: string;
}

/** Parses otpauth://totp/Issuer:account?secret=...&issuer=...; null when it is not one. */
export function parseOtpauthUrl(url: string): OtpauthDetails | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'otpauth:') return null;
  const secret = parsed.searchParams.get('secret');
  if (!secret || !/^[A-Z2-7]+=*$/i.test(secret)) return null;
  // The label is the path after the type ("//totp/Vault:alice%40example.org").
  const label = decodeURIComponent(parsed.pathname.replace(/^\/*(totp|hotp)\//i, '').replace(/^\/+/, ''));
  const colon = label.indexOf(':');
  const issuer = parsed.searchParams.get('issuer') ?? (colon >= 0 ? label.slice(0, colon) : '');
  const account = colon >= 0 ? label.slice(colon + 1) : label;
  return { secret: secret.toUpperCase(), account, issuer };
}

/** The secret in groups of four, easier to type into an authenticator app. */
export function groupSecret(secret: string): string {
  return (secret.replace(/=+$/, '').match(/.{1,4}/g) ?? []).join(' ');
}
