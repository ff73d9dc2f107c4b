// @vitest-environment node
import { PERMISSIONS } from '@vault/contracts';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_LABELS, auditActionLabel, permissionLabel, ROLE_LABELS } from './admin-labels';

const adminSrc = fileURLToPath(new URL('../../../../../admin/src', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The action names the admin service hands to the audit log: `action: '…'` and `onUser(caller, '…'`. */
function writtenActions(): string[] {
  const found = new Set<string>();
  const pattern = /(?:\baction:\s*|onUser\(\s*caller,\s*)'([a-z][a-z0-9_.:-]*)'/g;
  for (const file of sources(adminSrc)) {
    for (const match of readFileSync(file, 'utf8').matchAll(pattern)) found.add(match[1]!);
  }
  return [...found].sort();
}

describe('admin labels', () => {
  it('has a label for every action the admin service writes to the audit log', () => {
    const actions = writtenActions();
    // The grep itself works: it finds the well-known ones.
    expect(actions).toEqual(
      expect.arrayContaining(['user.lock', 'user.unlock', 'session.revoke', 'scan.retry']),
    );
    expect(actions.filter((a) => !(a in AUDIT_ACTION_LABELS))).toEqual([]);
  });

  it('reads actions and their failed or unknown outcomes', () => {
    expect(auditActionLabel('user.lock')).toBe('Locked an account');
    expect(auditActionLabel('user.view')).toBe('Viewed an account');
    expect(auditActionLabel('user.lock.failed')).toBe('Locked an account (failed)');
    expect(auditActionLabel('session.revoke.unknown')).toBe('Revoked a session (outcome unknown)');
    expect(auditActionLabel('something.new')).toBe('something.new');
    expect(auditActionLabel('something.new.failed')).toBe('something.new.failed');
  });

  it('names every permission with its server name, and every role', () => {
    expect(permissionLabel('users:lock')).toBe('Lock and unlock accounts (users:lock)');
    for (const p of PERMISSIONS) expect(permissionLabel(p)).toMatch(new RegExp(`^[A-Z].+ \\(${p}\\)$`));
    expect(Object.values(ROLE_LABELS)).toEqual(['User', 'Admin', 'Super admin']);
  });
});
