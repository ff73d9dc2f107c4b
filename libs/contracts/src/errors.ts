/**
 * Errors as codes (docs/architecture.md "Code conventions"). Services throw `VaultError` with a code;
 * the gateway's filter maps the code to an HTTP status and the spec's message.
 */
export const ErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  /** The request's headers together exceed the server's limit (16 KiB): refused before routing. */
  HEADERS_TOO_LARGE: 'HEADERS_TOO_LARGE',
  /** The request did not arrive whole within the server's time limit. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  ACCOUNT_LOCKED: 'ACCOUNT_LOCKED',
  EMERGENCY_VERIFICATION_REQUIRED: 'EMERGENCY_VERIFICATION_REQUIRED',
  EMERGENCY_VERIFICATION_FAILED: 'EMERGENCY_VERIFICATION_FAILED',
  USERNAME_TAKEN: 'USERNAME_TAKEN',
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  PHONE_TAKEN: 'PHONE_TAKEN',
  REFRESH_INVALID: 'REFRESH_INVALID',
  REFRESH_REUSED: 'REFRESH_REUSED',
  SESSION_REVOKED: 'SESSION_REVOKED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
  INVALID_PASSWORD: 'INVALID_PASSWORD',
  FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  UPLOAD_SIZE_MISMATCH: 'UPLOAD_SIZE_MISMATCH',
  STORAGE_NOT_CONFIGURED: 'STORAGE_NOT_CONFIGURED',
  /** The file storage (disk, S3, Cloudinary) failed or did not answer: nothing was stored; try again. */
  STORAGE_UNAVAILABLE: 'STORAGE_UNAVAILABLE',
  LINK_INVALID: 'LINK_INVALID',
  FILE_INFECTED: 'FILE_INFECTED',
  INVALID_VERIFICATION_CODE: 'INVALID_VERIFICATION_CODE',
  INVALID_BACKUP_CODE: 'INVALID_BACKUP_CODE',
  INVALID_RECOVERY_CODE: 'INVALID_RECOVERY_CODE',
  INVALID_RECOVERY_KEY: 'INVALID_RECOVERY_KEY',
  INCORRECT_ANSWERS: 'INCORRECT_ANSWERS',
  NO_SECURITY_QUESTIONS: 'NO_SECURITY_QUESTIONS',
  BYPASS_TOKEN_INVALID: 'BYPASS_TOKEN_INVALID',
  /** A signed-in account that is not an admin, on the admin API or the admin sign-in. */
  ADMIN_REQUIRED: 'ADMIN_REQUIRED',
  /** An admin account without two-factor authentication: the console refuses it. */
  ADMIN_2FA_REQUIRED: 'ADMIN_2FA_REQUIRED',
  /** An admin without the permission a call needs. */
  PERMISSION_DENIED: 'PERMISSION_DENIED',
  /** The server test runner is off, or this install has no test sources for it. */
  TEST_RUNNER_UNAVAILABLE: 'TEST_RUNNER_UNAVAILABLE',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

interface ErrorInfo {
  status: number;
  message: string;
}

/** HTTP status and default message (the spec's text, section 8, where it has one). */
export const ERROR_INFO: Record<ErrorCode, ErrorInfo> = {
  VALIDATION_FAILED: { status: 400, message: 'Invalid request' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body too large' },
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers too large' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive' },
  UNAUTHENTICATED: { status: 401, message: 'Authentication required' },
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid credentials' },
  ACCOUNT_LOCKED: {
    status: 423,
    message: 'Account Temporarily Locked due to 5 consecutive failed login attempts',
  },
  EMERGENCY_VERIFICATION_REQUIRED: {
    status: 418,
    message: 'Unusual activity detected. Please verify your identity with additional information.',
  },
  EMERGENCY_VERIFICATION_FAILED: { status: 401, message: 'Emergency verification failed' },
  USERNAME_TAKEN: { status: 409, message: 'Username already taken' },
  EMAIL_TAKEN: { status: 409, message: 'Email already registered' },
  PHONE_TAKEN: { status: 409, message: 'Phone number already registered' },
  REFRESH_INVALID: { status: 401, message: 'Invalid refresh token' },
  REFRESH_REUSED: { status: 401, message: 'Refresh token reuse detected; the session was ended' },
  SESSION_REVOKED: { status: 401, message: 'Session has ended' },
  FORBIDDEN: { status: 403, message: 'Forbidden' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  CONFLICT: { status: 409, message: 'Conflict' },
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please try again later.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable' },
  INTERNAL: { status: 500, message: 'Internal server error' },
  INVALID_PASSWORD: { status: 401, message: 'Invalid password' },
  FILE_TOO_LARGE: { status: 413, message: 'File size exceeds maximum allowed size of 100MB' },
  UPLOAD_SIZE_MISMATCH: { status: 400, message: 'The uploaded file does not match its declared size' },
  STORAGE_NOT_CONFIGURED: { status: 400, message: 'This storage type is not configured' },
  STORAGE_UNAVAILABLE: {
    status: 503,
    message: 'The file storage is not available right now. Nothing was stored; please try again.',
  },
  LINK_INVALID: { status: 403, message: 'This link is invalid or has expired' },
  FILE_INFECTED: { status: 403, message: 'File is infected and cannot be downloaded' },
  INVALID_VERIFICATION_CODE: { status: 401, message: 'Invalid verification code' },
  INVALID_BACKUP_CODE: { status: 401, message: 'Invalid backup code' },
  INVALID_RECOVERY_CODE: { status: 400, message: 'Invalid recovery code' },
  INVALID_RECOVERY_KEY: { status: 401, message: 'Invalid recovery key' },
  INCORRECT_ANSWERS: { status: 401, message: 'Incorrect answers' },
  NO_SECURITY_QUESTIONS: {
    status: 404,
    message: 'No security questions found for this account. Try email recovery instead.',
  },
  BYPASS_TOKEN_INVALID: {
    status: 401,
    message: 'Recovery session expired or already used. Please start again.',
  },
  ADMIN_REQUIRED: { status: 403, message: 'Admin privileges required' },
  ADMIN_2FA_REQUIRED: {
    status: 403,
    message:
      'Two-factor authentication is required for admin accounts. Sign in to the vault, turn it on in ' +
      'Settings → Security, then sign in here again.',
  },
  PERMISSION_DENIED: { status: 403, message: "You don't have permission to access this resource." },
  TEST_RUNNER_UNAVAILABLE: {
    status: 403,
    message:
      'The server test runner is off. To turn it on, set TEST_RUNNER_ENABLED=true for the admin ' +
      'service and restart it.',
  },
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_INFO, value);
}

/** Extra fields an error body may carry (docs/api.md "Errors"). */
export interface ErrorExtra {
  retryAfter?: number;
  requiresEmergencyVerification?: boolean;
  [key: string]: unknown;
}

/** The JSON body of every error answer. */
export interface ErrorBody extends ErrorExtra {
  error: string;
  code: ErrorCode;
  requestId?: string;
}

/** A domain error: thrown by services, carried over RPC as `{code, message, extra}`. */
export class VaultError extends Error {
  readonly code: ErrorCode;
  readonly extra: ErrorExtra;

  constructor(code: ErrorCode, message?: string, extra: ErrorExtra = {}) {
    super(message ?? ERROR_INFO[code].message);
    this.name = 'VaultError';
    this.code = code;
    this.extra = extra;
  }

  get status(): number {
    return ERROR_INFO[this.code].status;
  }

  /** The serialisable form sent over RPC. */
  toPayload(): RpcErrorPayload {
    return { code: this.code, message: this.message, extra: this.extra };
  }

  static fromPayload(payload: unknown): VaultError | undefined {
    if (typeof payload !== 'object' || payload === null) return undefined;
    const p = payload as Partial<RpcErrorPayload>;
    if (!isErrorCode(p.code)) return undefined;
    const extra = typeof p.extra === 'object' && p.extra !== null ? p.extra : {};
    return new VaultError(p.code, typeof p.message === 'string' ? p.message : undefined, extra);
  }
}

export interface RpcErrorPayload {
  code: ErrorCode;
  message: string;
  extra: ErrorExtra;
}
