import { HttpException } from '@nestjs/common';
import { ErrorCode, VaultError, type ErrorBody } from '@vault/contracts';
import { httpErrorFor } from '@vault/server-kit';

export interface HttpErrorAnswer {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
  /** Set when the cause is unexpected and its stack belongs in the log. */
  unexpected?: Error;
}

/** Statuses whose answers tell the client when to try again. */
const RETRY_AFTER_STATUSES = new Set([423, 429, 503]);

/** Texts for what Fastify and Nest raise before a handler runs (their own texts can echo input). */
export const FRAMEWORK_MESSAGES = {
  notFound: 'Not found',
  notJson: 'Request body must be JSON (Content-Type: application/json)',
  malformedJson: 'Malformed JSON in request body',
  badRequest: 'Invalid request',
  badUrl: 'Malformed URL',
} as const;

function frameworkError(status: number): VaultError {
  switch (status) {
    case 404:
      return new VaultError(ErrorCode.NOT_FOUND, FRAMEWORK_MESSAGES.notFound);
    case 413:
      return new VaultError(ErrorCode.PAYLOAD_TOO_LARGE);
    case 415:
      return new VaultError(ErrorCode.VALIDATION_FAILED, FRAMEWORK_MESSAGES.notJson);
    case 401:
      return new VaultError(ErrorCode.UNAUTHENTICATED);
    case 403:
      return new VaultError(ErrorCode.FORBIDDEN);
    case 429:
      return new VaultError(ErrorCode.RATE_LIMITED);
    case 503:
      return new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
    default:
      return status >= 400 && status < 500
        ? new VaultError(ErrorCode.VALIDATION_FAILED, FRAMEWORK_MESSAGES.badRequest)
        : new VaultError(ErrorCode.INTERNAL);
  }
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof HttpException) return error.getStatus();
  const s = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof s === 'number' && s >= 400 && s <= 599 ? s : undefined;
}

/**
 * One mapping from anything thrown to the HTTP answer: domain errors by code, framework
 * errors by status (with our own texts), everything else a 500 that names nothing internal.
 */
export function toHttpError(error: unknown, requestId?: string): HttpErrorAnswer {
  let vault: VaultError;
  let unexpected: Error | undefined;
  if (error instanceof VaultError) {
    vault = error;
  } else {
    const status = statusOf(error);
    if (status !== undefined && status < 500) {
      vault = frameworkError(status);
    } else {
      vault = new VaultError(ErrorCode.INTERNAL);
      unexpected = error instanceof Error ? error : new Error(String(error));
    }
  }
  // A domain INTERNAL never carries details out, whatever the thrower put in.
  if (vault.code === ErrorCode.INTERNAL) vault = new VaultError(ErrorCode.INTERNAL);
  const { status, body } = httpErrorFor(vault, requestId);
  const headers: Record<string, string> = {};
  const retryAfter = body.retryAfter;
  if (RETRY_AFTER_STATUSES.has(status) && typeof retryAfter === 'number' && retryAfter > 0) {
    headers['retry-after'] = String(Math.ceil(retryAfter));
  }
  return unexpected ? { status, body, headers, unexpected } : { status, body, headers };
}
