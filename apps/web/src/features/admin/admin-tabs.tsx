import type { Permission } from '@vault/contracts';
import type { ComponentType } from 'react';
import { AuditTab } from './audit/audit-tab';
import { EventsTab } from './events/events-tab';
import { HealthTab } from './health/health-tab';
import { OverviewTab } from './overview/overview-tab';
import { SessionsTab } from './sessions/sessions-tab';
import { UsersTab } from './users/users-tab';

export interface AdminTab {
  id: string;
  label: string;
  /** What the tab's calls need: without it the tab is not offered. */
  permission: Permission;
  Panel: ComponentType;
}

/** The console's tabs (spec section 2 "Admin dashboard", plus the audit log), in order. */
export const ADMIN_TABS: readonly AdminTab[] = [
  { id: 'overview', label: 'Overview', permission: 'stats:read', Panel: OverviewTab },
  { id: 'users', label: 'User Management', permission: 'users:read', Panel: UsersTab },
  { id: 'events', label: 'Security Events', permission: 'security:read', Panel: EventsTab },
  { id: 'sessions', label: 'Active Sessions', permission: 'sessions:read', Panel: SessionsTab },
  { id: 'health', label: 'System Health', permission: 'system:read', Panel: HealthTab },
  { id: 'audit', label: 'Audit log', permission: 'audit:read', Panel: AuditTab },
];
