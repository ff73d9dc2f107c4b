import { formatDateTime } from './format';

/**
 * Readable texts for the security events of apps/auth/src/entities/security-event.entity.ts,
 * shared by the admin console's Security Events tab (`label`, about an account) and the user's
 * own "Recent security activity" in Settings (`own`, addressed to the user). The lists cannot be
 * imported from the auth service into the page; security-event-text.test.ts keeps them in step.
 */
const TEXTS = {
  signup: { label: 'Account created', own: 'You created your account' },
  signin_success: { label: 'Signed in', own: 'You signed in' },
  signin_failure: { label: 'Failed sign-in', own: 'A sign-in to your account failed' },
  account_locked: {
    label: 'Locked after failed sign-ins',
    own: 'Your account was locked after too many failed sign-ins',
  },
  refresh_reuse: {
    label: 'Reused session token (session ended)',
    own: 'A sign-in token was used twice, so that session was ended',
  },
  password_changed: { label: 'Password changed', own: 'Your password was changed' },
  logout: { label: 'Signed out', own: 'You signed out' },
  session_revoked: { label: 'Session revoked', own: 'You signed a device out' },
  reauth_failure: { label: 'Password confirmation failed', own: 'A password confirmation failed' },
  two_factor_enabled: { label: 'Two-step verification on', own: 'You turned on two-step verification' },
  two_factor_disabled: { label: 'Two-step verification off', own: 'You turned off two-step verification' },
  backup_codes_regenerated: { label: 'Backup codes regenerated', own: 'You generated new backup codes' },
  backup_code_used: { label: 'Backup code used', own: 'A backup code was used to sign in' },
  two_factor_failure: {
    label: 'Wrong two-step code',
    own: 'A wrong two-step verification code was entered',
  },
  account_deleted: { label: 'Account deleted', own: 'Your account was deleted' },
  emergency_verification_required: {
    label: 'Extra verification asked for',
    own: 'Unusual activity: extra verification was asked for',
  },
  emergency_verification_passed: { label: 'Extra verification passed', own: 'Extra verification passed' },
  emergency_verification_failed: { label: 'Extra verification failed', own: 'Extra verification failed' },
  settings_changed: { label: 'Settings changed', own: 'Your settings were changed' },
  recovery_code_sent: { label: 'Recovery code sent', own: 'A recovery code was sent to your e-mail' },
  recovery_code_failed: { label: 'Wrong recovery code', own: 'A wrong recovery code was entered' },
  recovery_verified: { label: 'Recovery verified', own: 'Account recovery was verified' },
  recovery_failed: { label: 'Recovery failed', own: 'An account recovery attempt failed' },
  recovery_key_set: { label: 'Recovery key created', own: 'You created a recovery key' },
  security_questions_set: { label: 'Security questions set', own: 'You saved your security questions' },
  password_reset: {
    label: 'Password reset by recovery',
    own: 'Your password was reset through account recovery',
  },
  legacy_key_deleted: {
    label: 'Old vault key deleted',
    own: 'A vault key from before an access reset was deleted',
  },
  role_changed: { label: 'Role changed', own: 'Your role was changed' },
  admin_signin_success: { label: 'Admin console sign-in', own: 'You signed in to the admin console' },
  admin_signin_failure: {
    label: 'Failed admin console sign-in',
    own: 'A sign-in to the admin console failed',
  },
  admin_signin_refused: {
    label: 'Admin console sign-in refused',
    own: 'A sign-in to the admin console was refused',
  },
  admin_signout: { label: 'Admin console sign-out', own: 'You signed out of the admin console' },
  admin_account_locked: {
    label: 'Locked by an administrator',
    own: 'An administrator locked your account',
  },
  admin_account_unlocked: {
    label: 'Unlocked by an administrator',
    own: 'An administrator unlocked your account',
  },
  admin_two_factor_removed: {
    label: 'Two-step verification removed by an administrator',
    own: 'An administrator removed your two-step verification',
  },
  admin_sessions_ended: {
    label: 'Sessions ended by an administrator',
    own: 'An administrator ended your sessions',
  },
  admin_session_revoked: {
    label: 'Session ended by an administrator',
    own: 'An administrator ended a session',
  },
  admin_role_changed: {
    label: 'Role changed by an administrator',
    own: 'An administrator changed your role',
  },
} as const satisfies Record<string, { label: string; own: string }>;

export type KnownSecurityEventType = keyof typeof TEXTS;

/** Every event type the auth service records, in its own order (the admin's type filter). */
export const SECURITY_EVENT_TYPES = Object.keys(TEXTS) as KnownSecurityEventType[];

type Details = Record<string, string | number | boolean | null>;

const isKnown = (type: string): type is KnownSecurityEventType => Object.hasOwn(TEXTS, type);

/** 'some_new_type' → 'Some new type': a type this build does not know still reads as words. */
const fromType = (type: string): string => {
  const words = type.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'Unknown event';
};

/** The short text of an event type, about an account (the admin's list and type filter). */
export function securityEventLabel(type: string): string {
  return isKnown(type) ? TEXTS[type].label : fromType(type);
}

/**
 * What the user reads about one of their own events: the sentence, and beside it what they need
 * to know about it (an administrator's reason, a lock's end, a role change).
 */
export function ownSecurityEventText(
  type: string,
  details: Details = {},
): { text: string; note: string | null } {
  const text = isKnown(type) ? TEXTS[type].own : fromType(type);
  const notes: string[] = [];
  if ((type === 'role_changed' || type === 'admin_role_changed') && typeof details.to === 'string') {
    notes.push(
      typeof details.from === 'string' ? `From ${details.from} to ${details.to}` : `Now ${details.to}`,
    );
  }
  if (type === 'admin_account_locked' && typeof details.until === 'string') {
    notes.push(`Locked until ${formatDateTime(details.until)}`);
  }
  // Only an administrator's reason is theirs to give; other events' `reason` is an internal code.
  if (type.startsWith('admin_') && typeof details.reason === 'string' && details.reason.trim()) {
    notes.push(`Reason: ${details.reason.trim()}`);
  }
  return { text, note: notes.length > 0 ? notes.join(' · ') : null };
}
