import { Catch, type RpcExceptionFilter, type ArgumentsHost, Logger } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { ErrorCode, VaultError, type RpcErrorPayload } from '@vault/contracts';
import { throwError, type Observable } from 'rxjs';
import { ZodError } from 'zod';
import { isStoreUnavailable } from './store-unavailable';

/** Turns anything a handler throws into the `{code, message, extra}` RPC error payload. */
export function toRpcErrorPayload(error: unknown): RpcErrorPayload {
  if (error instanceof VaultError) return error.toPayload();
  if (error instanceof RpcException) {
    const inner = VaultError.fromPayload(error.getError());
    if (inner) return inner.toPayload();
  }
  if (error instanceof ZodError) {
    const issue = error.issues[0];
    return new VaultError(ErrorCode.VALIDATION_FAILED, issue?.message).toPayload();
  }
  // PostgreSQL or Redis is down or restarting: the request may be tried again (docs/operations.md).
  if (isStoreUnavailable(error)) return new VaultError(ErrorCode.SERVICE_UNAVAILABLE).toPayload();
  return new VaultError(ErrorCode.INTERNAL).toPayload();
}

/** The exception filter of every RPC service: domain codes travel, internals stay here. */
@Catch()
export class RpcDomainExceptionFilter implements RpcExceptionFilter {
  private readonly logger = new Logger('RpcExceptionFilter');

  catch(exception: unknown, _host: ArgumentsHost): Observable<never> {
    const payload = toRpcErrorPayload(exception);
    if (payload.code === ErrorCode.INTERNAL) {
      const err = exception instanceof Error ? exception : new Error(String(exception));
      this.logger.error(err.message, err.stack);
    } else if (payload.code === ErrorCode.SERVICE_UNAVAILABLE && !(exception instanceof VaultError)) {
      // A store is down: one line with its reason, no stack (it is not a bug).
      this.logger.warn(
        `A store is unavailable: ${exception instanceof Error ? exception.message : String(exception)}`,
      );
    }
    return throwError(() => payload);
  }
}
