import { z } from 'zod';
import { uuidV4 } from '../common/formats';
import { plainText, strictBody } from '../common/validation';
import { PERMISSIONS, ROLES } from '../auth/user.schema';

/**
 * The admin console's HTTP API (docs/api.md "Admin"): what `/api/admin/*` takes and answers.
 * Admins see accounts, sessions, security events and health; never a note, a file name, a key,
 * a wrapped key, a hash or a ciphertext. Counts and sizes only.
 */

/** Limits of the admin API. */
export const ADMIN_LIMITS = {
  /** Users per page (the spec's list shows 10). */
  usersPageMax: 100,
  /** Security events per page (the spec's list shows 20). */
  eventsPageMax: 200,
  sessionsPageMax: 200,
  auditPageMax: 200,
  /** Rows of one CSV export of security events. */
  eventsCsvMax: 10_000,
  searchMax: 254,
  reasonMax: 500,
  /** Lock duration in minutes: at most one year. */
  lockMinutesMax: 525_600,
  /** Accounts in one bulk action. */
  bulkMax: 100,
  /** Recent events in a user's details. */
  userEventsShown: 20,
  /** Hours of the activity chart (7 days). */
  activityHours: 168,
} as const;

export const ADMIN_MESSAGES = {
  /** The spec's admin sign-in texts (section 8 "Admin login"); the 403s' texts are ERROR_INFO's. */
  loginFailed: 'Login failed',
  adminLoginFailed: 'Admin login failed',
  enterCode: 'Please enter your 2FA code',
  /** The admin API's 401: its session is the console's own, never the vault's bearer token. */
  signInRequired: 'Admin sign-in required: the admin console has a session of its own',
  superAdminOnly: 'Only a super admin can change roles and permissions',
  notYourself: 'You cannot change your own role, lock yourself or end your own admin session here',
  superAdminTarget: 'Only a super admin can act on a super admin account',
  lastSuperAdmin: 'At least one super admin must remain able to sign in',
  confirmMismatch: "Type the account's username to confirm",
  reasonRequired: 'Please give a reason',
  duration: `Duration must be a whole number of minutes from 1 to ${ADMIN_LIMITS.lockMinutesMax}`,
  userNotFound: 'User not found',
  /** The 423 of a sign-in to an account an administrator locked (its body says `lockedBy: 'admin'`). */
  lockedByAdmin: 'This account has been locked by an administrator',
  sessionNotFound: 'Session not found',
  scanJobNotFound: 'No failed scan for this file',
  invalidCursor: 'Invalid cursor',
  invalidRange: 'The start of the range must be before its end',
} as const;

/** The admin's sign-in cookie (HttpOnly, SameSite=Strict, scoped to the admin API). */
export const ADMIN_COOKIE = { name: 'vault_admin', path: '/api/admin' } as const;

const reason = plainText(ADMIN_MESSAGES.reasonRequired)
  .trim()
  .min(1, ADMIN_MESSAGES.reasonRequired)
  .max(ADMIN_LIMITS.reasonMax, `Reason must be at most ${ADMIN_LIMITS.reasonMax} characters`);
const cursor = plainText(ADMIN_MESSAGES.invalidCursor).max(200, ADMIN_MESSAGES.invalidCursor);
const pageLimit = (max: number, fallback: number) =>
  z.coerce.number().int().min(1).max(max).default(fallback);
// Years 1970-9999 only: Postgres has no year 0000 (a 500, not a 400) and nothing here predates 1970.
const isoDate = z.iso
  .datetime({ offset: true, error: 'Invalid date' })
  .refine((v) => Number(v.slice(0, 4)) >= 1970, 'Invalid date');

// ---------------------------------------------------------------------------------------------
// Who is signed in to the console

/** The admin as the console knows it: no secret, no hash. */
export const adminIdentitySchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  permissions: z.array(z.enum(PERMISSIONS)),
});
export type AdminIdentity = z.infer<typeof adminIdentitySchema>;

/** `POST /api/admin/session` signed in, and `GET /api/admin/session`. */
export const adminSessionResponseSchema = z.object({
  admin: adminIdentitySchema,
  /** When the session ends whatever happens (ISO). */
  expiresAt: z.string(),
  /** When it ends unless used before (ISO); every admin call moves it on. */
  idleExpiresAt: z.string(),
});
export type AdminSessionResponse = z.infer<typeof adminSessionResponseSchema>;

/** An admin session's Redis key part (`admin-sess:{key}`): the SHA-256 (hex) of its token. */
export const adminSessionKeySchema = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * auth's answer to the gateway's session check (internal, never an HTTP body): the console's view
 * plus the session's key, which the gateway passes on in ctx.admin so services can re-check it.
 */
export const adminSessionCheckReplySchema = z.object({
  session: adminSessionResponseSchema,
  key: adminSessionKeySchema,
});
export type AdminSessionCheckReply = z.infer<typeof adminSessionCheckReplySchema>;

// ---------------------------------------------------------------------------------------------
// Stats and activity

export const adminStatsSchema = z.object({
  totalUsers: z.number().int().min(0),
  /** Signed in within 30 days. */
  activeUsers: z.number().int().min(0),
  lockedUsers: z.number().int().min(0),
  totalFiles: z.number().int().min(0),
  totalNotes: z.number().int().min(0),
  storedBytes: z.number().int().min(0),
  activeSessions: z.number().int().min(0),
  /** Signed up within 7 days. */
  recentSignups: z.number().int().min(0),
  timestamp: z.string(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

/** `GET /api/admin/activity`: sign-ups and failed sign-ins per hour, the last 168 hours, oldest first. */
export const adminActivitySchema = z.object({
  hours: z.array(
    z.object({
      hour: z.string(),
      signups: z.number().int().min(0),
      failedSignIns: z.number().int().min(0),
    }),
  ),
});
export type AdminActivity = z.infer<typeof adminActivitySchema>;

// ---------------------------------------------------------------------------------------------
// Users

export const ADMIN_USER_STATUSES = ['all', 'locked', 'admins', 'no-2fa'] as const;

export const adminUsersQuerySchema = strictBody({
  limit: pageLimit(ADMIN_LIMITS.usersPageMax, 10),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** Matches the start of a username or an e-mail address, case-insensitive. */
  search: plainText('Invalid search').max(ADMIN_LIMITS.searchMax, 'Search is too long').optional(),
  status: z.enum(ADMIN_USER_STATUSES).default('all'),
});
export type AdminUsersQuery = z.output<typeof adminUsersQuerySchema>;

/** The spec's admin user (`_id` as the spec names it), plus what the console shows beside it. */
export const adminUserSchema = z.object({
  _id: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  permissions: z.array(z.enum(PERMISSIONS)),
  accountLocked: z.boolean(),
  accountLockedReason: z.string().nullable(),
  lockedUntil: z.string().nullable(),
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  failedLoginAttempts: z.number().int().min(0),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUserListSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number().int().min(0),
});
export type AdminUserList = z.infer<typeof adminUserListSchema>;

export const adminUserIdParamSchema = z.strictObject({ id: uuidV4 });
export type AdminUserIdParam = z.output<typeof adminUserIdParamSchema>;

/** A session as the console shows it (no token, no hash). */
export const adminSessionRowSchema = z.object({
  sessionId: z.string(),
  userId: z.string(),
  email: z.string(),
  username: z.string(),
  ipAddress: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
});
export type AdminSessionRow = z.infer<typeof adminSessionRowSchema>;

/** The spec's security event as the console shows it. */
export const adminSecurityEventSchema = z.object({
  id: z.string(),
  userId: z.string().nullable(),
  email: z.string().nullable(),
  username: z.string().nullable(),
  event: z.object({
    eventType: z.string(),
    ipAddress: z.string(),
    userAgent: z.string(),
    timestamp: z.string(),
    details: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  }),
});
export type AdminSecurityEvent = z.infer<typeof adminSecurityEventSchema>;

export const adminUserDetailsSchema = z.object({
  user: adminUserSchema,
  sessions: z.array(adminSessionRowSchema),
  events: z.array(adminSecurityEventSchema),
  counts: z.object({
    notes: z.number().int().min(0),
    deletedNotes: z.number().int().min(0),
    files: z.number().int().min(0),
    deletedFiles: z.number().int().min(0),
    /** Stored bytes (ciphertext) of the user's files, trash included. */
    bytes: z.number().int().min(0),
  }),
});
export type AdminUserDetails = z.infer<typeof adminUserDetailsSchema>;

export const adminUserResponseSchema = z.object({ user: adminUserSchema });
export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>;

export const adminLockBodySchema = strictBody({
  reason,
  duration: z.coerce
    .number({ error: ADMIN_MESSAGES.duration })
    .int(ADMIN_MESSAGES.duration)
    .min(1, ADMIN_MESSAGES.duration)
    .max(ADMIN_LIMITS.lockMinutesMax, ADMIN_MESSAGES.duration),
});
export type AdminLockBody = z.output<typeof adminLockBodySchema>;

/** Body of unlock and end-sessions: the reason is optional there. */
export const adminReasonBodySchema = strictBody({ reason: reason.optional() });
export type AdminReasonBody = z.output<typeof adminReasonBodySchema>;

/** Remove 2FA: the account's username typed again, and why. */
export const adminRemove2faBodySchema = strictBody({
  confirm: plainText(ADMIN_MESSAGES.confirmMismatch).max(64, ADMIN_MESSAGES.confirmMismatch),
  reason,
});
export type AdminRemove2faBody = z.output<typeof adminRemove2faBodySchema>;

/** A super_admin sets an account's role and permissions (the list is ignored for super_admin). */
export const adminSetRoleBodySchema = strictBody({
  role: z.enum(ROLES),
  permissions: z.array(z.enum(PERMISSIONS)).max(PERMISSIONS.length).default([]),
  reason,
});
export type AdminSetRoleBody = z.output<typeof adminSetRoleBodySchema>;

export const adminEndedSessionsSchema = z.object({ ended: z.number().int().min(0) });
export type AdminEndedSessions = z.infer<typeof adminEndedSessionsSchema>;

export const ADMIN_BULK_ACTIONS = ['lock', 'unlock', 'end-sessions'] as const;
export type AdminBulkAction = (typeof ADMIN_BULK_ACTIONS)[number];

/** Bulk actions on accounts picked from a filtered list. */
export const adminBulkBodySchema = strictBody({
  ids: z
    .array(uuidV4)
    .min(1, 'Pick at least one account')
    .max(ADMIN_LIMITS.bulkMax, `At most ${ADMIN_LIMITS.bulkMax} accounts at once`),
  reason: reason.optional(),
  /** Lock only: minutes. */
  duration: adminLockBodySchema.shape.duration.optional(),
});
export type AdminBulkBody = z.output<typeof adminBulkBodySchema>;

export const adminBulkResultSchema = z.object({
  results: z.array(z.object({ id: z.string(), ok: z.boolean(), error: z.string().optional() })),
});
export type AdminBulkResult = z.infer<typeof adminBulkResultSchema>;

// ---------------------------------------------------------------------------------------------
// Security events and sessions

export const adminEventsQuerySchema = strictBody({
  limit: pageLimit(ADMIN_LIMITS.eventsPageMax, 20),
  cursor: cursor.optional(),
  type: plainText('Invalid event type').max(64, 'Invalid event type').optional(),
  userId: uuidV4.optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type AdminEventsQuery = z.output<typeof adminEventsQuerySchema>;

export const adminEventListSchema = z.object({
  events: z.array(adminSecurityEventSchema),
  nextCursor: z.string().nullable(),
});
export type AdminEventList = z.infer<typeof adminEventListSchema>;

export const adminSessionsQuerySchema = strictBody({
  limit: pageLimit(ADMIN_LIMITS.sessionsPageMax, 50),
  cursor: cursor.optional(),
  userId: uuidV4.optional(),
});
export type AdminSessionsQuery = z.output<typeof adminSessionsQuerySchema>;

export const adminSessionListSchema = z.object({
  sessions: z.array(adminSessionRowSchema),
  total: z.number().int().min(0),
  nextCursor: z.string().nullable(),
});
export type AdminSessionList = z.infer<typeof adminSessionListSchema>;

export const adminSessionIdParamSchema = z.strictObject({ id: uuidV4 });
export type AdminSessionIdParam = z.output<typeof adminSessionIdParamSchema>;

// ---------------------------------------------------------------------------------------------
// Malware scans

export const adminFailedScanSchema = z.object({
  fileId: z.string(),
  ownerId: z.string(),
  size: z.number().int().min(0),
  attempts: z.number().int().min(0),
  failedReason: z.string(),
  failedAt: z.string().nullable(),
});
export type AdminFailedScan = z.infer<typeof adminFailedScanSchema>;

export const adminFailedScanListSchema = z.object({
  scans: z.array(adminFailedScanSchema),
  total: z.number().int().min(0),
});
export type AdminFailedScanList = z.infer<typeof adminFailedScanListSchema>;

export const adminFileIdParamSchema = z.strictObject({ fileId: uuidV4 });
export type AdminFileIdParam = z.output<typeof adminFileIdParamSchema>;

export const adminQueuedSchema = z.object({ queued: z.number().int().min(0) });
export type AdminQueued = z.infer<typeof adminQueuedSchema>;

// ---------------------------------------------------------------------------------------------
// System health

const upDown = z.enum(['up', 'down']);
const memorySchema = z.object({
  rssBytes: z.number().int().min(0),
  heapUsedBytes: z.number().int().min(0),
  heapTotalBytes: z.number().int().min(0),
});

export const queueDepthSchema = z.object({
  name: z.string(),
  waiting: z.number().int().min(0),
  active: z.number().int().min(0),
  delayed: z.number().int().min(0),
  failed: z.number().int().min(0),
});
export type QueueDepth = z.infer<typeof queueDepthSchema>;

export const systemHealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ status: upDown, latencyMs: z.number().nullable(), version: z.string().nullable() }),
  redis: z.object({ status: upDown, latencyMs: z.number().nullable(), version: z.string().nullable() }),
  /** Totals over every queue (the contract's `queue`); `queues` has each one. */
  queue: z.object({ waiting: z.number(), active: z.number(), delayed: z.number(), failed: z.number() }),
  queues: z.array(queueDepthSchema),
  services: z.array(
    z.object({
      name: z.string(),
      status: upDown,
      version: z.string().nullable(),
      uptimeSeconds: z.number().nullable(),
      memory: memorySchema.nullable(),
      error: z.string().optional(),
    }),
  ),
  storage: z.array(
    z.object({ driver: z.string(), default: z.boolean(), status: upDown, error: z.string().optional() }),
  ),
  clamd: z.object({
    status: z.enum(['up', 'down', 'not-configured']),
    version: z.string().nullable(),
    signatureVersion: z.number().nullable(),
    signatureDate: z.string().nullable(),
    signatureAgeHours: z.number().nullable(),
  }),
  /** The admin service's own process. */
  uptime: z.number(),
  nodeVersion: z.string(),
  environment: z.string(),
  timestamp: z.string(),
  memory: memorySchema,
});
export type SystemHealth = z.infer<typeof systemHealthSchema>;

// ---------------------------------------------------------------------------------------------
// The admin audit log

export const auditQuerySchema = strictBody({
  limit: pageLimit(ADMIN_LIMITS.auditPageMax, 50),
  /** Entries with a smaller id (the log's own order). */
  before: z.coerce.number().int().min(1).optional(),
});
export type AuditQuery = z.output<typeof auditQuerySchema>;

export const auditEntryDtoSchema = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  actorId: z.string(),
  actorLabel: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  reason: z.string().nullable(),
  ip: z.string(),
  userAgent: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export type AuditEntryDto = z.infer<typeof auditEntryDtoSchema>;

export const auditListSchema = z.object({
  entries: z.array(auditEntryDtoSchema),
  nextBefore: z.number().int().nullable(),
});
export type AuditList = z.infer<typeof auditListSchema>;

export const auditVerifySchema = z.object({
  ok: z.boolean(),
  checked: z.number().int().min(0),
  /** The first entry whose hash or link does not hold. */
  firstBroken: z.object({ id: z.number().int(), problem: z.string() }).nullable(),
});
export type AuditVerify = z.infer<typeof auditVerifySchema>;

// ---------------------------------------------------------------------------------------------
// Internal RPC bodies (gateway -> admin -> auth, notes, files): never seen over HTTP as such

/** The admin sign-in cookie's token, as the gateway hands it to auth. */
export const adminTokenRequestSchema = z.strictObject({ token: z.string().min(1).max(200) });
export type AdminTokenRequest = z.output<typeof adminTokenRequestSchema>;

/** Auth's answer to an admin sign-in: signed in (the cookie's token beside it) or the 2FA step. */
export const adminSignInReplySchema = z.union([
  z.object({
    body: adminSessionResponseSchema,
    session: z.object({ token: z.string(), maxAgeSeconds: z.number() }),
  }),
  z.object({ body: z.object({ requires2FA: z.literal(true) }) }),
]);
export type AdminSignInReply = z.infer<typeof adminSignInReplySchema>;

/** What auth counts for the stats (notes and files count theirs). */
export const authStatsSchema = adminStatsSchema.pick({
  totalUsers: true,
  activeUsers: true,
  lockedUsers: true,
  activeSessions: true,
  recentSignups: true,
});
export type AuthStats = z.infer<typeof authStatsSchema>;

export const authUserDetailsSchema = adminUserDetailsSchema.omit({ counts: true });
export type AuthUserDetails = z.infer<typeof authUserDetailsSchema>;

export const adminLockRequestSchema = z.strictObject({
  ...adminUserIdParamSchema.shape,
  ...adminLockBodySchema.shape,
});
export const adminReasonRequestSchema = z.strictObject({
  ...adminUserIdParamSchema.shape,
  ...adminReasonBodySchema.shape,
});
export const adminRemove2faRequestSchema = z.strictObject({
  ...adminUserIdParamSchema.shape,
  ...adminRemove2faBodySchema.shape,
});
export const adminSetRoleRequestSchema = z.strictObject({
  ...adminUserIdParamSchema.shape,
  ...adminSetRoleBodySchema.shape,
});
export const adminBulkRequestSchema = z.strictObject({
  action: z.enum(ADMIN_BULK_ACTIONS),
  ...adminBulkBodySchema.shape,
});
export type AdminBulkRequest = z.output<typeof adminBulkRequestSchema>;

/** Revoking one session answers whose it was (for the audit log and the user's own events). */
export const adminRevokedSessionSchema = z.object({ userId: z.string() });

/** One owner's counts, or everyone's when `ownerId` is absent. */
export const ownerCountsRequestSchema = z.strictObject({ ownerId: uuidV4.optional() });
export const noteOwnerCountsSchema = z.object({
  notes: z.number().int().min(0),
  deletedNotes: z.number().int().min(0),
});
export const fileOwnerCountsSchema = z.object({
  files: z.number().int().min(0),
  deletedFiles: z.number().int().min(0),
  bytes: z.number().int().min(0),
});
export const failedScansRequestSchema = z.strictObject({ limit: pageLimit(200, 50) });
export const storageHealthSchema = z.object({ storage: systemHealthSchema.shape.storage });

/** The security-events CSV as the admin service builds it. */
export const adminEventsCsvSchema = z.object({
  csv: z.string(),
  rows: z.number().int().min(0),
  truncated: z.boolean(),
});

/** The user's own security events (`GET /api/auth/security-events`). */
export const ownEventsQuerySchema = strictBody({
  limit: pageLimit(100, 20),
  cursor: cursor.optional(),
});
export type OwnEventsQuery = z.output<typeof ownEventsQuerySchema>;
export const ownSecurityEventSchema = adminSecurityEventSchema.shape.event.extend({ id: z.string() });
export type OwnSecurityEvent = z.infer<typeof ownSecurityEventSchema>;
export const ownEventListSchema = z.object({
  events: z.array(ownSecurityEventSchema),
  nextCursor: z.string().nullable(),
});
export type OwnEventList = z.infer<typeof ownEventListSchema>;
