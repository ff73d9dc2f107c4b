/** Spec section 9: a lockout after 5 consecutive failed sign-ins lasts 600 s unless the answer says (retryAfter). */
export const DEFAULT_LOCKOUT_SECONDS = 600;
/** Spec section 8: the lockout's title, on every screen that signs in. */
export const LOCKOUT_TITLE = 'Account Temporarily Locked';
