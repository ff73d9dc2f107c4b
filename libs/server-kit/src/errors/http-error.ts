import { ERROR_INFO, ErrorCode, VaultError, type ErrorBody } from '@vault/contracts';

/** The HTTP status and body for a domain error (one mapping for every service). */
export function httpErrorFor(error: VaultError, requestId?: string): { status: number; body: ErrorBody } {
  const body: ErrorBody = { ...error.extra, error: error.message, code: error.code };
  if (requestId) body.requestId = requestId;
  return { status: ERROR_INFO[error.code].status, body };
}

const PEER_DOWN_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/** Normalises what an RPC client observable errors with (payload, Error, timeout...). */
export function vaultErrorFromRpc(error: unknown): VaultError {
  const fromPayload = VaultError.fromPayload(error);
  if (fromPayload) return fromPayload;
  if (error instanceof VaultError) return error;
  // Read structurally: errors raised by Node's net layer may come from another realm. Nest's NATS
  // client rejects with a bare string while it reconnects ('Error: Connection lost. ...').
  const e = (
    typeof error === 'object' && error !== null ? error : typeof error === 'string' ? { message: error } : {}
  ) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
  };
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : '';
  const code = typeof e.code === 'string' ? e.code : '';
  // NATS refuses a message over the server's max_payload before it leaves: the body is too big.
  if (code === 'MAX_PAYLOAD_EXCEEDED' || /maximum payload/i.test(message)) {
    return new VaultError(ErrorCode.PAYLOAD_TOO_LARGE);
  }
  // The peer is down or did not answer in time: the caller sees 503, never a hang. Over NATS, a
  // service with no replica subscribed (all down, or not yet subscribed again after NATS came back)
  // answers "no responders", which Nest reports as an empty response.
  if (
    name === 'TimeoutError' ||
    PEER_DOWN_CODES.has(code) ||
    /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|closed|Connection|no subscribers listening/i.test(message)
  ) {
    return new VaultError(ErrorCode.SERVICE_UNAVAILABLE);
  }
  return new VaultError(ErrorCode.INTERNAL);
}
