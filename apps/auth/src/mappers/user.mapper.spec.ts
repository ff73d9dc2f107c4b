import { DEFAULT_KDF_PARAMS } from '@vault/contracts';
import type { UserEntity } from '../entities/user.entity';
import { toMeResponse, toUserDto } from './user.mapper';

function user(overrides: Partial<UserEntity> = {}): UserEntity {
  return {
    id: '0b1e6c1a-3c2d-4e5f-8a9b-0c1d2e3f4a5b',
    username: 'Alice',
    usernameLower: 'alice',
    email: 'alice@example.com',
    phoneNumber: '+1 555 0100',
    phoneNormalized: '+15550100',
    phoneLogin: '+15550100',
    authHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
    salt: '00112233445566778899aabbccddeeff',
    kdfParams: DEFAULT_KDF_PARAMS,
    wrappedVaultKey: `${'ab'.repeat(48)}:${'cd'.repeat(12)}`,
    role: 'user',
    permissions: [],
    twoFactorEnabled: false,
    createdAt: new Date('2026-01-02T03:04:05.000Z'),
    updatedAt: new Date('2026-01-02T03:04:05.000Z'),
    lastLoginAt: null,
    failedLoginAttempts: 3,
    lockedUntil: new Date('2026-01-02T04:00:00.000Z'),
    lockedReason: 'Too many failed login attempts',
    recoveryAuthHash: '$argon2id$recovery',
    recoveryWrappedVaultKey: `${'ef'.repeat(48)}:${'01'.repeat(12)}`,
    ...overrides,
  };
}

describe('user mapper', () => {
  it('maps a row to the contract user with an ISO creation date', () => {
    expect(toUserDto(user())).toEqual({
      id: '0b1e6c1a-3c2d-4e5f-8a9b-0c1d2e3f4a5b',
      email: 'alice@example.com',
      username: 'Alice',
      role: 'user',
      permissions: [],
      twoFactorEnabled: false,
      createdAt: '2026-01-02T03:04:05.000Z',
    });
  });

  it('never lets a hash, a phone number or lockout state out', () => {
    const text = JSON.stringify(toMeResponse(user()));
    for (const secret of ['$argon2id$', '+1 555 0100', '15550100', 'Too many', 'recovery', 'efef']) {
      expect(text).not.toContain(secret);
    }
  });

  it('drops permissions the contract does not know and reads an unknown role as user', () => {
    const dto = toUserDto(
      user({ role: 'root' as UserEntity['role'], permissions: ['stats:read', 'make:coffee'] }),
    );
    expect(dto.role).toBe('user');
    expect(dto.permissions).toEqual(['stats:read']);
  });

  it('answers /me with the vault key material the client needs to unlock', () => {
    expect(toMeResponse(user()).vault).toEqual({
      salt: '00112233445566778899aabbccddeeff',
      kdfParams: DEFAULT_KDF_PARAMS,
      wrappedVaultKey: `${'ab'.repeat(48)}:${'cd'.repeat(12)}`,
    });
  });
});
