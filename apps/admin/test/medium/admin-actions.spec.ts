import { ADMIN_PATTERNS as P, ErrorCode, VaultError, type RpcAdmin } from '@vault/contracts';
import { adminContext, sleep } from '@vault/server-kit/testing';
import { randomUUID } from 'node:crypto';
import type { AuditRow } from '../../src/audit/verify-chain';
import { startAdminWithPeers, testAppPerFile } from './support/admin-test-app';
import { auditRows } from './support/audit-rows';
import { adminUser } from './support/fixtures';

describe('admin actions: audit first, then act', () => {
  const t = testAppPerFile(() => startAdminWithPeers('actions'));
  const locker = adminContext(['users:lock']);

  const { lastId, entriesAfter } = auditRows(() => t.pg);

  it('appends the entry before auth is asked, with who, from where, why and for how long', async () => {
    const mark = await lastId();
    const id = randomUUID();
    let seenAtCall: AuditRow[] = [];
    t.auth.answer('auth.admin.lock', async (body) => {
      seenAtCall = await entriesAfter(mark);
      return { user: adminUser((body as { id: string }).id, { accountLocked: true }) };
    });
    const reply = await t.call<{ user: { accountLocked: boolean } }>(
      P.lock,
      { id, reason: 'Spam wave', duration: 60 },
      { ...locker, ip: '203.0.113.7', userAgent: 'Firefox' },
    );
    expect(reply.user.accountLocked).toBe(true);
    expect(seenAtCall.map((e) => e.action)).toEqual(['user.lock']);
    const [entry] = await entriesAfter(mark);
    expect(entry).toMatchObject({
      actor_id: locker.admin.id,
      actor_label: locker.admin.label,
      action: 'user.lock',
      target_type: 'user',
      target_id: id,
      reason: 'Spam wave',
      ip: '203.0.113.7',
      user_agent: 'Firefox',
      details: { minutes: 60 },
    });
    // auth got the admin's context to check the permission again, and the body as validated.
    const call = t.auth.calls.at(-1)!;
    expect(call.ctx.admin).toEqual(locker.admin);
    expect(call.body).toEqual({ id, reason: 'Spam wave', duration: 60 });
  });

  it('records <action>.failed with the error code and answers the same error when auth refuses', async () => {
    const mark = await lastId();
    t.auth.answer('auth.admin.lock', () => {
      throw new VaultError(ErrorCode.FORBIDDEN, 'You cannot lock a super admin');
    });
    const error = await t.fail(P.lock, { id: randomUUID(), reason: 'x', duration: 5 }, locker);
    expect(error.code).toBe(ErrorCode.FORBIDDEN);
    expect(error.message).toBe('You cannot lock a super admin');
    const entries = await entriesAfter(mark);
    expect(entries.map((e) => e.action)).toEqual(['user.lock', 'user.lock.failed']);
    expect(entries[1]!.details).toEqual({ minutes: 5, error: 'FORBIDDEN' });
  });

  it('records <action>.unknown, not .failed, when auth does not answer in time: it may have acted', async () => {
    const mark = await lastId();
    const id = randomUUID();
    let locked = false;
    // Auth locks the account, but its answer comes after the admin service's 3 s limit.
    t.auth.answer('auth.admin.lock', async (body) => {
      await sleep(3_300);
      locked = true;
      return { user: adminUser((body as { id: string }).id, { accountLocked: true }) };
    });
    const error = await t.fail(P.lock, { id, reason: 'Spam wave', duration: 15 }, locker);
    expect(error.code).toBe(ErrorCode.SERVICE_UNAVAILABLE);
    const entries = await entriesAfter(mark);
    expect(entries.map((e) => [e.action, e.target_id, e.reason])).toEqual([
      ['user.lock', id, 'Spam wave'],
      ['user.lock.unknown', id, 'Spam wave'],
    ]);
    expect(entries[1]!.details).toEqual({ minutes: 15, error: 'SERVICE_UNAVAILABLE' });
    for (let i = 0; i < 40 && !locked; i++) await sleep(50);
    expect(locked).toBe(true);
  });

  it('records <action>.unknown when a peer answers SERVICE_UNAVAILABLE or a 5xx', async () => {
    for (const code of [ErrorCode.SERVICE_UNAVAILABLE, ErrorCode.INTERNAL]) {
      const mark = await lastId();
      t.auth.answer('auth.admin.unlock', () => {
        throw new VaultError(code);
      });
      expect((await t.fail(P.unlock, { id: randomUUID() }, locker)).code).toBe(code);
      const entries = await entriesAfter(mark);
      expect(entries.map((e) => [e.action, e.details])).toEqual([
        ['user.unlock', {}],
        ['user.unlock.unknown', { error: code }],
      ]);
    }
  });

  it('does not act when the entry cannot be appended (no action unaudited)', async () => {
    const before = t.auth.calls.length;
    const mark = await lastId();
    // A NUL byte is refused by the audit entry's rules, so the append fails (a 400: it came with the request).
    const error = await t.fail(P.unlock, { id: randomUUID() }, { ...locker, userAgent: 'bad\u0000agent' });
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(t.auth.calls.length).toBe(before);
    expect(await entriesAfter(mark)).toEqual([]);
  });

  it('refuses a call without an admin, or without the permission, before anything is recorded or asked', async () => {
    const before = t.auth.calls.length;
    const mark = await lastId();
    const body = { id: randomUUID(), reason: 'x', duration: 5 };
    expect((await t.fail(P.lock, body, {})).code).toBe(ErrorCode.ADMIN_REQUIRED);
    expect((await t.fail(P.lock, body, adminContext(['users:read']))).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect((await t.fail(P.remove2fa, { id: body.id, confirm: 'u', reason: 'r' }, locker)).code).toBe(
      ErrorCode.PERMISSION_DENIED,
    );
    // set-role is for super admins only, whatever an admin's list says.
    const everything = adminContext(['users:lock', 'users:2fa', 'users:read']);
    const setRole = { id: body.id, role: 'admin', permissions: ['users:read'], reason: 'promotion' };
    expect((await t.fail(P.setRole, setRole, everything)).code).toBe(ErrorCode.PERMISSION_DENIED);
    expect(t.auth.calls.length).toBe(before);
    expect(await entriesAfter(mark)).toEqual([]);
  });

  it('answers a bad body with a 400 and records nothing', async () => {
    const mark = await lastId();
    const error = await t.fail(P.lock, { id: randomUUID(), reason: 'x', duration: 0 }, locker);
    expect(error.code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(await entriesAfter(mark)).toEqual([]);
  });

  it('records a super admin setting a role with the role and permissions', async () => {
    const mark = await lastId();
    const root = adminContext([], 'super_admin');
    const id = randomUUID();
    t.auth.answer('auth.admin.set-role', (body) => ({
      user: adminUser((body as { id: string }).id, { role: 'admin', permissions: ['users:read'] }),
    }));
    await t.call(P.setRole, { id, role: 'admin', permissions: ['users:read'], reason: 'on call' }, root);
    const [entry] = await entriesAfter(mark);
    expect(entry).toMatchObject({
      action: 'user.set-role',
      target_id: id,
      details: { role: 'admin', permissions: ['users:read'] },
    });
  });

  it('records a revoked session by its id, then its owner once auth names them', async () => {
    const mark = await lastId();
    const sessionId = randomUUID();
    const owner = randomUUID();
    t.auth.answer('auth.admin.revoke-session', () => ({ userId: owner }));
    expect(await t.call(P.revokeSession, { id: sessionId }, adminContext(['sessions:revoke']))).toBeNull();
    const entries = await entriesAfter(mark);
    expect(entries.map((e) => [e.action, e.target_type, e.target_id, e.details])).toEqual([
      ['session.revoke', 'session', sessionId, {}],
      ['session.revoke.owner', 'user', owner, { sessionId }],
    ]);
  });

  describe('bulk', () => {
    it('acts on every account, one entry each; an error on one does not stop the rest', async () => {
      const mark = await lastId();
      const [a, missing, c] = [randomUUID(), randomUUID(), randomUUID()];
      t.auth.answer('auth.admin.lock', (body) => {
        const { id } = body as { id: string };
        if (id === missing) throw new VaultError(ErrorCode.NOT_FOUND, 'User not found');
        return { user: adminUser(id, { accountLocked: true }) };
      });
      const reply = await t.call<{ results: unknown[] }>(
        P.bulk,
        { action: 'lock', ids: [a, missing, c], reason: 'Spam wave', duration: 30 },
        locker,
      );
      expect(reply.results).toEqual([
        { id: a, ok: true },
        { id: missing, ok: false, error: 'NOT_FOUND' },
        { id: c, ok: true },
      ]);
      const entries = await entriesAfter(mark);
      expect(entries.map((e) => [e.action, e.target_id])).toEqual([
        ['user.lock', a],
        ['user.lock', missing],
        ['user.lock.failed', missing],
        ['user.lock', c],
      ]);
      expect(entries[0]!.details).toEqual({ minutes: 30, bulk: true, count: 3 });
    });

    it('checks the permission of the action: ending sessions needs sessions:revoke', async () => {
      const body = { action: 'end-sessions', ids: [randomUUID()] };
      expect((await t.fail(P.bulk, body, locker)).code).toBe(ErrorCode.PERMISSION_DENIED);
      t.auth.answer('auth.admin.end-sessions', () => ({ ended: 2 }));
      const reply = await t.call<{ results: unknown[] }>(P.bulk, body, adminContext(['sessions:revoke']));
      expect(reply.results).toEqual([{ id: body.ids[0], ok: true }]);
    });

    it('refuses a bulk lock without a reason or a duration before acting', async () => {
      const before = t.auth.calls.length;
      const ids = [randomUUID()];
      expect((await t.fail(P.bulk, { action: 'lock', ids, duration: 5 }, locker)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
      expect((await t.fail(P.bulk, { action: 'lock', ids, reason: 'x' }, locker)).code).toBe(
        ErrorCode.VALIDATION_FAILED,
      );
      expect(t.auth.calls.length).toBe(before);
    });
  });

  it('keeps the chain intact through all of it (audit.verify)', async () => {
    const reply = await t.call<{ ok: boolean; checked: number }>(
      P.auditVerify,
      undefined,
      adminContext(['audit:read']),
    );
    expect(reply.ok).toBe(true);
    expect(reply.checked).toBe(await lastId());
  });

  it('lets only a holder of audit:read read the log', async () => {
    const reader: { admin: RpcAdmin } = adminContext(['users:lock']);
    expect((await t.fail(P.auditList, {}, reader)).code).toBe(ErrorCode.PERMISSION_DENIED);
  });
});
