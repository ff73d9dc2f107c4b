import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export const SECURITY_EVENT_TYPES = [
  'signup',
  'signin_success',
  'signin_failure',
  'account_locked',
  'refresh_reuse',
  'password_changed',
  'logout',
  'session_revoked',
  'reauth_failure',
  'two_factor_enabled',
  'two_factor_disabled',
  'backup_codes_regenerated',
  'backup_code_used',
  'two_factor_failure',
  'account_deleted',
  'emergency_verification_required',
  'emergency_verification_passed',
  'emergency_verification_failed',
  'settings_changed',
  // Recovery (recovery.service.ts).
  'recovery_code_sent',
  'recovery_code_failed',
  'recovery_verified',
  'recovery_failed',
  'recovery_key_set',
  'security_questions_set',
  'password_reset',
  'legacy_key_deleted',
  // The role commands (cli/account-role.ts): `from`, `to`, `by`, and an admin's `permissions`.
  'role_changed',
  // The admin console's sign-in (an admin's own events).
  'admin_signin_success',
  'admin_signin_failure',
  /** Right key, but the account is no admin or has no 2FA: `reason` says which. */
  'admin_signin_refused',
  'admin_signout',
  // What an administrator did to this account (the user sees these with the admin's reason).
  'admin_account_locked',
  'admin_account_unlocked',
  'admin_two_factor_removed',
  'admin_sessions_ended',
  'admin_session_revoked',
  'admin_role_changed',
] as const;
export type SecurityEventType = (typeof SECURITY_EVENT_TYPES)[number];

/** Small, non-secret facts only: never a body, a key, a token or an identifier. */
export type SecurityEventDetails = Record<string, string | number | boolean | null>;

/** A row of `auth.security_events`. */
@Entity({ schema: 'auth', name: 'security_events' })
export class SecurityEventEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'user_id', nullable: true })
  userId!: string | null;

  @Column('text', { name: 'event_type' })
  eventType!: SecurityEventType;

  @Column('text', { name: 'ip_address' })
  ipAddress!: string;

  @Column('text', { name: 'user_agent' })
  userAgent!: string;

  @Column('jsonb', { default: () => "'{}'" })
  details!: SecurityEventDetails;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
