/** The texts of file access (spec sections 2, 4, 5, 8), in one place for the UI and the tests. */
export const ACCESS_MESSAGES = {
  invalidPassword: 'Invalid password',
  authFailed: 'Authentication failed',
  infected: 'File is infected and cannot be downloaded',
  keyMissing: 'Encryption key not available',
  keyUnavailable: 'Could not get decryption key',
  notAuthenticated: 'Not authenticated',
  downloadFailed: 'Download failed',
  downloadFailedStatus: (status: number) => `Download failed with status ${status}`,
  encryptedContentFailed: (status: number) => `Failed to download encrypted content: ${status}`,
  /** A tampered, truncated, extended or reordered stored object (any chunk failing its AES-GCM check). */
  integrity: 'The file failed its integrity check: it was changed or cut short',
  previewFailed: 'Failed to load preview',
  previewDecryptFailed: (reason: string) => `Failed to decrypt: ${reason}`,
  previewTooLarge: 'This file is too large to preview (the limit is 100 MB). Download it instead.',
  unsafeUrl: 'The server returned an unusable download address',
} as const;

export const PROMPT_TEXT = {
  download: {
    title: 'Authenticate Download',
    description: (name: string) => `Enter your password to download "${name}"`,
    action: 'Download',
  },
  preview: {
    title: 'Authenticate Preview',
    description: (name: string) => `Enter your password to preview "${name}"`,
    action: 'Preview',
  },
} as const;

export const PREVIEW_TEXT = {
  encryptedNotice: 'This file is end-to-end encrypted and was decrypted for preview on this device.',
  escHint: 'Press ESC to close',
  errorTitle: 'Preview Error',
  pdfInvalidHeader: 'Invalid PDF data - missing PDF header',
  pdfForceLoad: 'Force Load PDF (Skip Validation)',
  pdfFailed: (reason: string) => `Failed to display PDF: ${reason}`,
  pdfNativeFailed: 'Browser PDF viewer failed to load. Please download the PDF.',
  pdfUnavailable: 'PDF Preview Unavailable',
  popupBlocked: 'The new tab was blocked. Allow pop-ups for this site, or download the PDF.',
} as const;

/** Spec section 4: "progress is cleared 3 seconds after completion". */
export const PROGRESS_CLEAR_MS = 3000;
