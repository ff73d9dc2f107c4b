import { Catch, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '../logging/logger.token';
import { toHttpError } from './http-error-mapping';

/**
 * The one HTTP exception filter (docs/architecture.md "Code conventions": errors as codes): every
 * error answer has the same shape `{error, code, ...extra, requestId}`. Unexpected errors are
 * logged with their stack; request bodies never are.
 */
@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const answer = toHttpError(exception, request.id);
    if (answer.unexpected) {
      this.logger.error(
        {
          requestId: request.id,
          err: {
            type: answer.unexpected.name,
            message: answer.unexpected.message,
            stack: answer.unexpected.stack,
          },
        },
        'unhandled error',
      );
    }
    if (reply.sent) return;
    reply
      .status(answer.status)
      .headers(answer.headers)
      .type('application/json; charset=utf-8')
      .send(answer.body);
  }
}
