import { PERMISSIONS, type Permission, type Role } from '@vault/contracts';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import {
  SecurityEventEntity,
  type SecurityEventDetails,
  type SecurityEventType,
} from '../entities/security-event.entity';
import { UserEntity } from '../entities/user.entity';
import { IDENTIFIER_COLUMN } from '../repositories/users.repository';
import { toIdentifierLookup } from '../services/identifier';

/**
 * The role commands of the first admin (issue 14, apps/auth/README.md "The first admin"): they
 * change `auth.users.role` (and `permissions`) of one account and write a `role_changed` security
 * event for it, in one transaction. No request and no session is involved: they are run by an
 * operator with database access, on the command line.
 */

/**
 * What a command sets. `super_admin` keeps the stored permissions unless given a list (it has all
 * of them anyway; the admin console stores []).
 */
export type RoleTarget =
  | { role: 'super_admin'; permissions?: Permission[] }
  | { role: 'admin'; permissions: Permission[] }
  | { role: 'user' };

/**
 * Who changed a role and from where. The admin console also writes its own event in the same
 * transaction (`alsoRecord`, whose details add to role_changed's from, to and by).
 */
export interface RoleChangeOptions {
  by?: string;
  client?: { ip: string; userAgent: string };
  alsoRecord?: { eventType: SecurityEventType; details: SecurityEventDetails };
  /** Runs first in the transaction: other row locks that must come before the account's (lock order). */
  lockFirst?: (manager: EntityManager) => Promise<void>;
  /** Runs with the account's row locked, before any change: throws to refuse (the transaction rolls back). */
  check?: (manager: EntityManager, current: { id: string; role: Role }) => Promise<void>;
}

/** Who the event says made the change (`details.by`). */
export const CHANGED_BY_COMMAND_LINE = 'command line';

export interface AccountNames {
  id: string;
  username: string;
  email: string;
}

export type RoleChangeResult =
  /** The role (or an admin's permissions) changed and the event was written. */
  | { outcome: 'changed'; user: AccountNames; from: Role; to: Role; permissions: string[] }
  /** The account already had that role (and permissions): nothing written. */
  | { outcome: 'unchanged'; user: AccountNames; role: Role }
  | { outcome: 'not_found' }
  /** A phone-shaped identifier: the commands name an account by username or e-mail only. */
  | { outcome: 'phone_refused' };

const sameSet = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * Sets the role of the account `identifier` names, by the sign-in rules of shape
 * (services/identifier.ts): with an `@` an e-mail address, otherwise a username, both compared
 * lowercased. The row is locked while the change and its event are written.
 */
export async function setAccountRole(
  dataSource: DataSource,
  identifier: string,
  target: RoleTarget,
  by: string = CHANGED_BY_COMMAND_LINE,
): Promise<RoleChangeResult> {
  const lookup = toIdentifierLookup(identifier);
  if (lookup.kind === 'phone') return { outcome: 'phone_refused' };
  return changeRole(dataSource, IDENTIFIER_COLUMN[lookup.kind], lookup.value, target, { by });
}

/** The same change for the account with this id (the admin console's set-role). */
export function setAccountRoleById(
  dataSource: DataSource,
  id: string,
  target: RoleTarget,
  options: RoleChangeOptions,
): Promise<RoleChangeResult> {
  return changeRole(dataSource, 'id', id, target, options);
}

async function changeRole(
  dataSource: DataSource,
  column: 'id' | (typeof IDENTIFIER_COLUMN)[keyof typeof IDENTIFIER_COLUMN],
  value: string,
  target: RoleTarget,
  { by = CHANGED_BY_COMMAND_LINE, client, alsoRecord, lockFirst, check }: RoleChangeOptions,
): Promise<RoleChangeResult> {
  return dataSource.transaction(async (manager) => {
    await lockFirst?.(manager);
    const users = manager.getRepository(UserEntity);
    const user = await users
      .createQueryBuilder('u')
      .setLock('pessimistic_write')
      .where(`u.${column} = :value`, { value })
      .getOne();
    if (!user) return { outcome: 'not_found' } as const;
    await check?.(manager, user);
    const names: AccountNames = { id: user.id, username: user.username, email: user.email };

    // Demoting clears the list, so a later promotion to admin never revives old permissions.
    const permissions =
      target.role === 'admin'
        ? [...new Set(target.permissions)]
        : target.role === 'user'
          ? []
          : (target.permissions ?? user.permissions);
    if (user.role === target.role && sameSet(user.permissions, permissions)) {
      return { outcome: 'unchanged', user: names, role: user.role } as const;
    }

    await users.update({ id: user.id }, { role: target.role, permissions });
    const details: SecurityEventDetails = { from: user.role, to: target.role, by };
    if (target.role === 'admin') details.permissions = permissions.join(',');
    const event = { userId: user.id, ipAddress: client?.ip ?? '', userAgent: client?.userAgent ?? '' };
    await manager.getRepository(SecurityEventEntity).insert([
      { ...event, id: randomUUID(), eventType: 'role_changed', details },
      ...(alsoRecord
        ? [
            {
              ...event,
              id: randomUUID(),
              eventType: alsoRecord.eventType,
              details: { ...details, ...alsoRecord.details },
            },
          ]
        : []),
    ]);
    return { outcome: 'changed', user: names, from: user.role, to: target.role, permissions } as const;
  });
}

/** `npm run admin -- promote <username|email>`: the account becomes super_admin. */
export function promoteAccount(dataSource: DataSource, identifier: string): Promise<RoleChangeResult> {
  return setAccountRole(dataSource, identifier, { role: 'super_admin' });
}

/** `--demote`: back to a regular user, permissions cleared. */
export function demoteAccount(dataSource: DataSource, identifier: string): Promise<RoleChangeResult> {
  return setAccountRole(dataSource, identifier, { role: 'user' });
}

// ── the command line ────────────────────────────────────────────────────────────────────

export const PROMOTE_USAGE = [
  'usage: node apps/auth/dist/cli/promote.js <username|email>',
  '         makes the account super_admin (every permission)',
  '       node apps/auth/dist/cli/promote.js --role admin --permissions <p1,p2,...> <username|email>',
  '         makes the account admin with exactly those permissions',
  '       node apps/auth/dist/cli/promote.js --demote <username|email>',
  '         makes the account a regular user again (permissions cleared)',
  `permissions: ${PERMISSIONS.join(', ')}`,
  'An identifier with an @ is an e-mail address, anything else a username; phone numbers are not accepted.',
  'Reads DATABASE_URL (default postgres://postgres@127.0.0.1:5432/vault).',
].join('\n');

export type PromoteArgs =
  { ok: true; identifier: string; target: RoleTarget } | { ok: false; error?: string; help?: boolean };

/** Parses the command's arguments (after `node promote.js`); `--help` asks for the usage text. */
export function parsePromoteArgs(argv: readonly string[]): PromoteArgs {
  let role: string | undefined;
  let permissionList: string | undefined;
  let demote = false;
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const [flag, inline] = splitFlag(arg);
    if (flag === '--demote' && inline === undefined) demote = true;
    else if (flag === '--role' || flag === '--permissions') {
      const value = inline ?? argv[i + 1];
      if (inline === undefined) i += 1;
      if (value === undefined || value.startsWith('--')) return { ok: false, error: `${flag} needs a value` };
      if (flag === '--role') role = value;
      else permissionList = value;
    } else if (flag === '--help') return { ok: false, help: true };
    else return { ok: false, error: `unknown option ${arg}` };
  }
  if (positional.length !== 1 || !positional[0]!.trim()) {
    return { ok: false, error: positional.length > 1 ? 'give one identifier' : undefined };
  }
  const identifier = positional[0]!.trim();
  if (demote) {
    if (role !== undefined || permissionList !== undefined) {
      return { ok: false, error: '--demote takes no --role or --permissions' };
    }
    return { ok: true, identifier, target: { role: 'user' } };
  }
  if (role === undefined || role === 'super_admin') {
    if (permissionList !== undefined) {
      return { ok: false, error: 'super_admin has every permission: --permissions goes with --role admin' };
    }
    return { ok: true, identifier, target: { role: 'super_admin' } };
  }
  if (role !== 'admin') return { ok: false, error: `--role must be admin or super_admin, not ${role}` };
  const permissions = (permissionList ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (permissions.length === 0) return { ok: false, error: '--role admin needs --permissions' };
  const unknown = permissions.filter((p) => !(PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length > 0) return { ok: false, error: `unknown permission ${unknown.join(', ')}` };
  return { ok: true, identifier, target: { role: 'admin', permissions: permissions as Permission[] } };
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq < 0 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

/** The one line the command prints and its exit code (0 done or nothing to do, 1 no such account, 2 usage). */
export function describeRoleChange(
  identifier: string,
  result: RoleChangeResult,
): { line: string; exitCode: number } {
  switch (result.outcome) {
    case 'changed': {
      const verb = result.to === 'user' ? 'Demoted' : 'Promoted';
      const list = result.to === 'admin' ? ` (${result.permissions.join(', ')})` : '';
      return {
        line: `${verb} ${result.user.username} ${result.user.email} to ${result.to}${list}`,
        exitCode: 0,
      };
    }
    case 'unchanged':
      return {
        line: `${result.user.username} ${result.user.email} is already ${result.role}; nothing changed`,
        exitCode: 0,
      };
    case 'not_found':
      return { line: `No account matches ${identifier}`, exitCode: 1 };
    case 'phone_refused':
      return {
        line: `Phone numbers are not accepted here (${identifier}): give the username or e-mail address`,
        exitCode: 2,
      };
  }
}
