import { z } from 'zod';
import { accountSettingsSchema } from './auth/account-settings.schema';
import {
  changePasswordBodySchema,
  loginBodySchema,
  logoutBodySchema,
  preloginBodySchema,
  refreshBodySchema,
  sessionIdParamSchema,
  signupBodySchema,
  preloginResponseSchema,
} from './auth/auth-bodies.schema';
import {
  authResponseSchema,
  meResponseSchema,
  refreshResponseSchema,
  requires2faResponseSchema,
  sessionListResponseSchema,
} from './auth/user.schema';
import { deleteAccountBodySchema } from './auth/account-purge.schema';
import { verifyEmergencyBodySchema } from './auth/emergency.schema';
import {
  legacyKeyIdParamSchema,
  recoveryEmailCodeBodySchema,
  recoveryGetQuestionsBodySchema,
  recoveryResetBodySchema,
  recoverySetupKeyBodySchema,
  recoverySetupQuestionsBodySchema,
  recoveryVerifyEmailBodySchema,
  recoveryVerifyKeyBodySchema,
  recoveryVerifyQuestionsBodySchema,
  legacyKeysResponseSchema,
  recoveryKeyVerifiedResponseSchema,
  recoveryMessageResponseSchema,
  recoveryQuestionsResponseSchema,
  recoveryVerifiedResponseSchema,
  securityQuestionsResponseSchema,
} from './auth/recovery.schema';
import {
  backupLoginBodySchema,
  twoFactorEnableBodySchema,
  twoFactorLoginBodySchema,
  twoFactorProofBodySchema,
  twoFactorVerifyBodySchema,
  backupCodesInfoResponseSchema,
  backupCodesResponseSchema,
  twoFactorEnableResponseSchema,
} from './auth/two-factor.schema';
import {
  completeUploadBodySchema,
  createUploadBodySchema,
  fileAccessBodySchema,
  fileIdParamSchema,
  fileMetadataSchema,
  rewrapFileKeyRequestSchema,
  cloudinaryUploadUrlResponseSchema,
  createUploadResponseSchema,
  downloadUrlResponseSchema,
  type DownloadUrlResponse,
  fileCountsResponseSchema,
  fileEncryptionMetadataSchema,
  fileListResponseSchema,
  fileResponseSchema,
  previewResponseSchema,
  type PreviewResponse,
  storageTypesResponseSchema,
  thumbnailResponseSchema,
} from './files/file.schema';
import {
  createNoteBatchBodySchema,
  createNoteBodySchema,
  listNotesQuerySchema,
  noteIdParamSchema,
  rewrapNoteKeyRequestSchema,
  updateNoteRequestSchema,
  createNoteBatchResponseSchema,
  deletedNoteListResponseSchema,
  emptyTrashResponseSchema,
  noteCountsResponseSchema,
  noteListPageSchema,
  noteResponseSchema,
} from './notes/note.schema';
import {
  adminActivitySchema,
  adminBulkRequestSchema,
  adminBulkResultSchema,
  adminEndedSessionsSchema,
  adminEventListSchema,
  adminEventsCsvSchema,
  adminEventsQuerySchema,
  adminFailedScanListSchema,
  adminFileIdParamSchema,
  adminLockRequestSchema,
  adminQueuedSchema,
  adminReasonRequestSchema,
  adminRemove2faRequestSchema,
  adminRevokedSessionSchema,
  adminSessionCheckReplySchema,
  adminSessionIdParamSchema,
  adminSessionListSchema,
  adminSessionsQuerySchema,
  adminSetRoleRequestSchema,
  adminSignInReplySchema,
  adminStatsSchema,
  adminTokenRequestSchema,
  adminUserDetailsSchema,
  adminUserIdParamSchema,
  adminUserListSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  auditListSchema,
  auditQuerySchema,
  auditVerifySchema,
  authStatsSchema,
  authUserDetailsSchema,
  failedScansRequestSchema,
  fileOwnerCountsSchema,
  noteOwnerCountsSchema,
  ownEventListSchema,
  ownEventsQuerySchema,
  ownerCountsRequestSchema,
  storageHealthSchema,
  systemHealthSchema,
} from './admin/admin.schema';
import {
  serverTestRunSchema,
  testRunIdParamSchema,
  testRunnerStatusSchema,
  testRunOutputRequestSchema,
  testRunOutputSchema,
  testRunStartBodySchema,
} from './admin/test-runner.schema';
import type { AdminPattern, AuthPattern, FilesPattern, HealthReply, NotesPattern, RefreshGrant } from './rpc';

/** The body of `files.download-url`: which file, and whether the URL is for a download or a preview. */
export const fileUrlRequestSchema = z.strictObject({
  id: fileIdParamSchema.shape.id,
  purpose: z.enum(['download', 'preview']),
});
export type FileUrlRequest = z.output<typeof fileUrlRequestSchema>;
export type FileUrlPurpose = FileUrlRequest['purpose'];
/** The answer of `files.download-url` for each purpose. */
export type FileUrlReply<P extends FileUrlPurpose = FileUrlPurpose> = {
  download: DownloadUrlResponse;
  preview: PreviewResponse;
}[P];

/** Auth answers that start or continue a session: the public body plus, maybe, the refresh grant. */
function withRefresh<T extends z.ZodType>(body: T) {
  const grant: z.ZodType<RefreshGrant> = z.object({ token: z.string(), maxAgeSeconds: z.number() });
  return z.object({ body, refresh: grant.optional() });
}

const loginReplySchema = withRefresh(z.union([authResponseSchema, requires2faResponseSchema]));
const signupReplySchema = withRefresh(authResponseSchema);
const refreshReplySchema = withRefresh(refreshResponseSchema);

const healthReplySchema: z.ZodType<HealthReply> = z.object({
  service: z.string(),
  status: z.enum(['ok', 'degraded']),
  uptimeSeconds: z.number(),
  checks: z.record(z.string(), z.enum(['ok', 'down'])),
  version: z.string().optional(),
  memory: z
    .object({ rssBytes: z.number(), heapUsedBytes: z.number(), heapTotalBytes: z.number() })
    .optional(),
});
/** Calls that answer nothing reply null (Nest's RPC client completes without a value on undefined). */
const noReply = z.null();
const okReplySchema = z.object({ ok: z.literal(true) });
const purgeOwnerReplySchema = z.object({ deleted: z.number().int().nonnegative() });
const fileUrlReplySchema = z.union([downloadUrlResponseSchema, previewResponseSchema]);

/** An entry of RPC: the request body's contract schema (null: no body) and the reply's schema. */
export interface RpcEntry {
  readonly request: z.ZodType | null;
  readonly reply: z.ZodType;
}

/**
 * Every RPC message pattern with its request body schema and its reply schema, declared once
 * (docs/architecture.md "Code conventions", "One endpoint, one entry"). The gateway's RpcClient
 * and the services' handlers take their types from here; the `satisfies` clause makes a pattern
 * of AUTH_PATTERNS, NOTES_PATTERNS or FILES_PATTERNS without an entry (or an entry without a
 * pattern) a compile error. Replies are not parsed again on the way through the gateway (that
 * would cost every call); the services' medium tests parse every reply they get with its schema.
 */
export const RPC = {
  'auth.health': { request: null, reply: healthReplySchema },
  'auth.prelogin': { request: preloginBodySchema, reply: preloginResponseSchema },
  'auth.signup': { request: signupBodySchema, reply: signupReplySchema },
  'auth.login': { request: loginBodySchema, reply: loginReplySchema },
  'auth.refresh': { request: refreshBodySchema, reply: refreshReplySchema },
  'auth.logout': { request: logoutBodySchema, reply: noReply },
  'auth.me': { request: null, reply: meResponseSchema },
  'auth.change-password': { request: changePasswordBodySchema, reply: noReply },
  'auth.sessions.list': { request: null, reply: sessionListResponseSchema },
  'auth.sessions.revoke': { request: sessionIdParamSchema, reply: noReply },
  'auth.verify-auth-key': { request: fileAccessBodySchema, reply: okReplySchema },
  'auth.delete-account': { request: deleteAccountBodySchema, reply: noReply },
  'auth.verify-emergency': { request: verifyEmergencyBodySchema, reply: loginReplySchema },
  'auth.settings.get': { request: null, reply: accountSettingsSchema },
  'auth.settings.update': { request: accountSettingsSchema, reply: accountSettingsSchema },
  'auth.2fa.enable': { request: twoFactorEnableBodySchema, reply: twoFactorEnableResponseSchema },
  'auth.2fa.verify': { request: twoFactorVerifyBodySchema, reply: backupCodesResponseSchema },
  'auth.2fa.disable': { request: twoFactorProofBodySchema, reply: noReply },
  'auth.2fa.backup-codes': { request: null, reply: backupCodesInfoResponseSchema },
  'auth.2fa.backup-codes.regenerate': {
    request: twoFactorProofBodySchema,
    reply: backupCodesResponseSchema,
  },
  'auth.2fa.login': { request: twoFactorLoginBodySchema, reply: loginReplySchema },
  'auth.2fa.backup-login': { request: backupLoginBodySchema, reply: loginReplySchema },
  'auth.recovery.email-code': {
    request: recoveryEmailCodeBodySchema,
    reply: recoveryMessageResponseSchema,
  },
  'auth.recovery.verify-email': {
    request: recoveryVerifyEmailBodySchema,
    reply: recoveryVerifiedResponseSchema,
  },
  'auth.recovery.setup-key': { request: recoverySetupKeyBodySchema, reply: noReply },
  'auth.recovery.verify-key': {
    request: recoveryVerifyKeyBodySchema,
    reply: recoveryKeyVerifiedResponseSchema,
  },
  'auth.recovery.setup-questions': { request: recoverySetupQuestionsBodySchema, reply: noReply },
  'auth.recovery.security-questions': { request: null, reply: securityQuestionsResponseSchema },
  'auth.recovery.get-questions': {
    request: recoveryGetQuestionsBodySchema,
    reply: recoveryQuestionsResponseSchema,
  },
  'auth.recovery.verify-questions': {
    request: recoveryVerifyQuestionsBodySchema,
    reply: recoveryVerifiedResponseSchema,
  },
  'auth.recovery.reset': { request: recoveryResetBodySchema, reply: signupReplySchema },
  'auth.legacy-keys.list': { request: null, reply: legacyKeysResponseSchema },
  'auth.legacy-keys.delete': { request: legacyKeyIdParamSchema, reply: noReply },
  'auth.security-events.list': { request: ownEventsQuerySchema, reply: ownEventListSchema },
  'auth.admin.sign-in': { request: loginBodySchema, reply: adminSignInReplySchema },
  'auth.admin.session': { request: adminTokenRequestSchema, reply: adminSessionCheckReplySchema },
  'auth.admin.sign-out': { request: adminTokenRequestSchema, reply: noReply },
  'auth.admin.stats': { request: null, reply: authStatsSchema },
  'auth.admin.activity': { request: null, reply: adminActivitySchema },
  'auth.admin.users': { request: adminUsersQuerySchema, reply: adminUserListSchema },
  'auth.admin.user': { request: adminUserIdParamSchema, reply: authUserDetailsSchema },
  'auth.admin.lock': { request: adminLockRequestSchema, reply: adminUserResponseSchema },
  'auth.admin.unlock': { request: adminReasonRequestSchema, reply: adminUserResponseSchema },
  'auth.admin.remove-2fa': { request: adminRemove2faRequestSchema, reply: adminUserResponseSchema },
  'auth.admin.end-sessions': { request: adminReasonRequestSchema, reply: adminEndedSessionsSchema },
  'auth.admin.set-role': { request: adminSetRoleRequestSchema, reply: adminUserResponseSchema },
  'auth.admin.events': { request: adminEventsQuerySchema, reply: adminEventListSchema },
  'auth.admin.sessions': { request: adminSessionsQuerySchema, reply: adminSessionListSchema },
  'auth.admin.revoke-session': { request: adminSessionIdParamSchema, reply: adminRevokedSessionSchema },

  'notes.health': { request: null, reply: healthReplySchema },
  'notes.list': { request: listNotesQuerySchema, reply: noteListPageSchema },
  'notes.list-deleted': { request: null, reply: deletedNoteListResponseSchema },
  'notes.create': { request: createNoteBodySchema, reply: noteResponseSchema },
  'notes.create-batch': { request: createNoteBatchBodySchema, reply: createNoteBatchResponseSchema },
  'notes.update': { request: updateNoteRequestSchema, reply: noteResponseSchema },
  'notes.rewrap-key': { request: rewrapNoteKeyRequestSchema, reply: noReply },
  'notes.delete': { request: noteIdParamSchema, reply: noReply },
  'notes.restore': { request: noteIdParamSchema, reply: noteResponseSchema },
  'notes.delete-permanent': { request: noteIdParamSchema, reply: noReply },
  'notes.empty-trash': { request: null, reply: emptyTrashResponseSchema },
  'notes.counts': { request: null, reply: noteCountsResponseSchema },
  'notes.admin.counts': { request: ownerCountsRequestSchema, reply: noteOwnerCountsSchema },

  'files.health': { request: null, reply: healthReplySchema },
  'files.storage-types': { request: null, reply: storageTypesResponseSchema },
  'files.create-upload': { request: createUploadBodySchema, reply: createUploadResponseSchema },
  'files.create-cloudinary-upload': {
    request: fileMetadataSchema,
    reply: cloudinaryUploadUrlResponseSchema,
  },
  'files.complete-upload': { request: completeUploadBodySchema, reply: fileResponseSchema },
  'files.list': { request: null, reply: fileListResponseSchema },
  'files.list-deleted': { request: null, reply: fileListResponseSchema },
  'files.delete': { request: fileIdParamSchema, reply: noReply },
  'files.restore': { request: fileIdParamSchema, reply: fileResponseSchema },
  'files.delete-permanent': { request: fileIdParamSchema, reply: noReply },
  'files.rewrap-key': { request: rewrapFileKeyRequestSchema, reply: noReply },
  'files.empty-trash': { request: null, reply: emptyTrashResponseSchema },
  'files.counts': { request: null, reply: fileCountsResponseSchema },
  'files.download-url': {
    request: fileUrlRequestSchema,
    reply: fileUrlReplySchema,
  },
  'files.metadata': { request: fileIdParamSchema, reply: fileEncryptionMetadataSchema },
  'files.thumbnail': { request: fileIdParamSchema, reply: thumbnailResponseSchema },
  'files.purge-owner': { request: null, reply: purgeOwnerReplySchema },
  'files.admin.counts': { request: ownerCountsRequestSchema, reply: fileOwnerCountsSchema },
  'files.admin.failed-scans': { request: failedScansRequestSchema, reply: adminFailedScanListSchema },
  'files.admin.retry-scan': { request: adminFileIdParamSchema, reply: adminQueuedSchema },
  'files.admin.rescan-all': { request: null, reply: adminQueuedSchema },
  'files.admin.storage-health': { request: null, reply: storageHealthSchema },

  'admin.health': { request: null, reply: healthReplySchema },
  'admin.stats': { request: null, reply: adminStatsSchema },
  'admin.activity': { request: null, reply: adminActivitySchema },
  'admin.users': { request: adminUsersQuerySchema, reply: adminUserListSchema },
  'admin.user': { request: adminUserIdParamSchema, reply: adminUserDetailsSchema },
  'admin.lock': { request: adminLockRequestSchema, reply: adminUserResponseSchema },
  'admin.unlock': { request: adminReasonRequestSchema, reply: adminUserResponseSchema },
  'admin.remove-2fa': { request: adminRemove2faRequestSchema, reply: adminUserResponseSchema },
  'admin.end-sessions': { request: adminReasonRequestSchema, reply: adminEndedSessionsSchema },
  'admin.set-role': { request: adminSetRoleRequestSchema, reply: adminUserResponseSchema },
  'admin.bulk': { request: adminBulkRequestSchema, reply: adminBulkResultSchema },
  'admin.events': { request: adminEventsQuerySchema, reply: adminEventListSchema },
  'admin.events.csv': { request: adminEventsQuerySchema, reply: adminEventsCsvSchema },
  'admin.sessions': { request: adminSessionsQuerySchema, reply: adminSessionListSchema },
  'admin.revoke-session': { request: adminSessionIdParamSchema, reply: noReply },
  'admin.system-health': { request: null, reply: systemHealthSchema },
  'admin.scans.failed': { request: failedScansRequestSchema, reply: adminFailedScanListSchema },
  'admin.scans.retry': { request: adminFileIdParamSchema, reply: adminQueuedSchema },
  'admin.scans.rescan-all': {
    request: adminReasonRequestSchema.pick({ reason: true }),
    reply: adminQueuedSchema,
  },
  'admin.audit.list': { request: auditQuerySchema, reply: auditListSchema },
  'admin.audit.verify': { request: null, reply: auditVerifySchema },
  'admin.test-runner.status': { request: null, reply: testRunnerStatusSchema },
  'admin.test-runner.start': { request: testRunStartBodySchema, reply: serverTestRunSchema },
  'admin.test-runner.output': { request: testRunOutputRequestSchema, reply: testRunOutputSchema },
  'admin.test-runner.stop': { request: testRunIdParamSchema, reply: serverTestRunSchema },
} as const satisfies Record<AuthPattern | NotesPattern | FilesPattern | AdminPattern, RpcEntry>;

export type RpcPattern = keyof typeof RPC;
/** The service a pattern goes to: its prefix. */
export type RpcServiceOf<P extends RpcPattern> = P extends `${infer S}.${string}` ? S : never;
export type RpcService = RpcServiceOf<RpcPattern>;
/** The request body of a pattern, as validated by its schema (undefined: no body). */
export type RpcRequestBody<P extends RpcPattern> = (typeof RPC)[P]['request'] extends z.ZodType
  ? z.output<(typeof RPC)[P]['request']>
  : undefined;
/** The patterns whose request has a body schema. */
export type RpcBodyPattern = {
  [P in RpcPattern]: (typeof RPC)[P]['request'] extends z.ZodType ? P : never;
}[RpcPattern];
export type RpcReply<P extends RpcPattern> = z.output<(typeof RPC)[P]['reply']>;
