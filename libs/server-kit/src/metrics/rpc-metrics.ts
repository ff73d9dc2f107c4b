import { type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { ERROR_INFO, ErrorCode } from '@vault/contracts';
import { tap, type Observable } from 'rxjs';
import { toRpcErrorPayload } from '../errors/rpc-exception.filter';
import { defineHistogram } from './registry';

/** Seconds: a call is a few milliseconds, a slow one is a problem long before the 10 s timeout. */
const RPC_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * How a call ended, as a class (the error codes stay in the logs): `ok`; `client_error`, a refusal
 * the caller gets as a 4xx (wrong password, not found, validation); `unavailable`, a peer down or
 * silent (SERVICE_UNAVAILABLE, timeouts); `server_error`, anything else (INTERNAL).
 */
export type RpcOutcome = 'ok' | 'client_error' | 'unavailable' | 'server_error';

export function rpcOutcomeOf(error: unknown): Exclude<RpcOutcome, 'ok'> {
  const { code } = toRpcErrorPayload(error);
  if (code === ErrorCode.SERVICE_UNAVAILABLE) return 'unavailable';
  return (ERROR_INFO[code]?.status ?? 500) < 500 ? 'client_error' : 'server_error';
}

export const rpcClientDuration = () =>
  defineHistogram(
    'rpc_client_duration_seconds',
    'RPC calls made to other services, by message pattern and outcome',
    ['pattern', 'outcome'],
    RPC_BUCKETS,
  );

export const rpcServerDuration = () =>
  defineHistogram(
    'rpc_server_duration_seconds',
    'RPC messages handled by this service, by message pattern and outcome',
    ['pattern', 'outcome'],
    RPC_BUCKETS,
  );

/** Times one outgoing call: `await timedRpcCall(pattern, () => rpcCall(...))`. */
export async function timedRpcCall<T>(pattern: string, call: () => Promise<T>): Promise<T> {
  const end = rpcClientDuration().startTimer({ pattern });
  try {
    const reply = await call();
    end({ outcome: 'ok' });
    return reply;
  } catch (error) {
    end({ outcome: rpcOutcomeOf(error) });
    throw error;
  }
}

/** The message pattern a handler answers (its @MessagePattern), read once per handler. */
const patterns = new WeakMap<object, string>();
function patternOf(handler: object): string {
  let pattern = patterns.get(handler);
  if (pattern === undefined) {
    const declared: unknown = Reflect.getMetadata(PATTERN_METADATA, handler);
    const first: unknown = Array.isArray(declared) ? declared[0] : declared;
    pattern = typeof first === 'string' ? first : first === undefined ? 'unknown' : JSON.stringify(first);
    patterns.set(handler, pattern);
  }
  return pattern;
}

/**
 * Times every message an RPC service handles (startRpcService installs it): the handler's pattern
 * (from the code, never the payload) and how it ended, before the exception filter turns an error
 * into its payload.
 */
export class RpcMetricsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const end = rpcServerDuration().startTimer({ pattern: patternOf(context.getHandler()) });
    return next.handle().pipe(
      tap({
        complete: () => end({ outcome: 'ok' }),
        error: (error: unknown) => end({ outcome: rpcOutcomeOf(error) }),
      }),
    );
  }
}
