import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { RpcContext } from '@vault/contracts';
import type { FastifyRequest } from 'fastify';

const MAX_USER_AGENT = 512;

/** The RpcContext of a request: request id, client IP (per TRUST_PROXY), user agent, caller (user or admin). */
export function rpcContextOf(request: FastifyRequest): RpcContext {
  const ua = request.headers['user-agent'];
  const ctx: RpcContext = {
    requestId: request.id,
    ip: request.ip,
    userAgent: typeof ua === 'string' ? ua.slice(0, MAX_USER_AGENT) : '',
  };
  if (request.auth) ctx.auth = request.auth;
  if (request.admin) ctx.admin = request.admin;
  return ctx;
}

/** Injects the RpcContext that every RPC request carries. */
export const Ctx = createParamDecorator((_data: unknown, context: ExecutionContext): RpcContext =>
  rpcContextOf(context.switchToHttp().getRequest<FastifyRequest>()),
);
