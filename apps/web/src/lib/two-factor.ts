/** Spec section 5, "Sign-in": the code step's inputs and messages. */
export const TWO_FACTOR_MESSAGES = {
  code: 'Please enter the 6-digit verification code',
  backupCode: 'Please enter a backup code',
  emergencyFields: 'Please fill in all verification fields',
  invalidCode: 'Invalid verification code',
  invalidBackupCode: 'Invalid backup code',
  emergencyFailed: 'Emergency verification failed',
} as const;

export const CODE_LENGTH = 6;
export const BACKUP_CODE_MAX_LENGTH = 9;

/** The code input keeps digits only, at most 6. */
export function sanitizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, CODE_LENGTH);
}

export function isValidCode(code: string): boolean {
  return /^\d{6}$/.test(code);
}

/** The backup-code input is uppercased and limited to A-F, 0-9 and hyphen, at most 9 characters (XXXX-XXXX). */
export function sanitizeBackupCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[^A-F0-9-]/g, '')
    .slice(0, BACKUP_CODE_MAX_LENGTH);
}
