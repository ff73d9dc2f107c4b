import { BACKUP_CODE_COUNT, BACKUP_CODES_WARN_AT, TOTP_PARAMS } from '@vault/contracts';
import { randomBytes } from 'node:crypto';
import { generateURI, verify } from 'otplib';

/**
 * The formats of the second factor (pure; no storage): TOTP codes checked with otplib 13
 * (RFC 6238, SHA-1, 6 digits, 30 s) and backup codes (8 characters A-F0-9, shown XXXX-XXXX).
 */

const TOTP_CODE_RE = /^\d{6}$/;
const BACKUP_CODE_RE = /^[A-F0-9]{8}$/;

/** Authenticator apps show "123 456": spaces are dropped, anything else is not a code. */
export function normalizeTotpCode(input: string): string | null {
  const code = input.replace(/\s+/g, '');
  return TOTP_CODE_RE.test(code) ? code : null;
}

/** Accepts `xxxx-xxxx`, `XXXXXXXX` and surrounding spaces; null when it cannot be a backup code. */
export function normalizeBackupCode(input: string): string | null {
  const code = input.trim().replace(/-/g, '').toUpperCase();
  return BACKUP_CODE_RE.test(code) ? code : null;
}

/** `ABCD1234` → `ABCD-1234`. */
export function formatBackupCode(normalized: string): string {
  return `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
}

/** A fresh set of distinct codes (normalized form), 32 random bits each. */
export function generateBackupCodes(count: number = BACKUP_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(randomBytes(4).toString('hex').toUpperCase());
  return [...codes];
}

/** The warning a backup-code sign-in carries when few codes are left, else undefined. */
export function backupCodesWarning(remaining: number): string | undefined {
  if (remaining > BACKUP_CODES_WARN_AT) return undefined;
  const noun = remaining === 1 ? 'backup code' : 'backup codes';
  return `You have ${remaining} ${noun} left. Generate new ones in Settings.`;
}

export function otpauthUrl(secret: string, label: string): string {
  return generateURI({
    issuer: TOTP_PARAMS.issuer,
    label,
    secret,
    digits: TOTP_PARAMS.digits,
    period: TOTP_PARAMS.periodSeconds,
  });
}

/** Time step of an epoch (seconds). */
export function totpTimeStep(epochSeconds: number): number {
  return Math.floor(epochSeconds / TOTP_PARAMS.periodSeconds);
}

export type TotpCheck = { valid: false } | { valid: true; timeStep: number };

/**
 * Checks a code against the secret at `epochSeconds`, accepting the previous and the next
 * step too (clock drift); ±2 steps and beyond are refused. On success, the time step the
 * code belongs to: the caller marks it used so a code works at most once.
 */
export async function checkTotp(secret: string, code: string, epochSeconds: number): Promise<TotpCheck> {
  const token = normalizeTotpCode(code);
  if (!token) return { valid: false };
  const result = await verify({
    secret,
    token,
    epoch: epochSeconds,
    // In seconds: ±30 s always covers exactly the neighbouring steps and never ±2.
    epochTolerance: TOTP_PARAMS.periodSeconds * TOTP_PARAMS.toleranceSteps,
  });
  if (!result.valid) return { valid: false };
  const timeStep = 'timeStep' in result ? result.timeStep : totpTimeStep(epochSeconds) + result.delta;
  return { valid: true, timeStep };
}
