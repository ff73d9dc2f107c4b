import { SEALED_KEY_RE, SEALED_RE } from '@vault/contracts';

/** A contract pattern (anchored for whole values) made to find the value inside a line. */
const inLine = (re: RegExp): RegExp => new RegExp(`\\b${re.source.replace(/^\^|\$$/g, '')}\\b`, 'gi');

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Patterns for what a support report must never carry, in order: named secrets first (a cookie or
 * `key=` value whole), then what looks like a token, sealed value, id, address or key material.
 */
const PATTERNS: [RegExp, string][] = [
  // "vault_refresh=…", "Cookie: …", "authKey: …", "token=…", "Bearer …": the value goes, the name stays.
  [/\b(vault_[a-z_]+)=[^;\s]*/gi, '$1=<redacted>'],
  [/(?<![\w-])((?:set-)?cookie)\s*[:=]\s*.*/gi, '$1: <redacted>'],
  [
    /(?<![\w-])(auth[_-]?key|authKey|access[_-]?token|refresh[_-]?token|token|password|secret|wrapped[_-]?\w*key|key)(["']?\s*[:=]\s*)["']?[^\s,;"'}]+/gi,
    '$1$2<redacted>',
  ],
  [/\b(Bearer)\s+\S+/gi, '$1 <redacted>'],
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, '<token>'],
  [inLine(SEALED_KEY_RE), '<redacted>'],
  [inLine(SEALED_RE), '<redacted>'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<id>'],
  [/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, '<email>'],
  // Not after a slash: "Chrome/131.0.0.0" is a version.
  [/(?<![\w./-])(?:\d{1,3}\.){3}\d{1,3}(?![\w.])/g, '<ip>'],
  // IPv6: a "::" form, or five groups and more (a time like 18:50:48 has three).
  [
    /(?<![\w:])(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?(?![\w:])/gi,
    '<ip>',
  ],
  [/\b[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){4,7}\b/gi, '<ip>'],
  [/\b[0-9a-f]{16,}\b/gi, '<redacted>'],
  // base64url runs: random key material mixes cases and digits; ids like "crypto-truncated-stream" do not.
  [/(?=[\w-]*\d)(?=[\w-]*[a-z])(?=[\w-]*[A-Z])[\w-]{20,}={0,2}/g, '<redacted>'],
];

/**
 * One line with every secret the report could carry replaced: `secrets` are values known to be
 * the user's (e-mail, id, name), replaced wherever they appear; the patterns catch the rest.
 */
export function redact(line: string, secrets: readonly string[] = []): string {
  let out = line;
  for (const secret of secrets) {
    if (secret.trim().length >= 3) out = out.replace(new RegExp(escape(secret.trim()), 'gi'), '<redacted>');
  }
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}
