import { z } from 'zod';
import { hexBytes, sealed, sealedKey, uuidV4 } from '../common/formats';
import { strictBody } from '../common/validation';

/** Spec section 9 and docs/api.md "Conventions": the plaintext of a file is at most 100 MiB. */
export const FILE_MAX_BYTES = 100 * 1024 * 1024;
/** docs/crypto-protocol.md "Content in chunks": 64 KiB chunks, each sealed with a 16-byte tag. */
export const FILE_CHUNK_SIZE = 65_536;
export const FILE_CHUNK_TAG_BYTES = 16;
/** Sealed thumbnails (GET /files/{id}/optimized) are small pictures: at most this many hex characters. */
export const FILE_THUMBNAIL_MAX_CHARS = 512 * 1024;
/** Upload, download and preview URLs live 5 minutes (docs/api.md "Files"). */
export const FILE_URL_TTL_SECONDS = 300;
/** Uploads begun (upload-url) and never completed are removed by the cleanup job after this long. */
export const FILE_UPLOAD_ABANDON_SECONDS = 3600;
/**
 * The most ciphertext bytes one PART of an upload may carry, offered as `partSize` by every
 * storage that takes an upload in parts: local disk and Cloudinary (`PUT <uploadUrl>` with
 * `Content-Range`), S3 (one presigned URL per part, `partUrls`, where every part but the last
 * carries exactly this many bytes).
 */
export const UPLOAD_PART_MAX_BYTES = 16 * 1024 * 1024;
/**
 * The fewest bytes a part other than the last may carry, on every storage: Cloudinary's chunks
 * (the blob route's `Content-Range` parts) and S3's parts must hold at least 5 MiB, all but the
 * last; the local disk takes any size. A client that does not know the storage behind `uploadUrl`
 * makes every part but the last at least this big.
 */
export const UPLOAD_PART_MIN_BYTES = 5 * 1024 * 1024;

export const FILE_SIZE_EXCEEDED = 'File size exceeds maximum allowed size of 100MB';

export const STORAGE_TYPES = ['local', 's3', 'cloudinary'] as const;
export const storageTypeSchema = z.enum(STORAGE_TYPES, { error: 'Unknown storage type' });
export type StorageType = z.output<typeof storageTypeSchema>;

export const VIRUS_SCAN_RESULTS = ['pending', 'clean', 'infected', 'error'] as const;
export type VirusScanResult = (typeof VIRUS_SCAN_RESULTS)[number];

/**
 * `encryptedSize = size + 16 * max(1, ceil(size / chunkSize))` (docs/crypto-protocol.md
 * "Content in chunks").
 */
export function expectedEncryptedSize(size: number, chunkSize: number): number {
  return size + FILE_CHUNK_TAG_BYTES * Math.max(1, Math.ceil(size / chunkSize));
}

/** The sealed metadata every upload route takes (upload-url, both Cloudinary routes). */
const fileMetadataFields = {
  fileId: uuidV4,
  size: z
    .number({ error: 'size must be a number of bytes' })
    .int('size must be a whole number of bytes')
    .min(0, 'size must not be negative')
    .max(FILE_MAX_BYTES, FILE_SIZE_EXCEEDED),
  encryptedSize: z.number({ error: 'encryptedSize must be a number' }).int().min(FILE_CHUNK_TAG_BYTES),
  chunkSize: z.literal(FILE_CHUNK_SIZE, { error: `chunkSize must be ${FILE_CHUNK_SIZE}` }),
  iv: hexBytes(12, 'Invalid iv'),
  wrappedKey: sealedKey('Invalid wrapped file key'),
  encryptedName: sealed('Invalid encrypted name').max(16_384, 'Invalid encrypted name'),
  encryptedMimeType: sealed('Invalid encrypted type').max(2_048, 'Invalid encrypted type'),
  encryptedTags: sealed('Invalid encrypted tags').max(65_536, 'Invalid encrypted tags'),
  /** A small sealed picture for the card (images only); see GET /files/{id}/optimized. */
  encryptedThumbnail: sealed('Invalid encrypted thumbnail')
    .max(FILE_THUMBNAIL_MAX_CHARS, 'Thumbnail too large')
    .optional(),
};

function sizesAgree(body: { size: number; encryptedSize: number; chunkSize: number }): boolean {
  return body.encryptedSize === expectedEncryptedSize(body.size, body.chunkSize);
}
const SIZES_DISAGREE = {
  message: 'encryptedSize must equal size + 16 * max(1, ceil(size / chunkSize))',
  path: ['encryptedSize'],
};

export const fileMetadataSchema = strictBody(fileMetadataFields).refine(sizesAgree, SIZES_DISAGREE);
export type FileMetadataBody = z.output<typeof fileMetadataSchema>;

/** POST /api/files/upload-url */
export const createUploadBodySchema = strictBody({
  ...fileMetadataFields,
  storageType: storageTypeSchema,
}).refine(sizesAgree, SIZES_DISAGREE);
export type CreateUploadBody = z.output<typeof createUploadBodySchema>;

export const createUploadResponseSchema = z.object({
  fileId: z.string(),
  /** A PUT of the whole ciphertext (every storage), or of its parts with `Content-Range` (local disk, Cloudinary). */
  uploadUrl: z.string(),
  expiresAt: z.string(),
  /** Present only when the storage takes the upload in parts: the most bytes one part may carry. */
  partSize: z.number().int().positive().optional(),
  /**
   * S3: one presigned URL per part, in order. Part `i` (from 0) is a PUT of bytes `i * partSize`
   * up to `(i + 1) * partSize` (the last part: to the end), without `Content-Range`, in any order
   * and several at once; upload-complete joins them. One part: the URL is `uploadUrl` itself.
   * More than one (a multipart upload): valid until the upload is abandoned.
   */
  partUrls: z.array(z.string()).min(1).optional(),
});
export type CreateUploadResponse = z.output<typeof createUploadResponseSchema>;

/** POST /api/files/cloudinary/upload-url: signed parameters for a direct upload. */
export const cloudinaryUploadUrlResponseSchema = z.object({
  fileId: z.string(),
  uploadUrl: z.string(),
  fields: z.record(z.string(), z.string()),
  expiresAt: z.string(),
});
export type CloudinaryUploadUrlResponse = z.output<typeof cloudinaryUploadUrlResponseSchema>;

/** POST /api/files/upload-complete */
/**
 * `plaintextSha256`: only from accounts that opted in to the malware-fingerprint check (GET/PUT
 * /api/auth/settings); the SHA-256 of the file's plaintext, passed to the scan job and kept
 * nowhere else.
 */
const plaintextSha256Schema = z
  .string()
  .regex(/^[0-9a-f]{64}$/, 'plaintextSha256 must be 64 lowercase hex characters');
export const completeUploadBodySchema = strictBody({
  fileId: uuidV4,
  plaintextSha256: plaintextSha256Schema.optional(),
});
export type CompleteUploadBody = z.output<typeof completeUploadBodySchema>;

export const fileIdParamSchema = z.strictObject({ id: uuidV4 });
export type FileIdParam = z.output<typeof fileIdParamSchema>;

/**
 * `PUT /api/files/{id}/key` (an addition to the contract): the file key re-wrapped under the
 * current vault key (`seal(vaultKey, fileKey, "vault:v1:file-key:" + id)`), after an access reset
 * left it under a legacy one. Active and trashed files; a pending upload answers 404.
 */
export const rewrapFileKeyBodySchema = strictBody({ wrappedKey: fileMetadataFields.wrappedKey });
export type RewrapFileKeyBody = z.output<typeof rewrapFileKeyBodySchema>;

/** The `files.rewrap-key` RPC body: the route's id beside the re-wrapped key. */
export const rewrapFileKeyRequestSchema = strictBody({
  id: uuidV4,
  wrappedKey: fileMetadataFields.wrappedKey,
});
export type RewrapFileKeyRequest = z.output<typeof rewrapFileKeyRequestSchema>;

/** POST /api/files/{id}/download-url and /preview: the password, turned into authKey on the device. */
export const fileAccessBodySchema = strictBody({
  authKey: z
    .string({ error: 'Please enter your password' })
    .length(64, 'Please enter your password')
    .regex(/^[0-9a-f]+$/, 'Please enter your password'),
});
export type FileAccessBody = z.output<typeof fileAccessBodySchema>;

export const fileDtoSchema = z.object({
  id: z.string(),
  encryptedName: z.string(),
  encryptedMimeType: z.string(),
  encryptedTags: z.string(),
  wrappedKey: z.string(),
  iv: z.string(),
  chunkSize: z.number(),
  size: z.number(),
  encryptedSize: z.number(),
  storageType: storageTypeSchema,
  uploadedAt: z.string(),
  deletedAt: z.string().nullable(),
  virusScanned: z.boolean(),
  virusScanResult: z.enum(VIRUS_SCAN_RESULTS),
  /** What the scan examined and found, in words (for the badge's title); absent until scanned. */
  virusScanDetail: z.string().nullable().optional(),
  /** GET /files/{id}/optimized answers a sealed thumbnail (false: 404). */
  hasThumbnail: z.boolean(),
});
export type FileDto = z.output<typeof fileDtoSchema>;

export const fileResponseSchema = z.object({ file: fileDtoSchema });
export type FileResponse = z.output<typeof fileResponseSchema>;
export const fileListResponseSchema = z.object({ files: z.array(fileDtoSchema) });
export type FileListResponse = z.output<typeof fileListResponseSchema>;

export const downloadUrlResponseSchema = z.object({
  downloadUrl: z.string(),
  size: z.number(),
  encryptedSize: z.number(),
  expiresAt: z.string(),
});
export type DownloadUrlResponse = z.output<typeof downloadUrlResponseSchema>;

export const previewResponseSchema = z.object({ content: z.string(), expiresAt: z.string() });
export type PreviewResponse = z.output<typeof previewResponseSchema>;

/** GET /api/files/{id}/metadata: the encryption metadata (spec "File encryption metadata"). */
export const fileEncryptionMetadataSchema = z.object({
  encryptedName: z.string(),
  encryptedMimeType: z.string(),
  originalSize: z.number(),
  encryptedSize: z.number(),
  iv: z.string(),
  chunkSize: z.number(),
  wrappedKey: z.string(),
});
export type FileEncryptionMetadata = z.output<typeof fileEncryptionMetadataSchema>;

/** GET /api/files/{id}/optimized */
export const thumbnailResponseSchema = z.object({ encryptedThumbnail: z.string() });
export type ThumbnailResponse = z.output<typeof thumbnailResponseSchema>;

/**
 * One storage kind the product supports (GET /api/files/storage-types `kinds`): whether this
 * deployment has it configured, and the files service's settings (environment variable names)
 * that turn it on, for the upload dialog to explain a kind it cannot offer.
 */
export const storageKindSchema = z.object({
  type: storageTypeSchema,
  label: z.string(),
  configured: z
    .boolean()
    .describe('Whether this deployment has this kind configured (uploads to it are accepted)'),
  enableWith: z
    .array(z.string())
    .describe('The files service settings that turn this kind on: environment variable names, or NAME=value'),
});
export type StorageKind = z.output<typeof storageKindSchema>;

/**
 * GET /api/files/storage-types. `types`: the configured kinds only (the answer's first shape,
 * kept for older clients); `kinds`: every kind the product supports, configured or not, in the
 * order of STORAGE_TYPES; `default`: the configured kind uploads preselect.
 */
export const storageTypesResponseSchema = z.object({
  types: z
    .array(z.object({ type: storageTypeSchema, label: z.string() }))
    .describe('The configured kinds only'),
  kinds: z.array(storageKindSchema).describe('Every kind the product supports, configured or not'),
  default: storageTypeSchema.describe('The configured kind uploads preselect'),
});
export type StorageTypesResponse = z.output<typeof storageTypesResponseSchema>;

export const fileCountsResponseSchema = z.object({
  active: z.number(),
  deleted: z.number(),
  bytes: z.number(),
});
export type FileCountsResponse = z.output<typeof fileCountsResponseSchema>;

/** Why a user's own object is being fetched: the blob route signs one operation on one object. */
export const BLOB_OPERATIONS = ['put', 'get'] as const;
export type BlobOperation = (typeof BLOB_OPERATIONS)[number];

/** The BullMQ job the files service queues after an upload completes (scan-worker consumes it). */
export const SCAN_QUEUE = 'file-scan';
export const scanFileJobSchema = z.object({
  fileId: uuidV4,
  ownerId: z.string(),
  storageType: storageTypeSchema,
  objectKey: z.string(),
  size: z.number().int().min(0),
  encryptedSize: z.number().int(),
  chunkSize: z.number().int(),
  /** The opt-in plaintext fingerprint, looked up in ClamAV's hash signatures. */
  plaintextSha256: plaintextSha256Schema.optional(),
});
export type ScanFileJob = z.output<typeof scanFileJobSchema>;

/** The scan worker's verdicts go back to the files service (which owns the results) on this queue. */
export const SCAN_RESULT_QUEUE = 'file-scan-result';
export const scanFileResultSchema = z.object({
  fileId: uuidV4,
  result: z.enum(['clean', 'infected', 'error']),
  /** What was examined and what was found, in words (shown in the badge's title). */
  detail: z.string().max(500),
});
export type ScanFileResult = z.output<typeof scanFileResultSchema>;
