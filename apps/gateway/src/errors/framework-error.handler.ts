import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, VaultError } from '@vault/contracts';
import { FRAMEWORK_MESSAGES, toHttpError } from './http-error-mapping';

/**
 * Requests Fastify's router refuses before any route runs get the API's error shape and request id,
 * not Fastify's own body (its `FST_ERR_*` code, and the path echoed back):
 * - a path that is not valid percent-encoding (`FST_ERR_BAD_URL`): 400 VALIDATION_FAILED;
 * - a path segment past the router's 100 characters (`FST_ERR_MAX_PARAM_LENGTH`): 404, as for any
 *   id that names nothing (every id and token the API takes in a path is shorter).
 * The answer is the exception filter's (toHttpError). No route hook runs for these requests, so
 * the headers an error answer needs are set here.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const refusal =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new VaultError(ErrorCode.NOT_FOUND, FRAMEWORK_MESSAGES.notFound)
      : new VaultError(
          ErrorCode.VALIDATION_FAILED,
          error.code === 'FST_ERR_BAD_URL' ? FRAMEWORK_MESSAGES.badUrl : FRAMEWORK_MESSAGES.badRequest,
        );
  const answer = toHttpError(refusal, request.id);
  void reply
    .code(answer.status)
    .headers({
      ...answer.headers,
      'x-request-id': request.id,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    })
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(answer.body));
}
