import { FILE_MAX_BYTES, FILE_SIZE_EXCEEDED } from '@vault/contracts';

/** Spec sections 5 and 8: the File Vault's texts. */
export const FILE_MESSAGES = {
  tooLarge: FILE_SIZE_EXCEEDED,
  typeNotAllowed: (type: string) => `File type ${type} is not allowed`,
  nameTooLong: 'Filename is too long',
  uploadFailed: 'Upload failed',
  uploadFailedStatus: (status: number) => `Upload failed with status ${status}`,
  encryptFailed: 'Failed to encrypt file',
  noKey: 'Encryption key not available',
  loadFailed: 'Failed to load files',
  deleteFailed: 'Failed to delete file',
  confirmDelete: 'Are you sure you want to delete this file? It will be moved to trash.',
  infected: 'File is infected and cannot be downloaded',
  encryptedFile: 'Encrypted File',
  /** Under 'Encrypted File': why there is no name (not in the spec). */
  metadataFailed:
    'Its name and type could not be decrypted with your vault key: they were changed on the server, or sealed under another key.',
  invalidName: 'Invalid encrypted name',
} as const;

/** Spec section 9: 100 MB (100 MiB, as the server counts it). */
export const MAX_FILE_BYTES = FILE_MAX_BYTES;
export const MAX_NAME_LENGTH = 255;
/** Spec section 5: a decrypted file name must be under 1000 characters (else it is not shown). */
export const MAX_DECRYPTED_NAME_LENGTH = 1000;

/** Spec section 5: jpeg, png, gif, webp, pdf, plain text, Word, Excel, zip (two zip types). */
export const ALLOWED_MIME_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'application/pdf',
  'text/plain',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/zip',
  'application/x-zip-compressed',
];

/**
 * Types by extension, for files the browser gives no type (an empty `File.type` is common for
 * .docx, .xlsx and .zip on some systems). Only the allowed types are listed.
 */
const TYPE_BY_EXTENSION: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  txt: 'text/plain',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
};

/** The `accept` of the file picker: the allowed types and their extensions. */
export const ACCEPT_ATTRIBUTE = [
  ...ALLOWED_MIME_TYPES,
  ...Object.keys(TYPE_BY_EXTENSION).map((ext) => `.${ext}`),
].join(',');

/** The file's type: what the browser says, else what its extension says, else ''. */
export function resolveMimeType(file: { name: string; type: string }): string {
  if (file.type) return file.type.toLowerCase();
  const dot = file.name.lastIndexOf('.');
  if (dot < 0) return '';
  return TYPE_BY_EXTENSION[file.name.slice(dot + 1).toLowerCase()] ?? '';
}

/** Spec section 5, in order: size, type, name. Null when the file may be uploaded. */
export function validateFile(file: { name: string; size: number; type: string }): string | null {
  if (file.size > MAX_FILE_BYTES) return FILE_MESSAGES.tooLarge;
  const type = resolveMimeType(file);
  if (!ALLOWED_MIME_TYPES.includes(type)) return FILE_MESSAGES.typeNotAllowed(type || 'unknown');
  if (file.name.length > MAX_NAME_LENGTH) return FILE_MESSAGES.nameTooLong;
  return null;
}

/** The dialog's comma-separated tags: trimmed, without empties and without duplicates (first spelling kept). */
export function parseTags(input: string): string[] {
  const out: string[] = [];
  for (const raw of input.split(',')) {
    const tag = raw.trim();
    if (tag && !out.includes(tag)) out.push(tag);
  }
  return out;
}
