import type { Socket } from 'node:net';
import { ERROR_INFO, ErrorCode } from '@vault/contracts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over 16 KiB, a request that
 * does not arrive in time, bytes that are not HTTP) get the same error shape as every other answer:
 * `{error, code}` with the status, then the connection is closed (the parser cannot go on from
 * there). Fastify's default writes a body without our `code`. No request id: there is no request.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody to answer (Node's own behaviour).
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const code =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? ErrorCode.HEADERS_TOO_LARGE
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ErrorCode.REQUEST_TIMEOUT
        : ErrorCode.VALIDATION_FAILED;
  const { status } = ERROR_INFO[code];
  const message = code === ErrorCode.VALIDATION_FAILED ? 'Malformed HTTP request' : ERROR_INFO[code].message;
  const body = JSON.stringify({ error: message, code });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Cache-Control: no-store\r\n' +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroySoon();
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
