import { hasPermission, isAdminRole, isPermission, type PermissionHolder } from './permissions';
import { PERMISSIONS, type Permission } from './user.schema';

describe('hasPermission', () => {
  it('allows super_admin every permission, whatever its stored list says', () => {
    for (const permissions of [[], ['users:read'], null, undefined]) {
      for (const permission of PERMISSIONS) {
        expect(hasPermission({ role: 'super_admin', permissions }, permission)).toBe(true);
      }
    }
  });

  it('allows admin exactly the permissions in its list', () => {
    const admin = { role: 'admin', permissions: ['users:read', 'users:lock'] };
    expect(hasPermission(admin, 'users:read')).toBe(true);
    expect(hasPermission(admin, 'users:lock')).toBe(true);
    for (const permission of PERMISSIONS.filter((p) => p !== 'users:read' && p !== 'users:lock')) {
      expect(hasPermission(admin, permission)).toBe(false);
    }
    expect(hasPermission({ role: 'admin', permissions: [] }, 'stats:read')).toBe(false);
  });

  it('never allows a user, even with permissions stored', () => {
    for (const permission of PERMISSIONS) {
      expect(hasPermission({ role: 'user', permissions: [...PERMISSIONS] }, permission)).toBe(false);
    }
  });

  it('refuses unknown and garbage roles, holders and lists', () => {
    const all = [...PERMISSIONS];
    const garbage: unknown[] = [
      { role: 'root', permissions: all },
      { role: 'SUPER_ADMIN', permissions: all },
      { role: 'Admin', permissions: all },
      { role: ' super_admin', permissions: all },
      { role: '', permissions: all },
      { role: 1, permissions: all },
      { role: null, permissions: all },
      { permissions: all },
      { role: 'admin', permissions: 'stats:read' },
      { role: 'admin', permissions: null },
      { role: 'admin' },
      null,
      undefined,
    ];
    for (const holder of garbage) {
      expect(hasPermission(holder as PermissionHolder, 'stats:read')).toBe(false);
    }
  });

  it('refuses a permission it does not know, even to super_admin', () => {
    expect(hasPermission({ role: 'super_admin', permissions: [] }, 'make:coffee' as Permission)).toBe(false);
    expect(hasPermission({ role: 'admin', permissions: ['make:coffee'] }, 'make:coffee' as Permission)).toBe(
      false,
    );
  });
});

describe('isAdminRole / isPermission', () => {
  it('names the admin roles and the known permissions only', () => {
    expect(['user', 'admin', 'super_admin', 'root', 1, null].map(isAdminRole)).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(isPermission('sessions:revoke')).toBe(true);
    expect(isPermission('sessions:*')).toBe(false);
    expect(isPermission(undefined)).toBe(false);
  });
});
