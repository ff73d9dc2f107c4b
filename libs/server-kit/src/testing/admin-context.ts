import type { Permission, RpcAdmin, RpcContext } from '@vault/contracts';
import { randomUUID } from 'node:crypto';

/**
 * The context of an admin service call as the gateway's admin guard fills it: an admin holding
 * `permissions` (a `super_admin` holds every one whatever the list says).
 */
export function adminContext(
  permissions: readonly Permission[],
  role: RpcAdmin['role'] = 'admin',
): Partial<RpcContext> & { admin: RpcAdmin } {
  return { admin: { id: randomUUID(), label: 'test-admin', role, permissions: [...permissions] } };
}
