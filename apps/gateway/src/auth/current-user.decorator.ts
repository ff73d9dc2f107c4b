import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ErrorCode, VaultError, type RpcAuth } from '@vault/contracts';
import type { FastifyRequest } from 'fastify';

/** The caller established by JwtAuthGuard; only on protected routes. */
export const CurrentUser = createParamDecorator((_data: unknown, context: ExecutionContext): RpcAuth => {
  const auth = context.switchToHttp().getRequest<FastifyRequest>().auth;
  if (!auth) throw new VaultError(ErrorCode.UNAUTHENTICATED);
  return auth;
});
