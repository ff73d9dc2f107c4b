/**
 * Spec section 4, "Recovery flow": a verified recovery stores its bypass token in session storage
 * (this tab only, gone when it closes) and a temporary user with the id 'temp-recovery' until the new
 * password is set. The token is single use and lives 10 minutes on the server.
 */
export const RECOVERY_BYPASS_KEY = 'recoveryBypassToken';
export const RECOVERY_USER_KEY = 'recoveryUser';
export const TEMP_RECOVERY_USER_ID = 'temp-recovery';

export interface TempRecoveryUser {
  id: typeof TEMP_RECOVERY_USER_ID;
  email: string;
  /** When the bypass token stops working (ms since the epoch). */
  expiresAt: number;
}

function sessionStore(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

export function storeRecoveryBypass(token: string, email: string, expiresAt: number): TempRecoveryUser {
  const user: TempRecoveryUser = { id: TEMP_RECOVERY_USER_ID, email, expiresAt };
  const store = sessionStore();
  try {
    store?.setItem(RECOVERY_BYPASS_KEY, token);
    store?.setItem(RECOVERY_USER_KEY, JSON.stringify(user));
  } catch {
    // Storage full or blocked: the flow keeps the token in memory and still works in this page.
  }
  return user;
}

export function clearRecoveryBypass(): void {
  const store = sessionStore();
  try {
    store?.removeItem(RECOVERY_BYPASS_KEY);
    store?.removeItem(RECOVERY_USER_KEY);
  } catch {
    // Nothing to clear.
  }
}
