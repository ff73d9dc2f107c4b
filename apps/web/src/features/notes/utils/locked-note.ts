/**
 * A note whose key does not open under the current vault key (its fields were never tried): after
 * an access reset without the recovery key, a note sealed under the old vault key. It is locked
 * rather than broken, and the old password unlocks it (the vault's legacy-keys banner). Every count
 * that mentions locked notes (the list header, the sidebar) uses this rule.
 */
export function isLockedNoteError(error: string): boolean {
  return /'vault:v1:note-key:[^']*': decryption failed/.test(error);
}
