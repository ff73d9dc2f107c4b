import type { Permission, Role } from '@vault/contracts';

/** The console's readable names for roles, permissions and audit actions, in one place. */

export const ROLE_LABELS: Record<Role, string> = { user: 'User', admin: 'Admin', super_admin: 'Super admin' };

const PERMISSION_LABELS: Record<Permission, string> = {
  'stats:read': 'See the overview statistics',
  'users:read': 'See accounts and their details',
  'users:lock': 'Lock and unlock accounts',
  'users:2fa': 'Remove two-step verification',
  'security:read': 'See security events',
  'sessions:read': 'See active sessions',
  'sessions:revoke': 'Revoke sessions',
  'system:read': 'See system health',
  'scans:manage': 'Retry failed malware scans',
  'audit:read': 'Read the audit log',
  'tests:run': 'Run the server test runner',
};

/** 'Lock and unlock accounts (users:lock)': the name the server knows stays visible. */
export const permissionLabel = (p: Permission): string => `${PERMISSION_LABELS[p]} (${p})`;

/** Every action the admin service writes to the audit log (apps/admin/src; a test checks the list). */
export const AUDIT_ACTION_LABELS: Readonly<Record<string, string>> = {
  'user.view': 'Viewed an account',
  'user.lock': 'Locked an account',
  'user.unlock': 'Unlocked an account',
  'user.remove-2fa': 'Removed two-step verification',
  'user.end-sessions': 'Ended all sessions of an account',
  'user.set-role': 'Changed a role',
  'session.revoke': 'Revoked a session',
  'session.revoke.owner': 'Revoked a session (its owner recorded)',
  'scan.retry': 'Retried a failed scan',
  'scan.rescan-all': 'Rescanned every file',
  'security-events.export': 'Exported security events',
  'test-run.start': 'Started a server test run',
  'test-run.stop': 'Stopped a server test run',
};

/** The outcomes AdminActions appends after an action's first entry. */
const OUTCOME_SUFFIXES: Readonly<Record<string, string>> = {
  failed: 'failed',
  unknown: 'outcome unknown',
};

/** An audit action's readable name; an action this build does not know shows as it is. */
export function auditActionLabel(action: string): string {
  const known = AUDIT_ACTION_LABELS[action];
  if (known) return known;
  const dot = action.lastIndexOf('.');
  const outcome = OUTCOME_SUFFIXES[action.slice(dot + 1)];
  const base = AUDIT_ACTION_LABELS[action.slice(0, dot)];
  return outcome && base ? `${base} (${outcome})` : action;
}
