import { Injectable } from '@nestjs/common';
import type { KdfParamsDto } from '@vault/contracts';
import { DataSource, QueryFailedError, type Repository } from 'typeorm';
import { SecurityEventEntity } from '../entities/security-event.entity';
import { UserEntity } from '../entities/user.entity';
import type { NewSecurityEvent } from './security-events.repository';

export type NewUser = Pick<
  UserEntity,
  | 'id'
  | 'username'
  | 'usernameLower'
  | 'email'
  | 'phoneNumber'
  | 'phoneNormalized'
  | 'phoneLogin'
  | 'authHash'
  | 'salt'
  | 'kdfParams'
  | 'wrappedVaultKey'
  | 'recoveryAuthHash'
  | 'recoveryWrappedVaultKey'
  | 'lastLoginAt'
>;

export type TakenField = 'username' | 'email' | 'phone';
export type InsertUserResult = { ok: true; user: UserEntity } | { ok: false; conflict: TakenField };

export interface NewCredentials {
  authHash: string;
  salt: string;
  kdfParams: KdfParamsDto;
  wrappedVaultKey: string;
}

const UNIQUE_VIOLATION = '23505';
const CONFLICT_BY_CONSTRAINT: Record<string, TakenField> = {
  users_username_lower_key: 'username',
  users_email_key: 'email',
  users_phone_login_key: 'phone',
};

/** The column each kind of sign-in identifier is looked up by (all unique). */
export const IDENTIFIER_COLUMN = {
  username: 'username_lower',
  email: 'email',
  phone: 'phone_login',
} as const;

/** Queries on `auth.users`. No product rules here: the services decide. */
@Injectable()
export class UsersRepository {
  private readonly users: Repository<UserEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.users = dataSource.getRepository(UserEntity);
  }

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** The one account a sign-in identifier names, by the column its kind is kept in. */
  findByIdentifier(kind: keyof typeof IDENTIFIER_COLUMN, value: string): Promise<UserEntity | null> {
    return this.users
      .createQueryBuilder('u')
      .where(`u.${IDENTIFIER_COLUMN[kind]} = :value`, { value })
      .getOne();
  }

  async findTaken(
    usernameLower: string,
    email: string,
    phoneLogin: string,
  ): Promise<Record<TakenField, boolean>> {
    const rows = await this.users
      .createQueryBuilder('u')
      .select(['u.usernameLower', 'u.email', 'u.phoneLogin'])
      .where('u.username_lower = :usernameLower OR u.email = :email OR u.phone_login = :phoneLogin', {
        usernameLower,
        email,
        phoneLogin,
      })
      .getMany();
    return {
      username: rows.some((r) => r.usernameLower === usernameLower),
      email: rows.some((r) => r.email === email),
      phone: rows.some((r) => r.phoneLogin === phoneLogin),
    };
  }

  /** Inserts, reporting a unique-key race as a conflict instead of an error. */
  async insert(user: NewUser): Promise<InsertUserResult> {
    try {
      await this.users.insert(user);
    } catch (error) {
      const driverError =
        error instanceof QueryFailedError
          ? (error.driverError as { code?: string; constraint?: string })
          : undefined;
      const conflict =
        driverError?.code === UNIQUE_VIOLATION
          ? CONFLICT_BY_CONSTRAINT[driverError.constraint ?? '']
          : undefined;
      if (conflict) return { ok: false, conflict };
      throw error;
    }
    const created = await this.users.findOneByOrFail({ id: user.id });
    return { ok: true, user: created };
  }

  /** Mirrors the Redis lockout state into the row (read by the admin console). */
  async setLoginFailures(
    id: string,
    failures: number,
    lock?: { until: Date; reason: string },
  ): Promise<void> {
    await this.users.update(
      { id },
      lock
        ? { failedLoginAttempts: failures, lockedUntil: lock.until, lockedReason: lock.reason }
        : { failedLoginAttempts: failures },
    );
  }

  /** A correct key: failures forgotten; `lastLoginAt` set when a session starts. */
  async clearLoginFailures(id: string, lastLoginAt?: Date): Promise<void> {
    await this.users.update(
      { id },
      {
        failedLoginAttempts: 0,
        lockedUntil: null,
        lockedReason: null,
        ...(lastLoginAt ? { lastLoginAt } : {}),
      },
    );
  }

  /**
   * Replaces the credentials and writes the audit row in one transaction. The update only
   * applies while the stored hash is still `expectedAuthHash`, so two concurrent changes
   * cannot both win. Returns false when it did not apply.
   */
  async replaceCredentials(
    id: string,
    expectedAuthHash: string,
    next: NewCredentials,
    event: NewSecurityEvent,
  ): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      const result = await manager
        .createQueryBuilder()
        .update(UserEntity)
        .set({
          authHash: next.authHash,
          salt: next.salt,
          kdfParams: next.kdfParams,
          wrappedVaultKey: next.wrappedVaultKey,
        })
        .where('id = :id AND auth_hash = :expected', { id, expected: expectedAuthHash })
        .execute();
      if (result.affected !== 1) return false;
      await manager.insert(SecurityEventEntity, event);
      return true;
    });
  }
}
