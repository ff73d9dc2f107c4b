import { z } from 'zod';
import { kdfParamsSchema } from '../common/kdf';

export const ROLES = ['user', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  'stats:read',
  'users:read',
  'users:lock',
  /** Remove an account's two-factor authentication (typed confirmation and a reason). */
  'users:2fa',
  'security:read',
  'sessions:read',
  'sessions:revoke',
  'system:read',
  /** The failed malware scans: retry one, rescan every file. */
  'scans:manage',
  'audit:read',
  /** Start and stop the server test runner's fixed suites (issue 15), when it is turned on. */
  'tests:run',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** `user` in answers (docs/api.md "Signing in"). */
export const userDtoSchema = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
  permissions: z.array(z.enum(PERMISSIONS)),
  twoFactorEnabled: z.boolean(),
  createdAt: z.string(),
});
export type UserDto = z.infer<typeof userDtoSchema>;

/** What a client needs to unlock the vault after a reload. */
export const vaultKeyMaterialSchema = z.object({
  salt: z.string(),
  kdfParams: kdfParamsSchema,
  wrappedVaultKey: z.string(),
});
export type VaultKeyMaterial = z.infer<typeof vaultKeyMaterialSchema>;

export const meResponseSchema = z.object({ user: userDtoSchema, vault: vaultKeyMaterialSchema });
export type MeResponse = z.infer<typeof meResponseSchema>;

export const authResponseSchema = z.object({
  access: z.string(),
  user: userDtoSchema,
  wrappedVaultKey: z.string(),
  warningMessage: z.string().optional(),
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const requires2faResponseSchema = z.object({ requires2FA: z.literal(true) });
export type Requires2faResponse = z.infer<typeof requires2faResponseSchema>;

export const refreshResponseSchema = z.object({ access: z.string() });
export type RefreshResponse = z.infer<typeof refreshResponseSchema>;

export const sessionDtoSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  ipAddress: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
});
export type SessionDto = z.infer<typeof sessionDtoSchema>;
export const sessionListResponseSchema = z.object({ sessions: z.array(sessionDtoSchema) });
export type SessionListResponse = z.infer<typeof sessionListResponseSchema>;

/** `auth.login` answers either a session or the 2FA step (no token then). */
export type LoginResponse = AuthResponse | Requires2faResponse;
