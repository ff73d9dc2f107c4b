import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  ErrorCode,
  meetsAdminRequirement,
  PERMISSIONS,
  VaultError,
  type AdminSessionResponse,
  type Permission,
  type Role,
  type RpcAdmin,
} from '@vault/contracts';
import type { FastifyRequest } from 'fastify';
import type { RpcClient } from '../proxy/rpc.client';
import { AdminCookies } from './admin-cookie';
import { AdminOnly, type AdminRequirement } from './admin.decorators';
import { AdminGuard, isCrossOrigin } from './admin.guard';
import { Public } from './auth.decorators';
import type { JwtVerifier } from './jwt-verifier';
import type { SessionLiveness } from './session-liveness';

const SESSION_KEY = 'ab'.repeat(32);

const admin = (role: Role, permissions: Permission[] = []): RpcAdmin => ({
  id: 'a',
  label: 'ann',
  role,
  permissions,
  sessionKey: SESSION_KEY,
});

describe('meetsAdminRequirement', () => {
  it.each<[string, RpcAdmin, AdminRequirement, boolean]>([
    ['any admin: admin', admin('admin'), 'session', true],
    ['any admin: super_admin', admin('super_admin'), 'session', true],
    ['any admin: user', admin('user', ['users:read']), 'session', false],
    ['super_admin only: super_admin', admin('super_admin'), 'super_admin', true],
    ['super_admin only: admin with every permission', admin('admin', [...PERMISSIONS]), 'super_admin', false],
    ['permission: admin holding it', admin('admin', ['users:lock']), 'users:lock', true],
    ['permission: admin without it', admin('admin', ['users:read']), 'users:lock', false],
    ['permission: super_admin with an empty list', admin('super_admin'), 'audit:read', true],
    ['permission: user holding it', admin('user', ['users:lock']), 'users:lock', false],
  ])('%s', (_what, who, requirement, expected) => {
    expect(meetsAdminRequirement(who, requirement)).toBe(expected);
  });

  it('refuses an admin route without a requirement (fail closed)', () => {
    expect(meetsAdminRequirement(admin('super_admin'), undefined)).toBe(false);
  });
});

/** A request whose matched route is `route` (the raw URL may spell it differently). */
function request(
  method: string,
  headers: Record<string, string> = {},
  route = '/api/admin/users',
  url = route,
): FastifyRequest {
  return {
    method,
    headers,
    url,
    routeOptions: { url: route },
    protocol: 'https',
    host: 'vault.example.com',
    id: 'r1',
    ip: '10.0.0.1',
  } as unknown as FastifyRequest;
}

describe('isCrossOrigin', () => {
  it.each([
    ['POST', 'https://evil.example', true],
    ['DELETE', 'https://vault.example.com.evil.example', true],
    ['PUT', 'http://vault.example.com', true],
    ['POST', 'null', true],
    ['POST', 'https://vault.example.com', false],
    ['POST', 'HTTPS://Vault.Example.com', false],
    ['GET', 'https://evil.example', false],
    ['HEAD', 'https://evil.example', false],
  ])('%s with Origin %s: %s', (method, origin, expected) => {
    expect(isCrossOrigin(request(method, { origin }))).toBe(expected);
  });

  it('lets a request without Origin through', () => {
    expect(isCrossOrigin(request('POST'))).toBe(false);
  });

  it('accepts the configured public origins (CORS_ORIGINS) besides its own, nothing else', () => {
    const origins = ['https://app.example.org', 'http://localhost:5173'];
    const from = (origin: string) => isCrossOrigin(request('POST', { origin }), origins);
    expect(from('https://app.example.org')).toBe(false);
    expect(from('HTTPS://APP.example.org')).toBe(false);
    expect(from('http://localhost:5173')).toBe(false);
    expect(from('https://vault.example.com')).toBe(false);
    expect(from('https://app.example.org.evil.example')).toBe(true);
    expect(from('http://localhost:5174')).toBe(true);
  });
});

describe(AdminGuard.name, () => {
  const session = (role: Role, permissions: Permission[] = []): AdminSessionResponse => ({
    admin: { id: 'u1', email: 'ann@example.com', username: 'ann', role, permissions },
    expiresAt: new Date().toISOString(),
    idleExpiresAt: new Date().toISOString(),
  });

  /** `bearer`: who a vault bearer token names (its role, whether its session lives), or a bad token. */
  function setup(
    answer: AdminSessionResponse | VaultError,
    bearer: { role: Role; live: boolean } | 'invalid' = 'invalid',
  ) {
    const call = jest.fn(async () => {
      if (answer instanceof VaultError) throw answer;
      return { session: answer, key: SESSION_KEY };
    });
    const verify = jest.fn(async () => {
      if (bearer === 'invalid') throw new VaultError(ErrorCode.UNAUTHENTICATED);
      return { userId: 'u2', sessionId: 's2', role: bearer.role };
    });
    const isLive = jest.fn(async () => bearer !== 'invalid' && bearer.live);
    const guard = new AdminGuard(
      new Reflector(),
      { call } as unknown as RpcClient,
      new AdminCookies({ cookieSecure: 'auto' } as never),
      { verify } as unknown as JwtVerifier,
      { isLive } as unknown as SessionLiveness,
      { corsOrigins: ['https://app.example.org'] },
    );
    return { guard, call };
  }

  class Routes {
    @AdminOnly('users:lock')
    lock(): void {}
    @AdminOnly('session')
    me(): void {}
    @Public()
    signIn(): void {}
    open(): void {}
  }

  const contextOf = (handler: keyof Routes, req: FastifyRequest): ExecutionContext =>
    ({
      getHandler: () => Routes.prototype[handler],
      getClass: () => Routes,
      switchToHttp: () => ({ getRequest: () => req }),
    }) as unknown as ExecutionContext;

  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(VaultError);
    return (error as VaultError).code;
  };

  it('answers 401 without the admin cookie, even to an admin bearer token, and asks auth nothing', async () => {
    for (const bearer of ['invalid', { role: 'super_admin', live: true }] as const) {
      const { guard, call } = setup(session('super_admin'), bearer);
      const req = request('GET', { authorization: 'Bearer abc', cookie: 'vault_refresh=x' });
      expect(await refusal(guard.canActivate(contextOf('lock', req)))).toBe(ErrorCode.UNAUTHENTICATED);
      expect(call).not.toHaveBeenCalled();
    }
  });

  it("answers 403 ADMIN_REQUIRED to a regular account's live bearer token (401 once its session ended)", async () => {
    const req = () => request('GET', { authorization: 'Bearer abc' });
    const regular = setup(session('super_admin'), { role: 'user', live: true });
    expect(await refusal(regular.guard.canActivate(contextOf('me', req())))).toBe(ErrorCode.ADMIN_REQUIRED);
    const ended = setup(session('super_admin'), { role: 'user', live: false });
    expect(await refusal(ended.guard.canActivate(contextOf('me', req())))).toBe(ErrorCode.UNAUTHENTICATED);
  });

  it('checks the cookie with auth and sets the admin from its answer', async () => {
    const answer = session('admin', ['users:lock']);
    const { guard, call } = setup(answer);
    const req = request('POST', { cookie: 'vault_admin=tok%2Ben', origin: 'https://vault.example.com' });
    await expect(guard.canActivate(contextOf('lock', req))).resolves.toBe(true);
    expect(call).toHaveBeenCalledWith('auth.admin.session', expect.objectContaining({ requestId: 'r1' }), {
      token: 'tok+en',
    });
    expect(req.admin).toEqual({
      id: 'u1',
      label: 'ann',
      role: 'admin',
      permissions: ['users:lock'],
      sessionKey: SESSION_KEY,
    });
    // The HTTP answer is the session alone: its key stays between the gateway and the services.
    expect(req.adminSession).toEqual(answer);
  });

  it('answers 403 PERMISSION_DENIED to an admin without the permission, and lets it see its session', async () => {
    const { guard } = setup(session('admin', ['users:read']));
    const req = request('GET', { cookie: 'vault_admin=t' });
    expect(await refusal(guard.canActivate(contextOf('lock', req)))).toBe(ErrorCode.PERMISSION_DENIED);
    expect(req.admin).toBeUndefined();
    await expect(guard.canActivate(contextOf('me', req))).resolves.toBe(true);
  });

  it("passes on auth's refusal (ended session, demoted, no 2FA) as it is", async () => {
    for (const code of [ErrorCode.UNAUTHENTICATED, ErrorCode.ADMIN_REQUIRED, ErrorCode.ADMIN_2FA_REQUIRED]) {
      const { guard } = setup(new VaultError(code));
      expect(
        await refusal(guard.canActivate(contextOf('me', request('GET', { cookie: 'vault_admin=t' })))),
      ).toBe(code);
    }
  });

  it('refuses a cross-origin state change on any /api/admin route before anything else', async () => {
    const { guard, call } = setup(session('super_admin'));
    const evil = { cookie: 'vault_admin=t', origin: 'https://evil.example' };
    expect(await refusal(guard.canActivate(contextOf('lock', request('POST', evil))))).toBe(
      ErrorCode.FORBIDDEN,
    );
    const signIn = request('POST', evil, '/api/admin/session');
    expect(await refusal(guard.canActivate(contextOf('signIn', signIn)))).toBe(ErrorCode.FORBIDDEN);
    expect(call).not.toHaveBeenCalled();
    // Same-origin sign-in passes; routes outside /api/admin are not this guard's business.
    await expect(
      guard.canActivate(contextOf('signIn', request('POST', {}, '/api/admin/session'))),
    ).resolves.toBe(true);
    await expect(guard.canActivate(contextOf('open', request('POST', evil, '/api/notes')))).resolves.toBe(
      true,
    );
  });

  it('decides by the matched route, not the raw URL: an encoded /api/admin path is checked too', async () => {
    const { guard, call } = setup(session('super_admin'));
    const evil = { origin: 'https://evil.example' };
    for (const url of ['/api/%61dmin/session', '/api//admin/session', '/API/admin/session']) {
      const req = request('POST', evil, '/api/admin/session', url);
      expect(await refusal(guard.canActivate(contextOf('signIn', req)))).toBe(ErrorCode.FORBIDDEN);
    }
    // A raw URL that looks like the admin API but matched another route is not this guard's business.
    const other = request('POST', evil, '/api/notes', '/api/admin/../notes');
    await expect(guard.canActivate(contextOf('open', other))).resolves.toBe(true);
    expect(call).not.toHaveBeenCalled();
  });

  it('accepts a state change from a configured public origin', async () => {
    const { guard } = setup(session('super_admin'));
    const req = request('POST', { origin: 'https://app.example.org' }, '/api/admin/session');
    await expect(guard.canActivate(contextOf('signIn', req))).resolves.toBe(true);
  });
});
