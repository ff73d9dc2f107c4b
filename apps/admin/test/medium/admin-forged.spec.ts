import { ADMIN_MESSAGES, ADMIN_PATTERNS as P, ErrorCode, PERMISSIONS, type RpcAdmin } from '@vault/contracts';
import { adminContext } from '@vault/server-kit/testing';
import { randomBytes, randomUUID } from 'node:crypto';
import { startAdminWithPeers, testAppPerFile } from './support/admin-test-app';
import { auditRows } from './support/audit-rows';

/**
 * A process on the RPC transport forging ctx.admin: the role and permissions sent are never
 * believed; the admin service takes them from the named admin's live console session.
 */
describe('admin service: a forged admin context', () => {
  const t = testAppPerFile(() => startAdminWithPeers('forged'));
  const { lastId, entriesAfter } = auditRows(() => t.pg);
  // A real admin whose console session stores users:read only.
  const reader = adminContext(['users:read']);
  const claimSuperAdmin = (admin: Partial<RpcAdmin> = {}) => ({
    admin: { ...reader.admin, role: 'super_admin' as const, permissions: [...PERMISSIONS], ...admin },
  });
  const setRole = { id: randomUUID(), role: 'admin', permissions: ['users:read'], reason: 'promotion' };

  it('refuses super_admin claimed without a session, or with another admin’s, before anything is recorded or asked', async () => {
    const other = adminContext([], 'super_admin');
    const before = t.auth.calls.length;
    const mark = await lastId();
    for (const admin of [
      { sessionKey: randomBytes(32).toString('hex') },
      { sessionKey: other.admin.sessionKey },
      { id: other.admin.id },
    ]) {
      expect((await t.fail(P.setRole, setRole, claimSuperAdmin(admin))).code).toBe(ErrorCode.UNAUTHENTICATED);
      expect((await t.fail(P.stats, undefined, claimSuperAdmin(admin))).code).toBe(ErrorCode.UNAUTHENTICATED);
    }
    expect(t.auth.calls.length).toBe(before);
    expect(await entriesAfter(mark)).toEqual([]);
  });

  it('gives a live session stored as admin its stored permissions only', async () => {
    const before = t.auth.calls.length;
    const mark = await lastId();
    const denied = await t.fail(P.setRole, setRole, claimSuperAdmin());
    expect(denied).toMatchObject({
      code: ErrorCode.PERMISSION_DENIED,
      message: ADMIN_MESSAGES.superAdminOnly,
    });
    const lock = { id: randomUUID(), reason: 'x', duration: 5 };
    expect((await t.fail(P.lock, lock, claimSuperAdmin())).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(t.auth.calls.length).toBe(before);
    expect(await entriesAfter(mark)).toEqual([]);

    // What it may do reaches auth with the stored rights, not the claimed ones.
    t.auth.answer('auth.admin.users', () => ({ users: [], total: 0 }));
    await t.call(P.users, {}, claimSuperAdmin());
    const forwarded = t.auth.calls.at(-1)!;
    expect(forwarded.pattern).toBe('auth.admin.users');
    expect(forwarded.ctx.admin).toEqual({ ...reader.admin, role: 'admin', permissions: ['users:read'] });
  });
});
