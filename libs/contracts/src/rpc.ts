import type { Role } from './auth/user.schema';

/**
 * RPC message patterns, defined once (docs/architecture.md "How the parts talk"). Transport is
 * TCP by default, NATS by configuration; patterns and payloads are the same on both.
 */
export const AUTH_PATTERNS = {
  health: 'auth.health',
  prelogin: 'auth.prelogin',
  signup: 'auth.signup',
  login: 'auth.login',
  refresh: 'auth.refresh',
  logout: 'auth.logout',
  me: 'auth.me',
  changePassword: 'auth.change-password',
  listSessions: 'auth.sessions.list',
  revokeSession: 'auth.sessions.revoke',
  /** Re-checks the caller's authKey (file download/preview); a wrong one counts toward lockout. */
  verifyAuthKey: 'auth.verify-auth-key',
  /** Deletes the caller's account (authKey re-checked) and queues the purge of its data. */
  deleteAccount: 'auth.delete-account',
  /** Sign-in after a 418: identifier, username, phone number and authKey. */
  verifyEmergency: 'auth.verify-emergency',
  /** The caller's settings (the malware-fingerprint opt-in). */
  getSettings: 'auth.settings.get',
  updateSettings: 'auth.settings.update',
  // Two-factor authentication and backup codes (docs/api.md "Two-step verification").
  twoFactorEnable: 'auth.2fa.enable',
  twoFactorVerify: 'auth.2fa.verify',
  twoFactorDisable: 'auth.2fa.disable',
  backupCodesInfo: 'auth.2fa.backup-codes',
  backupCodesRegenerate: 'auth.2fa.backup-codes.regenerate',
  twoFactorLogin: 'auth.2fa.login',
  backupCodeLogin: 'auth.2fa.backup-login',
  // Account recovery (docs/api.md "Recovery").
  recoveryEmailCode: 'auth.recovery.email-code',
  recoveryVerifyEmail: 'auth.recovery.verify-email',
  recoverySetupKey: 'auth.recovery.setup-key',
  recoveryVerifyKey: 'auth.recovery.verify-key',
  recoverySetupQuestions: 'auth.recovery.setup-questions',
  securityQuestions: 'auth.recovery.security-questions',
  recoveryGetQuestions: 'auth.recovery.get-questions',
  recoveryVerifyQuestions: 'auth.recovery.verify-questions',
  recoveryReset: 'auth.recovery.reset',
  listLegacyKeys: 'auth.legacy-keys.list',
  deleteLegacyKey: 'auth.legacy-keys.delete',
  /** The caller's own security events (Settings → Security), newest first. */
  ownSecurityEvents: 'auth.security-events.list',
  // The admin console's sign-in (docs/api.md "Admin"): a session of its own, in an HttpOnly cookie.
  adminSignIn: 'auth.admin.sign-in',
  /** Checks the admin cookie's token and moves its idle end on: the admin, re-read from the database. */
  adminSession: 'auth.admin.session',
  adminSignOut: 'auth.admin.sign-out',
  // What the admin service asks auth (called with ctx.admin set; auth checks the permission again).
  adminStats: 'auth.admin.stats',
  adminActivity: 'auth.admin.activity',
  adminUsers: 'auth.admin.users',
  adminUser: 'auth.admin.user',
  adminLock: 'auth.admin.lock',
  adminUnlock: 'auth.admin.unlock',
  adminRemove2fa: 'auth.admin.remove-2fa',
  adminEndSessions: 'auth.admin.end-sessions',
  adminSetRole: 'auth.admin.set-role',
  adminEvents: 'auth.admin.events',
  adminSessions: 'auth.admin.sessions',
  adminRevokeSession: 'auth.admin.revoke-session',
} as const;
export type AuthPattern = (typeof AUTH_PATTERNS)[keyof typeof AUTH_PATTERNS];

export const NOTES_PATTERNS = {
  health: 'notes.health',
  list: 'notes.list',
  listDeleted: 'notes.list-deleted',
  create: 'notes.create',
  /** Creates 1..NOTE_BATCH_MAX_NOTES notes in one transaction (imports); idempotent per note like create. */
  createBatch: 'notes.create-batch',
  update: 'notes.update',
  /** Replaces only wrappedDEK (legacy-key re-wrap after a reset), active or trashed; updatedAt unchanged. */
  rewrapKey: 'notes.rewrap-key',
  remove: 'notes.delete',
  restore: 'notes.restore',
  purge: 'notes.delete-permanent',
  /** Permanently deletes every note in the caller's trash (the spec's "Empty Trash"). */
  emptyTrash: 'notes.empty-trash',
  /** Active and deleted counts (sidebar: "All Notes (n)", "Trash (n)"). */
  counts: 'notes.counts',
  /** The admin service's question: one owner's note counts, or everyone's. */
  adminCounts: 'notes.admin.counts',
} as const;
export type NotesPattern = (typeof NOTES_PATTERNS)[keyof typeof NOTES_PATTERNS];

export const FILES_PATTERNS = {
  health: 'files.health',
  storageTypes: 'files.storage-types',
  /** upload-url: records a pending file and signs an upload for its object. */
  createUpload: 'files.create-upload',
  /** Cloudinary direct upload: records a pending file and signs the upload parameters. */
  createCloudinaryUpload: 'files.create-cloudinary-upload',
  completeUpload: 'files.complete-upload',
  list: 'files.list',
  listDeleted: 'files.list-deleted',
  remove: 'files.delete',
  restore: 'files.restore',
  purge: 'files.delete-permanent',
  /** Replaces only wrappedKey (legacy-key re-wrap after a reset), active or trashed, never pending. */
  rewrapKey: 'files.rewrap-key',
  emptyTrash: 'files.empty-trash',
  counts: 'files.counts',
  /** Signs a 5-minute GET of the file's object (the gateway has re-checked authKey first). */
  downloadUrl: 'files.download-url',
  metadata: 'files.metadata',
  thumbnail: 'files.thumbnail',
  /** Removes every file and stored object of a user (account deletion). */
  purgeOwner: 'files.purge-owner',
  // The admin service's questions: counts and sizes, never a name or a key.
  adminCounts: 'files.admin.counts',
  adminFailedScans: 'files.admin.failed-scans',
  adminRetryScan: 'files.admin.retry-scan',
  adminRescanAll: 'files.admin.rescan-all',
  adminStorageHealth: 'files.admin.storage-health',
} as const;
export type FilesPattern = (typeof FILES_PATTERNS)[keyof typeof FILES_PATTERNS];

/**
 * The admin service (apps/admin): one pattern per `/api/admin` call. Each checks the actor's
 * permission again, records the action in the audit log before doing it, and asks auth, notes
 * and files for what it shows.
 */
export const ADMIN_PATTERNS = {
  health: 'admin.health',
  stats: 'admin.stats',
  activity: 'admin.activity',
  users: 'admin.users',
  user: 'admin.user',
  lock: 'admin.lock',
  unlock: 'admin.unlock',
  remove2fa: 'admin.remove-2fa',
  endSessions: 'admin.end-sessions',
  setRole: 'admin.set-role',
  bulk: 'admin.bulk',
  events: 'admin.events',
  eventsCsv: 'admin.events.csv',
  sessions: 'admin.sessions',
  revokeSession: 'admin.revoke-session',
  systemHealth: 'admin.system-health',
  failedScans: 'admin.scans.failed',
  retryScan: 'admin.scans.retry',
  rescanAll: 'admin.scans.rescan-all',
  auditList: 'admin.audit.list',
  auditVerify: 'admin.audit.verify',
  testRunnerStatus: 'admin.test-runner.status',
  testRunStart: 'admin.test-runner.start',
  testRunOutput: 'admin.test-runner.output',
  testRunStop: 'admin.test-runner.stop',
} as const;
export type AdminPattern = (typeof ADMIN_PATTERNS)[keyof typeof ADMIN_PATTERNS];

/** Who is calling, as the gateway established it. Never carries a body or a secret. */
export interface RpcAuth {
  userId: string;
  sessionId: string;
  role: Role;
}

/**
 * The admin behind an admin call, as the gateway's admin guard read it from the database for
 * this request (role and permissions are never taken from a token). Services do not trust the
 * role and permissions sent here: server-kit's readAdmin re-reads them from the live admin
 * session that `sessionKey` names and checks the permission again with `hasPermission`.
 */
export interface RpcAdmin {
  id: string;
  /** The admin's username, for the audit log. */
  label: string;
  role: Role;
  permissions: string[];
  /** The admin session's Redis key part (`admin-sess:{sessionKey}`): the token's SHA-256, not the token. */
  sessionKey: string;
}

export interface RpcContext {
  requestId: string;
  ip: string;
  userAgent: string;
  auth?: RpcAuth;
  admin?: RpcAdmin;
}

/** Every RPC request: the caller's context plus the validated body. */
export interface RpcRequest<T = undefined> {
  ctx: RpcContext;
  body: T;
}

/** A refresh cookie to set: auth returns it, the gateway turns it into Set-Cookie and strips it. */
export interface RefreshGrant {
  token: string;
  maxAgeSeconds: number;
}

/** Auth answers that start or continue a session carry the refresh grant beside the public body. */
export interface WithRefresh<T> {
  body: T;
  refresh?: RefreshGrant;
}

export interface RefreshRequestBody {
  refreshToken: string;
}

export interface HealthReply {
  service: string;
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  checks: Record<string, 'ok' | 'down'>;
  /** The service's package version (the admin console's system health). */
  version?: string;
  memory?: { rssBytes: number; heapUsedBytes: number; heapTotalBytes: number };
}
