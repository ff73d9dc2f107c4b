import { z } from 'zod';
import { accountSettingsSchema, type AccountSettings } from './auth/account-settings.schema';
import {
  changePasswordBodySchema,
  loginBodySchema,
  logoutBodySchema,
  preloginBodySchema,
  refreshBodySchema,
  sessionIdParamSchema,
  signupBodySchema,
  type PreloginResponse,
} from './auth/auth-bodies.schema';
import type {
  AuthResponse,
  MeResponse,
  RefreshResponse,
  Requires2faResponse,
  SessionListResponse,
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
  type LegacyKeysResponse,
  type RecoveryKeyVerifiedResponse,
  type RecoveryMessageResponse,
  type RecoveryQuestionsResponse,
  type RecoveryVerifiedResponse,
  type SecurityQuestionsResponse,
} from './auth/recovery.schema';
import {
  backupLoginBodySchema,
  twoFactorEnableBodySchema,
  twoFactorLoginBodySchema,
  twoFactorProofBodySchema,
  twoFactorVerifyBodySchema,
  type BackupCodesInfoResponse,
  type BackupCodesResponse,
  type TwoFactorEnableResponse,
} from './auth/two-factor.schema';
import {
  completeUploadBodySchema,
  createUploadBodySchema,
  fileAccessBodySchema,
  fileIdParamSchema,
  fileMetadataSchema,
  rewrapFileKeyRequestSchema,
  type CloudinaryUploadUrlResponse,
  type CreateUploadResponse,
  type DownloadUrlResponse,
  type FileCountsResponse,
  type FileEncryptionMetadata,
  type FileListResponse,
  type FileResponse,
  type PreviewResponse,
  type StorageTypesResponse,
  type ThumbnailResponse,
} from './files/file.schema';
import {
  createNoteBatchBodySchema,
  createNoteBodySchema,
  listNotesQuerySchema,
  noteIdParamSchema,
  rewrapNoteKeyRequestSchema,
  updateNoteRequestSchema,
  type CreateNoteBatchResponse,
  type DeletedNoteListResponse,
  type EmptyTrashResponse,
  type NoteCountsResponse,
  type NoteListResponse,
  type NoteResponse,
} from './notes/note.schema';
import type { AuthPattern, FilesPattern, HealthReply, NotesPattern, WithRefresh } from './rpc';

/** The body of `files.download-url`: which file, and whether the URL is for a download or a preview. */
export const fileUrlRequestSchema = z.strictObject({
  id: fileIdParamSchema.shape.id,
  purpose: z.enum(['download', 'preview']),
});
export type FileUrlRequest = z.output<typeof fileUrlRequestSchema>;

export type LoginReply = WithRefresh<AuthResponse | Requires2faResponse>;
export type SignupReply = WithRefresh<AuthResponse>;
export type RefreshReply = WithRefresh<RefreshResponse>;

/** Marks an entry's reply type; the value is never read (replies are not re-validated). */
function reply<T>(): T {
  return undefined as T;
}

/** An entry of RPC: the request body's contract schema (null: no body) and the reply's type. */
export interface RpcEntry {
  readonly request: z.ZodType | null;
  readonly reply: unknown;
}

/**
 * Every RPC message pattern with its request body schema and its reply type, declared once
 * (docs/architecture.md "Code conventions", "One endpoint, one entry"). The gateway's RpcClient
 * and the services' handlers take their types from here; the `satisfies` clause makes a pattern
 * of AUTH_PATTERNS, NOTES_PATTERNS or FILES_PATTERNS without an entry (or an entry without a
 * pattern) a compile error.
 */
export const RPC = {
  'auth.health': { request: null, reply: reply<HealthReply>() },
  'auth.prelogin': { request: preloginBodySchema, reply: reply<PreloginResponse>() },
  'auth.signup': { request: signupBodySchema, reply: reply<SignupReply>() },
  'auth.login': { request: loginBodySchema, reply: reply<LoginReply>() },
  'auth.refresh': { request: refreshBodySchema, reply: reply<RefreshReply>() },
  'auth.logout': { request: logoutBodySchema, reply: reply<null>() },
  'auth.me': { request: null, reply: reply<MeResponse>() },
  'auth.change-password': { request: changePasswordBodySchema, reply: reply<null>() },
  'auth.sessions.list': { request: null, reply: reply<SessionListResponse>() },
  'auth.sessions.revoke': { request: sessionIdParamSchema, reply: reply<null>() },
  'auth.verify-auth-key': { request: fileAccessBodySchema, reply: reply<{ ok: true }>() },
  'auth.delete-account': { request: deleteAccountBodySchema, reply: reply<null>() },
  'auth.verify-emergency': { request: verifyEmergencyBodySchema, reply: reply<LoginReply>() },
  'auth.settings.get': { request: null, reply: reply<AccountSettings>() },
  'auth.settings.update': { request: accountSettingsSchema, reply: reply<AccountSettings>() },
  'auth.2fa.enable': { request: twoFactorEnableBodySchema, reply: reply<TwoFactorEnableResponse>() },
  'auth.2fa.verify': { request: twoFactorVerifyBodySchema, reply: reply<BackupCodesResponse>() },
  'auth.2fa.disable': { request: twoFactorProofBodySchema, reply: reply<null>() },
  'auth.2fa.backup-codes': { request: null, reply: reply<BackupCodesInfoResponse>() },
  'auth.2fa.backup-codes.regenerate': {
    request: twoFactorProofBodySchema,
    reply: reply<BackupCodesResponse>(),
  },
  'auth.2fa.login': { request: twoFactorLoginBodySchema, reply: reply<LoginReply>() },
  'auth.2fa.backup-login': { request: backupLoginBodySchema, reply: reply<LoginReply>() },
  'auth.recovery.email-code': {
    request: recoveryEmailCodeBodySchema,
    reply: reply<RecoveryMessageResponse>(),
  },
  'auth.recovery.verify-email': {
    request: recoveryVerifyEmailBodySchema,
    reply: reply<RecoveryVerifiedResponse>(),
  },
  'auth.recovery.setup-key': { request: recoverySetupKeyBodySchema, reply: reply<null>() },
  'auth.recovery.verify-key': {
    request: recoveryVerifyKeyBodySchema,
    reply: reply<RecoveryKeyVerifiedResponse>(),
  },
  'auth.recovery.setup-questions': { request: recoverySetupQuestionsBodySchema, reply: reply<null>() },
  'auth.recovery.security-questions': { request: null, reply: reply<SecurityQuestionsResponse>() },
  'auth.recovery.get-questions': {
    request: recoveryGetQuestionsBodySchema,
    reply: reply<RecoveryQuestionsResponse>(),
  },
  'auth.recovery.verify-questions': {
    request: recoveryVerifyQuestionsBodySchema,
    reply: reply<RecoveryVerifiedResponse>(),
  },
  'auth.recovery.reset': { request: recoveryResetBodySchema, reply: reply<WithRefresh<AuthResponse>>() },
  'auth.legacy-keys.list': { request: null, reply: reply<LegacyKeysResponse>() },
  'auth.legacy-keys.delete': { request: legacyKeyIdParamSchema, reply: reply<null>() },

  'notes.health': { request: null, reply: reply<HealthReply>() },
  'notes.list': { request: listNotesQuerySchema, reply: reply<NoteListResponse>() },
  'notes.list-deleted': { request: null, reply: reply<DeletedNoteListResponse>() },
  'notes.create': { request: createNoteBodySchema, reply: reply<NoteResponse>() },
  'notes.create-batch': { request: createNoteBatchBodySchema, reply: reply<CreateNoteBatchResponse>() },
  'notes.update': { request: updateNoteRequestSchema, reply: reply<NoteResponse>() },
  'notes.rewrap-key': { request: rewrapNoteKeyRequestSchema, reply: reply<null>() },
  'notes.delete': { request: noteIdParamSchema, reply: reply<null>() },
  'notes.restore': { request: noteIdParamSchema, reply: reply<NoteResponse>() },
  'notes.delete-permanent': { request: noteIdParamSchema, reply: reply<null>() },
  'notes.empty-trash': { request: null, reply: reply<EmptyTrashResponse>() },
  'notes.counts': { request: null, reply: reply<NoteCountsResponse>() },

  'files.health': { request: null, reply: reply<HealthReply>() },
  'files.storage-types': { request: null, reply: reply<StorageTypesResponse>() },
  'files.create-upload': { request: createUploadBodySchema, reply: reply<CreateUploadResponse>() },
  'files.create-cloudinary-upload': {
    request: fileMetadataSchema,
    reply: reply<CloudinaryUploadUrlResponse>(),
  },
  'files.complete-upload': { request: completeUploadBodySchema, reply: reply<FileResponse>() },
  'files.list': { request: null, reply: reply<FileListResponse>() },
  'files.list-deleted': { request: null, reply: reply<FileListResponse>() },
  'files.delete': { request: fileIdParamSchema, reply: reply<null>() },
  'files.restore': { request: fileIdParamSchema, reply: reply<FileResponse>() },
  'files.delete-permanent': { request: fileIdParamSchema, reply: reply<null>() },
  'files.rewrap-key': { request: rewrapFileKeyRequestSchema, reply: reply<null>() },
  'files.empty-trash': { request: null, reply: reply<EmptyTrashResponse>() },
  'files.counts': { request: null, reply: reply<FileCountsResponse>() },
  'files.download-url': {
    request: fileUrlRequestSchema,
    reply: reply<DownloadUrlResponse | PreviewResponse>(),
  },
  'files.metadata': { request: fileIdParamSchema, reply: reply<FileEncryptionMetadata>() },
  'files.thumbnail': { request: fileIdParamSchema, reply: reply<ThumbnailResponse>() },
  'files.purge-owner': { request: null, reply: reply<{ deleted: number }>() },
} as const satisfies Record<AuthPattern | NotesPattern | FilesPattern, RpcEntry>;

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
export type RpcReply<P extends RpcPattern> = (typeof RPC)[P]['reply'];
