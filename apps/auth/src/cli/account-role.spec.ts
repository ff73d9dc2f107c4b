import { describeRoleChange, parsePromoteArgs } from './account-role';

describe('parsePromoteArgs', () => {
  it('promotes to super_admin by default, with the identifier trimmed', () => {
    expect(parsePromoteArgs(['  alice '])).toEqual({
      ok: true,
      identifier: 'alice',
      target: { role: 'super_admin' },
    });
    expect(parsePromoteArgs(['--role', 'super_admin', 'alice@example.org'])).toMatchObject({
      ok: true,
      target: { role: 'super_admin' },
    });
    expect(parsePromoteArgs(['--', '--odd-name'])).toMatchObject({ ok: true, identifier: '--odd-name' });
  });

  it('takes --role admin with a list of known permissions, as two words or with =', () => {
    expect(parsePromoteArgs(['--role', 'admin', '--permissions', 'users:read, users:lock', 'bob'])).toEqual({
      ok: true,
      identifier: 'bob',
      target: { role: 'admin', permissions: ['users:read', 'users:lock'] },
    });
    expect(parsePromoteArgs(['bob', '--role=admin', '--permissions=stats:read'])).toMatchObject({
      ok: true,
      target: { role: 'admin', permissions: ['stats:read'] },
    });
  });

  it('takes --demote alone', () => {
    expect(parsePromoteArgs(['--demote', 'bob'])).toEqual({
      ok: true,
      identifier: 'bob',
      target: { role: 'user' },
    });
    expect(parsePromoteArgs(['--demote', '--role', 'admin', 'bob'])).toMatchObject({ ok: false });
  });

  it('refuses bad usage with a reason', () => {
    expect(parsePromoteArgs([])).toEqual({ ok: false, error: undefined });
    expect(parsePromoteArgs(['--help'])).toEqual({ ok: false, help: true });
    expect(parsePromoteArgs(['   '])).toMatchObject({ ok: false });
    expect(parsePromoteArgs(['a', 'b'])).toEqual({ ok: false, error: 'give one identifier' });
    expect(parsePromoteArgs(['--role', 'user', 'a'])).toMatchObject({
      ok: false,
      error: expect.stringContaining('--role'),
    });
    expect(parsePromoteArgs(['--role', 'admin', 'a'])).toMatchObject({
      ok: false,
      error: '--role admin needs --permissions',
    });
    expect(parsePromoteArgs(['--role', 'admin', '--permissions', 'users:*', 'a'])).toMatchObject({
      ok: false,
      error: 'unknown permission users:*',
    });
    expect(parsePromoteArgs(['--permissions', 'users:read', 'a'])).toMatchObject({ ok: false });
    expect(parsePromoteArgs(['--role'])).toMatchObject({ ok: false, error: '--role needs a value' });
    expect(parsePromoteArgs(['--demote=yes', 'a'])).toMatchObject({
      ok: false,
      error: 'unknown option --demote=yes',
    });
  });
});

describe('describeRoleChange', () => {
  const user = { id: 'u1', username: 'Alice', email: 'alice@example.org' };

  it('prints one line per outcome with its exit code', () => {
    expect(
      describeRoleChange('alice', {
        outcome: 'changed',
        user,
        from: 'user',
        to: 'super_admin',
        permissions: [],
      }),
    ).toEqual({ line: 'Promoted Alice alice@example.org to super_admin', exitCode: 0 });
    expect(
      describeRoleChange('alice', {
        outcome: 'changed',
        user,
        from: 'user',
        to: 'admin',
        permissions: ['users:read', 'users:lock'],
      }).line,
    ).toBe('Promoted Alice alice@example.org to admin (users:read, users:lock)');
    expect(
      describeRoleChange('alice', { outcome: 'changed', user, from: 'admin', to: 'user', permissions: [] })
        .line,
    ).toBe('Demoted Alice alice@example.org to user');
    expect(describeRoleChange('ALICE', { outcome: 'unchanged', user, role: 'super_admin' })).toEqual({
      line: 'Alice alice@example.org is already super_admin; nothing changed',
      exitCode: 0,
    });
    expect(describeRoleChange('Nobody', { outcome: 'not_found' })).toEqual({
      line: 'No account matches Nobody',
      exitCode: 1,
    });
    expect(describeRoleChange('+1 555', { outcome: 'phone_refused' }).exitCode).toBe(2);
  });
});
