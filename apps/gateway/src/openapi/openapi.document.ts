import {
  authKeySchema,
  authResponseSchema,
  changePasswordBodySchema,
  cloudinaryUploadUrlResponseSchema,
  completeUploadBodySchema,
  createUploadBodySchema,
  createUploadResponseSchema,
  accountSettingsSchema,
  deleteAccountBodySchema,
  downloadUrlResponseSchema,
  createNoteBatchBodySchema,
  createNoteBatchResponseSchema,
  createNoteBodySchema,
  deletedNoteListResponseSchema,
  emptyTrashResponseSchema,
  EMAIL_RE,
  ERROR_INFO,
  ErrorCode,
  FILE_MAX_BYTES,
  FILE_URL_TTL_SECONDS,
  UPLOAD_PART_MAX_BYTES,
  fileAccessBodySchema,
  fileCountsResponseSchema,
  fileEncryptionMetadataSchema,
  fileIdParamSchema,
  fileListResponseSchema,
  fileMetadataSchema,
  fileResponseSchema,
  kdfParamsSchema,
  listNotesQuerySchema,
  loginBodySchema,
  meResponseSchema,
  NOTE_BATCH_MAX_BYTES,
  NOTE_BATCH_MAX_NOTES,
  NOTE_DATE_MAX_SKEW_MS,
  NOTE_DATE_MIN,
  NOTE_MAX_BYTES,
  noteCountsResponseSchema,
  noteIdParamSchema,
  noteListResponseSchema,
  noteResponseSchema,
  PHONE_RE,
  preloginBodySchema,
  previewResponseSchema,
  preloginResponseSchema,
  REFRESH_COOKIE,
  refreshResponseSchema,
  rewrapFileKeyBodySchema,
  rewrapNoteKeyBodySchema,
  requires2faResponseSchema,
  saltSchema,
  sealedKey,
  sessionIdParamSchema,
  sessionListResponseSchema,
  SIGNUP_LIMITS,
  signupBodySchema,
  storageTypesResponseSchema,
  thumbnailResponseSchema,
  updateNoteBodySchema,
  verifyEmergencyBodySchema,
  USERNAME_RE,
} from '@vault/contracts';
import { z } from 'zod';
import { BLOB_MAX_BYTES } from '../proxy/files-blob.proxy';
import {
  cloudinaryUploadResponseSchema,
  MULTIPART_MAX_BYTES,
} from '../routes/files/cloudinary-multipart.upload';
import { thumbnailQuerySchema } from '../routes/files/thumbnail-query.schema';
import { healthResponseSchema, liveResponseSchema } from '../routes/health/health.schema';
import { TWO_FACTOR_ROUTES, twoFactorComponents } from './two-factor.routes';
import { RECOVERY_ROUTES, recoveryComponents } from './recovery.routes';

/**
 * The OpenAPI 3.1 document, built from the contracts' zod schemas (docs/architecture.md
 * "Code conventions": one schema, many users). Request bodies use the schemas' input side, answers
 * their output side. The route table below must match the controllers; a unit test holds them
 * together.
 */

type JsonSchema = Record<string, unknown>;
type HttpMethod = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete';
type Security = 'bearer' | 'optional-bearer' | 'refresh-cookie' | 'none';

interface Success {
  status: number;
  description: string;
  schema?: string | string[];
  /** The answer is the stored (encrypted) bytes, not JSON. */
  binary?: boolean;
  setsCookie?: boolean;
  clearsCookie?: boolean;
}

export interface RouteDoc {
  method: HttpMethod;
  /** Full path as clients call it, OpenAPI style (`{id}`). */
  path: string;
  operationId: string;
  summary: string;
  tag: 'auth' | 'notes' | 'files' | 'health';
  security: Security;
  rateLimit: 'auth' | 'api' | 'blob' | 'none';
  /** Component name of the request body. */
  body?: string;
  /** How the body is sent: JSON (default), a multipart form, or raw bytes. */
  bodyType?: 'json' | 'multipart' | 'binary';
  params?: z.ZodType;
  /** Query parameters, from a strict contract schema (unknown ones answer 400). */
  query?: z.ZodType;
  /** Request headers that change what the route does (all optional). */
  headers?: Array<{ name: string; description: string }>;
  success: Success[];
  errors: ErrorCode[];
}

const E = ErrorCode;

/** The path of a signed blob URL: the object key, `<ownerId>/<fileId>` (documentation only). */
const blobKeyParamSchema = z.object({
  objectKey: z
    .string()
    .describe('<ownerId>/<fileId> (a slash inside): the path exactly as the signed URL gives it'),
});

/** The signed query of a blob URL, exactly as the files service signed it (documentation only). */
const blobQuerySchema = z.object({
  op: z.enum(['put', 'get']).describe('The one operation the URL is signed for'),
  exp: z.string().describe('Expiry, Unix seconds'),
  len: z.string().optional().describe('Uploads: the exact byte length signed'),
  sig: z.string().describe('HMAC-SHA256, hex'),
});

/** Every route the gateway serves under /api (docs excluded). */
export const ROUTES: RouteDoc[] = [
  {
    method: 'post',
    path: '/api/auth/prelogin',
    operationId: 'prelogin',
    summary: 'KDF salt and parameters for an identifier (a stable fake for unknown ones)',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'PreloginBody',
    success: [{ status: 200, description: 'Salt and KDF parameters', schema: 'PreloginResponse' }],
    errors: [E.VALIDATION_FAILED],
  },
  {
    method: 'post',
    path: '/api/auth/signup',
    operationId: 'signup',
    summary: 'Create an account; starts a session',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'SignupBody',
    success: [
      { status: 201, description: 'Account created, signed in', schema: 'AuthResponse', setsCookie: true },
    ],
    errors: [E.VALIDATION_FAILED, E.USERNAME_TAKEN, E.EMAIL_TAKEN, E.PHONE_TAKEN],
  },
  {
    method: 'post',
    path: '/api/auth/login',
    operationId: 'login',
    summary: 'Sign in with identifier and authKey (and a TOTP code when 2FA is on)',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'LoginBody',
    success: [
      {
        status: 200,
        description: 'Signed in (refresh cookie set), or a second factor is needed (no token, no cookie)',
        schema: ['AuthResponse', 'Requires2faResponse'],
        setsCookie: true,
      },
    ],
    errors: [E.VALIDATION_FAILED, E.INVALID_CREDENTIALS, E.EMERGENCY_VERIFICATION_REQUIRED, E.ACCOUNT_LOCKED],
  },
  {
    method: 'post',
    path: '/api/auth/refresh',
    operationId: 'refresh',
    summary: 'A new access token from the refresh cookie; the cookie rotates',
    tag: 'auth',
    security: 'refresh-cookie',
    rateLimit: 'auth',
    success: [
      {
        status: 200,
        description: 'New access token; a rotated cookie unless within the grace window',
        schema: 'RefreshResponse',
        setsCookie: true,
      },
    ],
    errors: [E.UNAUTHENTICATED, E.REFRESH_INVALID, E.REFRESH_REUSED],
  },
  {
    method: 'post',
    path: '/api/auth/logout',
    operationId: 'logout',
    summary: 'End the session of the refresh cookie (and of the bearer token, if valid); clears the cookie',
    tag: 'auth',
    security: 'optional-bearer',
    rateLimit: 'api',
    success: [{ status: 204, description: 'Signed out, cookie cleared', clearsCookie: true }],
    errors: [],
  },
  {
    method: 'get',
    path: '/api/auth/me',
    operationId: 'me',
    summary: 'The signed-in user and the material to unlock the vault',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'The caller', schema: 'MeResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'post',
    path: '/api/auth/change-password',
    operationId: 'changePassword',
    summary: 'Replace the authKey and the wrapped vault key; other sessions are revoked',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    body: 'ChangePasswordBody',
    success: [{ status: 204, description: 'Changed' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.INVALID_CREDENTIALS],
  },
  {
    method: 'get',
    path: '/api/auth/sessions',
    operationId: 'listSessions',
    summary: "The caller's own sessions (devices)",
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Sessions', schema: 'SessionListResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'delete',
    path: '/api/auth/sessions/{id}',
    operationId: 'revokeSession',
    summary: "End one of the caller's sessions",
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    params: sessionIdParamSchema,
    success: [{ status: 204, description: 'Session ended' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'get',
    path: '/api/auth/settings',
    operationId: 'getSettings',
    summary: "The caller's settings (the malware-fingerprint opt-in)",
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Settings', schema: 'AccountSettings' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'put',
    path: '/api/auth/settings',
    operationId: 'updateSettings',
    summary:
      'Change the settings. malwareFingerprintCheck: the client then sends the SHA-256 of each upload’s ' +
      'plaintext with upload-complete, for a lookup in known-malware hash signatures',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'api',
    body: 'AccountSettings',
    success: [{ status: 200, description: 'The stored settings', schema: 'AccountSettings' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'delete',
    path: '/api/auth/account',
    operationId: 'deleteAccount',
    summary:
      'Delete the account (authKey re-checked): every session ends now; notes, files and stored objects ' +
      'are purged by background jobs; clears the refresh cookie',
    tag: 'auth',
    security: 'bearer',
    rateLimit: 'auth',
    body: 'DeleteAccountBody',
    success: [{ status: 204, description: 'Account deleted, cookie cleared', clearsCookie: true }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.INVALID_PASSWORD],
  },
  {
    method: 'post',
    path: '/api/auth/verify-emergency',
    operationId: 'verifyEmergency',
    summary:
      "Sign in after a 418: the account's username and phone number along with the authKey; the device " +
      'becomes known. Failures count toward the lockout',
    tag: 'auth',
    security: 'none',
    rateLimit: 'auth',
    body: 'VerifyEmergencyBody',
    success: [
      {
        status: 200,
        description: 'Signed in (refresh cookie set), or a second factor is needed (no token, no cookie)',
        schema: ['AuthResponse', 'Requires2faResponse'],
        setsCookie: true,
      },
    ],
    errors: [E.VALIDATION_FAILED, E.EMERGENCY_VERIFICATION_FAILED, E.ACCOUNT_LOCKED],
  },
  {
    method: 'get',
    path: '/api/notes',
    operationId: 'listNotes',
    summary:
      'Active notes, newest updatedAt first (ties: in the order they were stored, then by id). Without ' +
      'limit: all of them. With limit: one page ' +
      'of at most `limit` notes (a page may hold fewer: it carries at most about 768 KiB of ciphertext) and ' +
      '`nextCursor` for the next page, null on the last one',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    query: listNotesQuerySchema,
    success: [{ status: 200, description: 'Notes (sealed)', schema: 'NoteListResponse' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'get',
    path: '/api/notes/deleted',
    operationId: 'listDeletedNotes',
    summary: 'The trash: deleted notes, most recently deleted first',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Deleted notes (sealed)', schema: 'DeletedNoteListResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'get',
    path: '/api/notes/counts',
    operationId: 'countNotes',
    summary:
      'How many notes are active and how many in the trash (sidebar). ' +
      'An addition to the original contract (docs/api.md)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Counts', schema: 'NoteCountsResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'post',
    path: '/api/notes',
    operationId: 'createNote',
    summary:
      `Store a note sealed on the client under its client-made id (at most ${NOTE_MAX_BYTES} bytes of ` +
      'sealed fields). Repeating the same request (same id, same body) changes nothing and answers the note',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    body: 'CreateNoteBody',
    success: [{ status: 201, description: 'Created (or the same request again)', schema: 'NoteResponse' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.CONFLICT, E.PAYLOAD_TOO_LARGE],
  },
  {
    method: 'post',
    path: '/api/notes/batch',
    operationId: 'createNotesBatch',
    summary:
      `Store 1 to ${NOTE_BATCH_MAX_NOTES} notes sealed on the client in one request and one transaction ` +
      '(imports). Each note is checked exactly as POST /api/notes checks it, ids must be distinct within ' +
      `the batch, and the notes together may hold at most ${NOTE_BATCH_MAX_BYTES} bytes of sealed fields ` +
      '(413 otherwise; a note over the single-note limit answers that 413 first). Idempotent per note: an ' +
      'id the caller already holds with the same body is answered as it is now. Any id that is taken (a ' +
      'different body, or another user’s) answers 409 with the taken ids in `ids`, and nothing of the ' +
      'batch is stored. A note may bring the `createdAt` and `updatedAt` of the backup it comes from ' +
      `(both or neither; from ${NOTE_DATE_MIN} to ${NOTE_DATE_MAX_SKEW_MS / 60_000} minutes ahead of the ` +
      'server’s clock; createdAt not after updatedAt; 400 naming the note otherwise): they are kept to ' +
      'the millisecond, the others get the time of the request. Notes with the same updatedAt are listed ' +
      'in the order they were stored: a batch in its order, after earlier batches, so an import that ' +
      'sends its batches one after another keeps its file’s order. ' +
      'An addition to the original contract (docs/api.md)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    body: 'CreateNoteBatchBody',
    success: [
      {
        status: 201,
        description: 'Every note of the batch, in the order sent (created, or already there)',
        schema: 'CreateNoteBatchResponse',
      },
    ],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.CONFLICT, E.PAYLOAD_TOO_LARGE],
  },
  {
    method: 'put',
    path: '/api/notes/{id}',
    operationId: 'updateNote',
    summary:
      'Replace the sealed fields of an active note (a note in the trash answers 404: restore it first)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    params: noteIdParamSchema,
    body: 'UpdateNoteBody',
    success: [{ status: 200, description: 'Updated', schema: 'NoteResponse' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND, E.PAYLOAD_TOO_LARGE],
  },
  {
    method: 'put',
    path: '/api/notes/{id}/key',
    operationId: 'rewrapNoteKey',
    summary:
      'Replace only the wrapped key of a note, active or in the trash (the re-wrap under the current vault ' +
      'key after an access reset). updatedAt and every sealed field stay. ' +
      'An addition to the original contract (docs/api.md)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    params: noteIdParamSchema,
    body: 'RewrapNoteKeyBody',
    success: [{ status: 204, description: 'Re-wrapped' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'delete',
    path: '/api/notes/trash',
    operationId: 'emptyTrash',
    summary:
      'Permanently delete every note in the trash ("Empty Trash"). ' +
      'An addition to the original contract (docs/api.md)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'How many notes were deleted', schema: 'EmptyTrashResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'delete',
    path: '/api/notes/{id}',
    operationId: 'deleteNote',
    summary: 'Soft delete: move the note to the trash (a note already there stays as it is)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    params: noteIdParamSchema,
    success: [{ status: 204, description: 'In the trash' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'post',
    path: '/api/notes/{id}/restore',
    operationId: 'restoreNote',
    summary: 'Take a note out of the trash (an active note is answered as it is)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    params: noteIdParamSchema,
    success: [{ status: 200, description: 'Restored', schema: 'NoteResponse' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'delete',
    path: '/api/notes/{id}/permanent',
    operationId: 'purgeNote',
    summary: 'Permanently delete a note of the trash (an active note answers 404: delete it first)',
    tag: 'notes',
    security: 'bearer',
    rateLimit: 'api',
    params: noteIdParamSchema,
    success: [{ status: 204, description: 'Deleted for good' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'get',
    path: '/api/files/storage-types',
    operationId: 'listStorageTypes',
    summary:
      'Every storage kind the product supports (`kinds`: local disk, S3/R2/MinIO, Cloudinary), each with ' +
      'whether this deployment has configured it and the files service settings that turn it on ' +
      '(`enableWith`, environment variable names); `types` lists the configured kinds only (the ' +
      "answer's first shape); `default` is the configured kind the upload dialog preselects. An " +
      'upload to a kind that is not configured is refused (STORAGE_NOT_CONFIGURED)',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    success: [
      {
        status: 200,
        description: 'Every storage kind, whether configured, and the default',
        schema: 'StorageTypesResponse',
      },
    ],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'post',
    path: '/api/files/upload-url',
    operationId: 'createUpload',
    summary:
      'Record a pending upload of a file sealed on the client and sign where its bytes go: PUT them ' +
      `there as application/octet-stream within ${FILE_URL_TTL_SECONDS / 60} minutes (a relative ` +
      '/api/files/blob/... URL on this origin, or an S3 presigned URL), then POST /api/files/upload-complete. ' +
      `The plaintext size is at most ${FILE_MAX_BYTES} bytes. The same request again (same fileId, same body) ` +
      'signs a new URL for the same pending upload',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    body: 'CreateUploadBody',
    success: [
      {
        status: 201,
        description:
          'Pending upload recorded, URL signed. partSize (local storage only) means the bytes may ' +
          'also go in ordered parts of at most partSize bytes (see PUT /api/files/blob/{objectKey})',
        schema: 'CreateUploadResponse',
      },
    ],
    errors: [
      E.VALIDATION_FAILED,
      E.STORAGE_NOT_CONFIGURED,
      E.UNAUTHENTICATED,
      E.SESSION_REVOKED,
      E.CONFLICT,
      E.PAYLOAD_TOO_LARGE,
    ],
  },
  {
    method: 'post',
    path: '/api/files/upload-complete',
    operationId: 'completeUpload',
    summary:
      'Check the stored object against encryptedSize, make the file visible and queue its scan ' +
      '(repeating it answers the same file)',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    body: 'CompleteUploadBody',
    success: [{ status: 200, description: 'The uploaded file', schema: 'FileResponse' }],
    errors: [E.VALIDATION_FAILED, E.UPLOAD_SIZE_MISMATCH, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'post',
    path: '/api/files/cloudinary/upload-url',
    operationId: 'createCloudinaryUpload',
    summary:
      'Record a pending Cloudinary upload and sign the parameters of a direct upload: POST ' +
      'multipart/form-data to uploadUrl with every entry of fields and the encrypted bytes as file',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    body: 'FileMetadataBody',
    success: [
      {
        status: 201,
        description: 'Pending upload recorded, parameters signed',
        schema: 'CloudinaryUploadUrlResponse',
      },
    ],
    errors: [
      E.VALIDATION_FAILED,
      E.STORAGE_NOT_CONFIGURED,
      E.UNAUTHENTICATED,
      E.SESSION_REVOKED,
      E.CONFLICT,
      E.PAYLOAD_TOO_LARGE,
    ],
  },
  {
    method: 'post',
    path: '/api/files/cloudinary/upload',
    operationId: 'uploadToCloudinary',
    summary:
      'Upload through the gateway to Cloudinary in one request: multipart/form-data with the metadata ' +
      'fields as text (numbers as decimal text) first and the encrypted bytes as the part "file" last ' +
      '(a file before the fields answers 400 "Send the metadata fields before the file"). The file is ' +
      `streamed to storage, never held; the whole body may be at most ${MULTIPART_MAX_BYTES} bytes`,
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    body: 'CloudinaryUploadForm',
    bodyType: 'multipart',
    success: [{ status: 201, description: 'Stored and completed', schema: 'CloudinaryUploadResponse' }],
    errors: [
      E.VALIDATION_FAILED,
      E.STORAGE_NOT_CONFIGURED,
      E.UPLOAD_SIZE_MISMATCH,
      E.UNAUTHENTICATED,
      E.SESSION_REVOKED,
      E.CONFLICT,
      E.PAYLOAD_TOO_LARGE,
    ],
  },
  {
    method: 'get',
    path: '/api/files',
    operationId: 'listFiles',
    summary: 'Active files (sealed metadata), most recently uploaded first',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Files', schema: 'FileListResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'get',
    path: '/api/files/deleted',
    operationId: 'listDeletedFiles',
    summary: 'The files trash',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Deleted files', schema: 'FileListResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'get',
    path: '/api/files/counts',
    operationId: 'countFiles',
    summary:
      'How many files are active and in the trash, and their stored bytes (sidebar). ' +
      'An addition to the original contract (docs/api.md)',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'Counts', schema: 'FileCountsResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'delete',
    path: '/api/files/trash',
    operationId: 'emptyFilesTrash',
    summary:
      'Permanently delete every file in the trash, stored objects included. ' +
      'An addition to the original contract (docs/api.md)',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    success: [{ status: 200, description: 'How many files were deleted', schema: 'EmptyTrashResponse' }],
    errors: [E.UNAUTHENTICATED, E.SESSION_REVOKED],
  },
  {
    method: 'delete',
    path: '/api/files/{id}',
    operationId: 'deleteFile',
    summary: 'Soft delete: move the file to the trash',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    params: fileIdParamSchema,
    success: [{ status: 204, description: 'In the trash' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'post',
    path: '/api/files/{id}/restore',
    operationId: 'restoreFile',
    summary: 'Take a file out of the trash',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    params: fileIdParamSchema,
    success: [{ status: 200, description: 'Restored', schema: 'FileResponse' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'put',
    path: '/api/files/{id}/key',
    operationId: 'rewrapFileKey',
    summary:
      'Replace only the wrapped key of a file, active or in the trash (the re-wrap under the current vault ' +
      'key after an access reset); a pending upload answers 404. ' +
      'An addition to the original contract (docs/api.md)',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    params: fileIdParamSchema,
    body: 'RewrapFileKeyBody',
    success: [{ status: 204, description: 'Re-wrapped' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'delete',
    path: '/api/files/{id}/permanent',
    operationId: 'purgeFile',
    summary: 'Permanently delete a file of the trash and its stored object',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    params: fileIdParamSchema,
    success: [{ status: 204, description: 'Deleted for good' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'get',
    path: '/api/files/{id}/metadata',
    operationId: 'fileMetadata',
    summary: 'The encryption metadata of a file (sealed name and type, sizes, iv, chunk size, wrapped key)',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    params: fileIdParamSchema,
    success: [{ status: 200, description: 'Encryption metadata', schema: 'FileEncryptionMetadata' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'get',
    path: '/api/files/{id}/optimized',
    operationId: 'fileThumbnail',
    summary:
      'The sealed thumbnail made on the device at upload (404 when the file has none). The server cannot ' +
      'resize an encrypted picture: width, height, quality and format are checked, then ignored',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'api',
    params: fileIdParamSchema,
    query: thumbnailQuerySchema,
    success: [{ status: 200, description: 'Sealed thumbnail', schema: 'ThumbnailResponse' }],
    errors: [E.VALIDATION_FAILED, E.UNAUTHENTICATED, E.SESSION_REVOKED, E.NOT_FOUND],
  },
  {
    method: 'post',
    path: '/api/files/{id}/download-url',
    operationId: 'fileDownloadUrl',
    summary:
      'Re-check the password (authKey; 401 "Invalid password" when wrong, and no URL is signed), then sign ' +
      `a GET of the stored (encrypted) object valid for ${FILE_URL_TTL_SECONDS / 60} minutes. Counts against ` +
      'the auth rate limit',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'auth',
    params: fileIdParamSchema,
    body: 'FileAccessBody',
    success: [{ status: 200, description: 'Signed download URL', schema: 'DownloadUrlResponse' }],
    errors: [
      E.VALIDATION_FAILED,
      E.UNAUTHENTICATED,
      E.SESSION_REVOKED,
      E.INVALID_PASSWORD,
      E.FILE_INFECTED,
      E.NOT_FOUND,
      E.ACCOUNT_LOCKED,
    ],
  },
  {
    method: 'post',
    path: '/api/files/{id}/preview',
    operationId: 'filePreview',
    summary:
      'As download-url, answered as a preview: content is the signed URL of the stored object, decrypted ' +
      'for preview on the device',
    tag: 'files',
    security: 'bearer',
    rateLimit: 'auth',
    params: fileIdParamSchema,
    body: 'FileAccessBody',
    success: [{ status: 200, description: 'Signed preview URL', schema: 'PreviewResponse' }],
    errors: [
      E.VALIDATION_FAILED,
      E.UNAUTHENTICATED,
      E.SESSION_REVOKED,
      E.INVALID_PASSWORD,
      E.FILE_INFECTED,
      E.NOT_FOUND,
      E.ACCOUNT_LOCKED,
    ],
  },
  {
    method: 'put',
    path: '/api/files/blob/{objectKey}',
    operationId: 'putBlob',
    summary:
      'Signed upload URL of this deployment’s own storage (local disk, Cloudinary through the files ' +
      'service): no token, the URL’s signature is the credential. The encrypted bytes, exactly the ' +
      `declared encryptedSize (at most ${BLOB_MAX_BYTES} bytes), streamed to storage. objectKey is ` +
      '<ownerId>/<fileId> (it holds a slash); op, exp, len and sig come in the query as signed. ' +
      'Where upload-url answered partSize (local storage), the bytes may instead come in PARTS, in ' +
      'order, each a PUT to the same URL with Content-Range: bytes <first>-<last>/<encryptedSize> ' +
      `and at most partSize (${UPLOAD_PART_MAX_BYTES}) bytes: first 0 starts over, any other first ` +
      'must equal the bytes stored so far (409 names where the next part starts), a refused part ' +
      'changes nothing and can be resent, and the last part puts the object in place. The first ' +
      'part needs an unexpired URL; later parts of an upload still pending may follow after expiry',
    tag: 'files',
    security: 'none',
    rateLimit: 'blob',
    params: blobKeyParamSchema,
    query: blobQuerySchema,
    headers: [
      {
        name: 'Content-Range',
        description:
          'One part of an upload in parts: bytes <first>-<last>/<encryptedSize> (inclusive); ' +
          'only where upload-url answered partSize',
      },
    ],
    body: 'BlobBytes',
    bodyType: 'binary',
    success: [{ status: 204, description: 'Stored (the object, or one part of it)' }],
    errors: [E.VALIDATION_FAILED, E.UPLOAD_SIZE_MISMATCH, E.LINK_INVALID, E.CONFLICT, E.PAYLOAD_TOO_LARGE],
  },
  {
    method: 'get',
    path: '/api/files/blob/{objectKey}',
    operationId: 'getBlob',
    summary:
      'Signed download URL (from download-url or preview): the stored encrypted bytes, streamed. One ' +
      'byte range (Range: bytes=a-b) answers 206 with Content-Range',
    tag: 'files',
    security: 'none',
    rateLimit: 'blob',
    params: blobKeyParamSchema,
    query: blobQuerySchema,
    success: [
      { status: 200, description: 'The encrypted object', binary: true },
      { status: 206, description: 'The requested range of the encrypted object', binary: true },
    ],
    errors: [E.VALIDATION_FAILED, E.LINK_INVALID, E.FILE_INFECTED, E.NOT_FOUND],
  },
  {
    method: 'head',
    path: '/api/files/blob/{objectKey}',
    operationId: 'headBlob',
    summary: 'As GET, headers only (Content-Length, Accept-Ranges)',
    tag: 'files',
    security: 'none',
    rateLimit: 'blob',
    params: blobKeyParamSchema,
    query: blobQuerySchema,
    success: [{ status: 200, description: 'The object’s headers' }],
    errors: [E.VALIDATION_FAILED, E.LINK_INVALID, E.FILE_INFECTED, E.NOT_FOUND],
  },
  {
    method: 'get',
    path: '/api/health',
    operationId: 'health',
    summary: 'Readiness: every dependency answers within 2 s',
    tag: 'health',
    security: 'none',
    rateLimit: 'api',
    success: [
      { status: 200, description: 'All services ok', schema: 'HealthResponse' },
      {
        status: 503,
        description: 'Degraded: the services that did not answer are "down"',
        schema: 'HealthResponse',
      },
    ],
    errors: [],
  },
  {
    method: 'get',
    path: '/api/health/live',
    operationId: 'live',
    summary: 'Liveness: the gateway process answers',
    tag: 'health',
    security: 'none',
    rateLimit: 'none',
    success: [{ status: 200, description: 'Alive', schema: 'LiveResponse' }],
    errors: [],
  },
  ...TWO_FACTOR_ROUTES,
  ...RECOVERY_ROUTES,
];

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/**
 * The sign-up schema checks its fields in the spec's order inside one refinement, which JSON
 * Schema cannot see; the documented properties are the contract's own field schemas.
 */
function signupSchema(): JsonSchema {
  const schema = jsonSchema(signupBodySchema, 'input');
  const props = schema.properties as Record<string, JsonSchema>;
  props.username = {
    ...props.username,
    minLength: SIGNUP_LIMITS.usernameMin,
    maxLength: SIGNUP_LIMITS.usernameMax,
    pattern: USERNAME_RE.source,
  };
  props.email = { ...props.email, pattern: EMAIL_RE.source, description: 'Stored lower-cased' };
  props.phoneNumber = { ...props.phoneNumber, pattern: PHONE_RE.source };
  props.authKey = jsonSchema(authKeySchema, 'input');
  props.salt = jsonSchema(saltSchema, 'input');
  props.kdfParams = jsonSchema(kdfParamsSchema, 'input');
  props.wrappedVaultKey = jsonSchema(sealedKey(), 'input');
  return schema;
}

const BINARY_SCHEMA: JsonSchema = {
  type: 'string',
  contentMediaType: 'application/octet-stream',
  description: 'Encrypted bytes (the file as sealed on the client)',
};

/**
 * The multipart form of `POST /api/files/cloudinary/upload`: the metadata fields of the JSON
 * upload routes as text parts (numbers as decimal text), then `file`, last.
 */
function cloudinaryUploadForm(): JsonSchema {
  const metadata = jsonSchema(fileMetadataSchema, 'input');
  const props = metadata.properties as Record<string, JsonSchema>;
  return {
    ...metadata,
    properties: { ...props, file: { ...BINARY_SCHEMA, description: 'The encrypted bytes; the last part' } },
    required: [...((metadata.required as string[] | undefined) ?? []), 'file'],
  };
}

const errorBodySchema: JsonSchema = {
  type: 'object',
  properties: {
    error: { type: 'string', description: 'Human-readable message (the spec’s text where it has one)' },
    code: { type: 'string', enum: Object.values(ErrorCode) },
    requestId: { type: 'string', description: 'Also sent as the x-request-id header' },
    retryAfter: { type: 'integer', description: 'Seconds to wait (423, 429)' },
    requiresEmergencyVerification: { type: 'boolean', description: 'Present on 418' },
  },
  required: ['error', 'code'],
  additionalProperties: true,
};

function components(): Record<string, JsonSchema> {
  return {
    ErrorBody: errorBodySchema,
    PreloginBody: jsonSchema(preloginBodySchema, 'input'),
    SignupBody: signupSchema(),
    LoginBody: jsonSchema(loginBodySchema, 'input'),
    ChangePasswordBody: jsonSchema(changePasswordBodySchema, 'input'),
    DeleteAccountBody: jsonSchema(deleteAccountBodySchema, 'input'),
    AccountSettings: jsonSchema(accountSettingsSchema, 'input'),
    VerifyEmergencyBody: jsonSchema(verifyEmergencyBodySchema, 'input'),
    PreloginResponse: jsonSchema(preloginResponseSchema, 'output'),
    AuthResponse: jsonSchema(authResponseSchema, 'output'),
    Requires2faResponse: jsonSchema(requires2faResponseSchema, 'output'),
    RefreshResponse: jsonSchema(refreshResponseSchema, 'output'),
    MeResponse: jsonSchema(meResponseSchema, 'output'),
    SessionListResponse: jsonSchema(sessionListResponseSchema, 'output'),
    CreateNoteBody: jsonSchema(createNoteBodySchema, 'input'),
    CreateNoteBatchBody: jsonSchema(createNoteBatchBodySchema, 'input'),
    CreateNoteBatchResponse: jsonSchema(createNoteBatchResponseSchema, 'output'),
    UpdateNoteBody: jsonSchema(updateNoteBodySchema, 'input'),
    RewrapNoteKeyBody: jsonSchema(rewrapNoteKeyBodySchema, 'input'),
    NoteListResponse: jsonSchema(noteListResponseSchema, 'output'),
    NoteResponse: jsonSchema(noteResponseSchema, 'output'),
    DeletedNoteListResponse: jsonSchema(deletedNoteListResponseSchema, 'output'),
    EmptyTrashResponse: jsonSchema(emptyTrashResponseSchema, 'output'),
    NoteCountsResponse: jsonSchema(noteCountsResponseSchema, 'output'),
    StorageTypesResponse: jsonSchema(storageTypesResponseSchema, 'output'),
    CreateUploadBody: jsonSchema(createUploadBodySchema, 'input'),
    CreateUploadResponse: jsonSchema(createUploadResponseSchema, 'output'),
    CompleteUploadBody: jsonSchema(completeUploadBodySchema, 'input'),
    FileMetadataBody: jsonSchema(fileMetadataSchema, 'input'),
    CloudinaryUploadUrlResponse: jsonSchema(cloudinaryUploadUrlResponseSchema, 'output'),
    CloudinaryUploadForm: cloudinaryUploadForm(),
    CloudinaryUploadResponse: jsonSchema(cloudinaryUploadResponseSchema, 'output'),
    FileListResponse: jsonSchema(fileListResponseSchema, 'output'),
    FileResponse: jsonSchema(fileResponseSchema, 'output'),
    FileCountsResponse: jsonSchema(fileCountsResponseSchema, 'output'),
    FileEncryptionMetadata: jsonSchema(fileEncryptionMetadataSchema, 'output'),
    ThumbnailResponse: jsonSchema(thumbnailResponseSchema, 'output'),
    FileAccessBody: jsonSchema(fileAccessBodySchema, 'input'),
    RewrapFileKeyBody: jsonSchema(rewrapFileKeyBodySchema, 'input'),
    DownloadUrlResponse: jsonSchema(downloadUrlResponseSchema, 'output'),
    PreviewResponse: jsonSchema(previewResponseSchema, 'output'),
    BlobBytes: BINARY_SCHEMA,
    HealthResponse: jsonSchema(healthResponseSchema, 'output'),
    LiveResponse: jsonSchema(liveResponseSchema, 'output'),
    ...twoFactorComponents(),
    ...recoveryComponents(),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const RETRY_AFTER_HEADER = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
};

function errorResponses(route: RouteDoc): Record<string, unknown> {
  const codes = new Set<ErrorCode>(route.errors);
  if (route.body) codes.add(E.PAYLOAD_TOO_LARGE).add(E.VALIDATION_FAILED);
  if (route.query) codes.add(E.VALIDATION_FAILED);
  if (route.rateLimit !== 'none') codes.add(E.RATE_LIMITED);
  if (route.tag !== 'health') codes.add(E.SERVICE_UNAVAILABLE);
  codes.add(E.INTERNAL);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_INFO[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus.entries()].sort((a, b) => a[0] - b[0])) {
    const description = list.map((c) => `${c}: ${ERROR_INFO[c].message}`).join(' | ');
    out[String(status)] = {
      description,
      ...(status === 423 || status === 429 ? { headers: RETRY_AFTER_HEADER } : {}),
      content: { 'application/json': { schema: ref('ErrorBody') } },
    };
  }
  return out;
}

function successResponses(route: RouteDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const s of route.success) {
    const headers: Record<string, unknown> = {};
    if (s.setsCookie) {
      headers['Set-Cookie'] = {
        description: `${REFRESH_COOKIE.name}=<refresh token>; HttpOnly; SameSite=Strict; Path=${REFRESH_COOKIE.path}; Max-Age=<grant>; Secure outside localhost`,
        schema: { type: 'string' },
      };
    }
    if (s.clearsCookie) {
      headers['Set-Cookie'] = {
        description: `${REFRESH_COOKIE.name}=; Path=${REFRESH_COOKIE.path}; Expires in the past`,
        schema: { type: 'string' },
      };
    }
    const schema = Array.isArray(s.schema)
      ? { oneOf: s.schema.map(ref) }
      : s.schema
        ? ref(s.schema)
        : undefined;
    if (s.binary) {
      headers['Content-Length'] = { description: 'Bytes of this answer', schema: { type: 'integer' } };
      headers['Accept-Ranges'] = { description: 'bytes', schema: { type: 'string' } };
      if (s.status === 206) {
        headers['Content-Range'] = { description: 'bytes <first>-<last>/<size>', schema: { type: 'string' } };
      }
    }
    out[String(s.status)] = {
      description: s.description,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(schema ? { content: { 'application/json': { schema } } } : {}),
      ...(s.binary ? { content: { 'application/octet-stream': { schema: BINARY_SCHEMA } } } : {}),
    };
  }
  return out;
}

function pathParameters(route: RouteDoc): unknown[] | undefined {
  if (!route.params) return undefined;
  const schema = jsonSchema(route.params, 'input');
  const props = schema.properties as Record<string, JsonSchema>;
  return Object.entries(props).map(([name, s]) => ({ name, in: 'path', required: true, schema: s }));
}

function queryParameters(route: RouteDoc): unknown[] {
  if (!route.query) return [];
  const schema = jsonSchema(route.query, 'input');
  const props = schema.properties as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: 'query',
    required: required.has(name),
    schema: s,
  }));
}

function headerParameters(route: RouteDoc): unknown[] {
  return (route.headers ?? []).map(({ name, description }) => ({
    name,
    in: 'header',
    required: false,
    description,
    schema: { type: 'string' },
  }));
}

function security(route: RouteDoc): unknown[] | undefined {
  switch (route.security) {
    case 'bearer':
      return [{ bearer: [] }];
    case 'optional-bearer':
      return [{}, { bearer: [] }];
    case 'refresh-cookie':
      return [{ refreshCookie: [] }];
    default:
      return [];
  }
}

const MEDIA_TYPES = {
  json: 'application/json',
  multipart: 'multipart/form-data',
  binary: 'application/octet-stream',
} as const;

export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, unknown>;
}

export function buildOpenApiDocument(version = '0.1.0'): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of ROUTES) {
    const parameters = [
      ...(pathParameters(route) ?? []),
      ...queryParameters(route),
      ...headerParameters(route),
    ];
    const operation: Record<string, unknown> = {
      operationId: route.operationId,
      summary: route.summary,
      tags: [route.tag],
      security: security(route),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.body
        ? {
            requestBody: {
              required: true,
              content: { [MEDIA_TYPES[route.bodyType ?? 'json']]: { schema: ref(route.body) } },
            },
          }
        : {}),
      responses: { ...successResponses(route), ...errorResponses(route) },
    };
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Vault API',
      version,
      description:
        'End-to-end encrypted vault. JSON in and out. Errors: `{error, code, ...extra, requestId}`; ' +
        'validation failures answer 400 with the first failing rule. Every answer carries `x-request-id`.',
    },
    servers: [{ url: '/' }],
    tags: [
      { name: 'auth', description: 'Accounts, sign-in, sessions (docs/api.md "Routes")' },
      {
        name: 'notes',
        description:
          'Notes sealed on the client (docs/api.md "Notes"): every text field is ' +
          '`hex(ciphertext||tag):hex(iv)`; the server never sees a title, a content or a tag',
      },
      {
        name: 'files',
        description:
          'Files sealed on the client (docs/api.md "Files"): names, types and tags are sealed ' +
          'like notes, the bytes are encrypted in 64 KiB chunks and go to storage by signed URL; the server ' +
          'never sees a plaintext byte or name',
      },
      { name: 'health', description: 'Probes' },
    ],
    paths,
    components: {
      schemas: components(),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT (EdDSA)' },
        refreshCookie: { type: 'apiKey', in: 'cookie', name: REFRESH_COOKIE.name },
      },
    },
  };
}
