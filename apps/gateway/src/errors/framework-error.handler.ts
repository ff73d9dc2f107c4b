import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_INFO, ErrorCode } from '@vault/contracts';

/**
 * Requests Fastify's router refuses before any route runs get the API's error shape and request id,
 * not Fastify's own body (its `FST_ERR_*` code, and the path echoed back):
 * - a path that is not valid percent-encoding (`FST_ERR_BAD_URL`): 400 VALIDATION_FAILED;
 * - a path segment past the router's 100 characters (`FST_ERR_MAX_PARAM_LENGTH`): 404, as for any
 *   id that names nothing (every id and token the API takes in a path is shorter).
 * No route hook runs for these requests, so the headers an error answer needs are set here.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const code = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? ErrorCode.NOT_FOUND : ErrorCode.VALIDATION_FAILED;
  const message = error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : ERROR_INFO[code].message;
  void reply
    .code(ERROR_INFO[code].status)
    .headers({
      'x-request-id': request.id,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    })
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: message, code, requestId: request.id }));
}
