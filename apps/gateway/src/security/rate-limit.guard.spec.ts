import type { ClassProvider, ExecutionContext } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import { ErrorCode, VaultError, type RpcAdmin } from '@vault/contracts';
import type { RateLimitAnswer, RedisRateLimiter } from '@vault/server-kit';
import type { FastifyRequest } from 'fastify';
import { AppModule } from '../app.module';
import { AdminOnly } from '../auth/admin.decorators';
import { AdminGuard } from '../auth/admin.guard';
import { JwtAuthGuard } from '../auth/jwt-auth.guard';
import type { GatewayConfig } from '../config/gateway.config';
import { RateLimit } from './rate-limit.decorator';
import { RateLimitGuard } from './rate-limit.guard';

const LIMITS = { authPerMinute: 5, blobPerMinute: 7, apiPerMinute: 9 };

class Routes {
  @AdminOnly('users:lock')
  adminLock(): void {}
  @RateLimit('auth')
  login(): void {}
  notes(): void {}
}

function setup(allowed = true) {
  const hit = jest.fn(async (_key: string, _opts: unknown) => ({ allowed, retryAfter: 42 }));
  const guard = new RateLimitGuard(
    new Reflector(),
    { hit } as unknown as RedisRateLimiter,
    {
      rateLimit: LIMITS,
    } as unknown as GatewayConfig,
  );
  const run = (handler: keyof Routes, extra: Partial<FastifyRequest> = {}) =>
    guard.canActivate({
      getHandler: () => Routes.prototype[handler],
      getClass: () => Routes,
      switchToHttp: () => ({ getRequest: () => ({ ip: '10.0.0.1', ...extra }) }),
    } as unknown as ExecutionContext);
  return { hit, run };
}

describe(RateLimitGuard.name, () => {
  it('counts admin routes per IP, whatever admin the request names', async () => {
    const { hit, run } = setup();
    const admin = { id: 'a1' } as RpcAdmin;
    await expect(run('adminLock', { admin })).resolves.toBe(true);
    expect(hit).toHaveBeenCalledWith('rl:gw-api:ip:10.0.0.1', {
      limit: LIMITS.apiPerMinute,
      windowMs: 60_000,
    });
  });

  it('counts a signed-in vault caller per account, credential routes per IP', async () => {
    const { hit, run } = setup();
    const auth = { userId: 'u1', sessionId: 's1', role: 'user' as const };
    await run('notes', { auth });
    await run('notes');
    await run('login', { auth });
    expect(hit.mock.calls.map(([key]) => key)).toEqual([
      'rl:gw-api:user:u1',
      'rl:gw-api:ip:10.0.0.1',
      'rl:gw-auth:ip:10.0.0.1',
    ]);
  });

  it("takes a signed-in caller's 'api' answer counted with its session check, and counts no other route by it", async () => {
    const { hit, run } = setup();
    const auth = { userId: 'u1', sessionId: 's1', role: 'user' as const };
    const counted = { allowed: false, retryAfter: 7 } as RateLimitAnswer;
    const error = await run('notes', { auth, apiRateLimit: counted }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: ErrorCode.RATE_LIMITED, extra: { retryAfter: 7 } });
    await expect(run('notes', { auth, apiRateLimit: { ...counted, allowed: true } })).resolves.toBe(true);
    expect(hit).not.toHaveBeenCalled();
    // A credential route counts per IP in its own bucket, whatever the api answer says.
    await run('login', { auth, apiRateLimit: counted });
    expect(hit.mock.calls.map(([key]) => key)).toEqual(['rl:gw-auth:ip:10.0.0.1']);
  });

  it('answers 429 RATE_LIMITED with retryAfter over the limit', async () => {
    const { run } = setup(false);
    const error = await run('adminLock').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VaultError);
    expect(error).toMatchObject({ code: ErrorCode.RATE_LIMITED, extra: { retryAfter: 42 } });
  });

  it('runs after JwtAuthGuard and before AdminGuard: a limited admin call never reaches auth', () => {
    const { providers = [] } = AppModule.forRoot({
      config: {} as never,
      logger: {} as never,
      redis: {} as never,
    });
    const guards = providers
      .filter((p): p is ClassProvider => typeof p === 'object' && 'provide' in p && p.provide === APP_GUARD)
      .map((p) => p.useClass);
    expect(guards).toEqual([JwtAuthGuard, RateLimitGuard, AdminGuard]);
  });
});
