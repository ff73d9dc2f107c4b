import { ErrorCode, VaultError } from '@vault/contracts';
import { lingerThenClose } from '@vault/server-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FRAMEWORK_MESSAGES } from '../errors/http-error-mapping';

/**
 * Routes whose handler reads the request body itself, as a stream: the signed blob route
 * (encrypted bytes, up to the encrypted maximum of a file) and the multipart Cloudinary upload.
 * Their bodies are never parsed or buffered by Fastify, so the JSON body limit does not apply to
 * them; the handlers enforce their own limits while streaming.
 */
export const STREAMED_BODY_ROUTES: ReadonlySet<string> = new Set([
  '/api/files/blob/*',
  '/api/files/cloudinary/upload',
]);

function isStreamed(request: FastifyRequest): boolean {
  return STREAMED_BODY_ROUTES.has(request.routeOptions.url ?? '');
}

/**
 * Every content type other than JSON: left unread for the streamed routes (and for unknown
 * paths, which answer 404 without reading), refused everywhere else with the same 400 as
 * before (`Request body must be JSON`). A body left unread is read and dropped for at most
 * REFUSED_BODY_LINGER_MS after the answer, then its connection closes: an early refusal (401,
 * 413, a bad form) reaches a client that is still sending, and never drains a 100 MB upload.
 */
export function registerStreamedBodies(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('*', (request, _payload, done) => {
    if (request.is404 || isStreamed(request)) done(null, undefined);
    else done(new VaultError(ErrorCode.VALIDATION_FAILED, FRAMEWORK_MESSAGES.notJson), undefined);
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    // Fastify asks to close the connection after a body it refused unread (over the limit, not
    // JSON): Node then drops the socket the moment the answer is written, and a client still
    // sending loses the answer to EPIPE (apps/e2e/api/body-limit.e2e-spec.ts). The connection is
    // kept instead: lingerThenClose reads and drops the rest for at most 2 s, then closes it.
    if (!request.raw.complete && reply.getHeader('connection') === 'close') reply.removeHeader('connection');
    lingerThenClose(request.raw);
    return payload;
  });
}
