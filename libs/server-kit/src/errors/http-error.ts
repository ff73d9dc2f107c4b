import { ERROR_INFO, ErrorCode, VaultError, type ErrorBody } from '@vault/contracts';

/** The HTTP status and body for a domain error (one mapping for every service). */
export function httpErrorFor(error: VaultError, requestId?: string): { status: number; body: ErrorBody } {
  const body: ErrorBody = { ...error.extra, error: error.message, code: error.code };
  if (requestId) body.requestId = requestId;
  return { status: ERROR_INFO[error.code].status, body };
}

/** Normalises what an RPC client observable errors with (payload, Error, timeout...). */
export function vaultErrorFromRpc(error: unknown): VaultError {
  const fromPayload = VaultError.fromPayload(error);
  if (fromPayload) return fromPayload;
  if (error instanceof VaultError) return error;
  const name = error instanceof Error ? error.name : '';
  const message = error instanceof Error ? error.message : '';
  // The peer is down or did not answer in time: the caller sees 503, never a hang.
  if (name === 'TimeoutError' || /ECONNREFUSED|ECONNRESET|closed|Connection/i.test(message)) {
    return new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
  }
  return new VaultError(ErrorCode.INTERNAL);
}
