import { ErrorCode, VaultError } from '@vault/contracts';
import type { FastifyInstance } from 'fastify';
import { FRAMEWORK_MESSAGES } from '../errors/http-error-mapping';

/**
 * JSON is the only body the API takes. Fastify's own parser is kept (prototype-poisoning
 * protection included), but its errors are replaced: they quote the body, and a body can
 * hold secrets. An empty JSON body counts as no body, so bodiless calls (refresh, logout)
 * work whatever Content-Type a client sends. Any other content type answers 400.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit },
    (request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      parseJson(request, text, (error, value) => {
        if (error)
          done(new VaultError(ErrorCode.VALIDATION_FAILED, FRAMEWORK_MESSAGES.malformedJson), undefined);
        else done(null, value);
      });
    },
  );
}
