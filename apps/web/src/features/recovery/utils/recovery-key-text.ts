/** A recovery key as typed: 52 base32 characters (A-Z, 2-7); dashes, spaces and case do not matter. */
export const RECOVERY_KEY_CHARS = 52;

export function compactRecoveryKey(text: string): string {
  return text.replace(/[\s-]+/g, '').toUpperCase();
}

export function looksLikeRecoveryKey(text: string): boolean {
  return /^[A-Z2-7]{52}$/.test(compactRecoveryKey(text));
}
