/** Messages of spec section 8 ("General") that the API client produces itself. */
export const API_MESSAGES = {
  network: 'Network error',
  authFailed: 'Authentication failed',
  noAccessToken: 'No access token received',
  refreshCooldown: 'Token refresh in cooldown period',
  refreshFailed: (status: number) => `Token refresh failed: ${status}`,
  http: (status: number) => `HTTP ${status}`,
} as const;

/**
 * A failed call: the HTTP status (0 when the network failed) and the answer's `error` text,
 * else 'HTTP {status}'. `code` and the extra fields (`retryAfter`, ...) come from the body.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: Record<string, unknown> | undefined;
  readonly retryAfter: number | undefined;

  constructor(
    status: number,
    message: string,
    init: { code?: string; body?: Record<string, unknown>; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = init.code;
    this.body = init.body;
    this.retryAfter = init.retryAfter;
  }
}

export function isApiError(error: unknown, status?: number): error is ApiError {
  return error instanceof ApiError && (status === undefined || error.status === status);
}

/** The text to show for any failure: an ApiError's message, else `fallback`. */
export function messageOf(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message) return error.message;
  return fallback;
}
