import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { KdfParamsDto, Role } from '@vault/contracts';

/** A row of `auth.users`. Never leaves the service: map it with `toUserDto`. */
@Entity({ schema: 'auth', name: 'users' })
export class UserEntity {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('text')
  username!: string;

  @Column('text', { name: 'username_lower' })
  usernameLower!: string;

  /** Stored lowercase. */
  @Column('text')
  email!: string;

  @Column('text', { name: 'phone_number' })
  phoneNumber!: string;

  /** Digits, with a leading + when the user typed one. */
  @Column('text', { name: 'phone_normalized' })
  phoneNormalized!: string;

  /**
   * The normal form again, unique: what phone sign-in looks up. Null for a number that several
   * accounts held before numbers became unique (they sign in by username or e-mail).
   */
  @Column('text', { name: 'phone_login', nullable: true })
  phoneLogin!: string | null;

  /** Argon2id PHC string of the client's authKey; authKey itself is never stored. */
  @Column('text', { name: 'auth_hash' })
  authHash!: string;

  @Column('text')
  salt!: string;

  @Column('jsonb', { name: 'kdf_params' })
  kdfParams!: KdfParamsDto;

  @Column('text', { name: 'wrapped_vault_key' })
  wrappedVaultKey!: string;

  @Column('text', { default: 'user' })
  role!: Role;

  @Column('text', { array: true, default: () => "'{}'" })
  permissions!: string[];

  @Column('boolean', { name: 'two_factor_enabled', default: false })
  twoFactorEnabled!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column('timestamptz', { name: 'last_login_at', nullable: true })
  lastLoginAt!: Date | null;

  /** Mirror of the Redis lockout counter, for the admin console. */
  @Column('int', { name: 'failed_login_attempts', default: 0 })
  failedLoginAttempts!: number;

  @Column('timestamptz', { name: 'locked_until', nullable: true })
  lockedUntil!: Date | null;

  @Column('text', { name: 'locked_reason', nullable: true })
  lockedReason!: string | null;

  /** Argon2id PHC string of recoveryAuth (docs/crypto-protocol.md "Recovery key"). */
  @Column('text', { name: 'recovery_auth_hash', nullable: true })
  recoveryAuthHash!: string | null;

  @Column('text', { name: 'recovery_wrapped_vault_key', nullable: true })
  recoveryWrappedVaultKey!: string | null;
}
