import {
  backupCodesInfoResponseSchema,
  backupCodesResponseSchema,
  twoFactorEnableResponseSchema,
  type BackupCodesInfoResponse,
} from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { useApiClient } from '../../../lib/api-context';
import { parseResponse } from '../../../lib/parse-response';
import { useQuery } from '../../../lib/query';

/** What proves the caller for disable / regenerate: a current authenticator code or the password's authKey. */
export type TwoFactorProof = { code: string } | { authKey: string };

/** POST /api/auth/2fa/enable → {otpauthUrl}: a new secret, not active until verified. */
export async function enableTwoFactor(api: ApiClient): Promise<string> {
  return parseResponse(twoFactorEnableResponseSchema, await api.post('/auth/2fa/enable', {})).otpauthUrl;
}

/** POST /api/auth/2fa/verify {code} → {backupCodes}: the first code turns 2FA on. */
export async function verifyTwoFactor(api: ApiClient, code: string): Promise<string[]> {
  return parseResponse(backupCodesResponseSchema, await api.post('/auth/2fa/verify', { code })).backupCodes;
}

/** POST /api/auth/2fa/disable {code} | {authKey} → 204; the backup codes go with it. */
export async function disableTwoFactor(api: ApiClient, proof: TwoFactorProof): Promise<void> {
  await api.post<void>('/auth/2fa/disable', proof);
}

/** GET /api/auth/2fa/backup-codes → {unusedCodesCount, totalCodes, generated}. */
export async function getBackupCodesInfo(api: ApiClient): Promise<BackupCodesInfoResponse> {
  return parseResponse(backupCodesInfoResponseSchema, await api.get('/auth/2fa/backup-codes'));
}

/** POST /api/auth/2fa/backup-codes/regenerate {code} | {authKey} → {backupCodes}; the old ones stop working. */
export async function regenerateBackupCodes(api: ApiClient, proof: TwoFactorProof): Promise<string[]> {
  return parseResponse(backupCodesResponseSchema, await api.post('/auth/2fa/backup-codes/regenerate', proof))
    .backupCodes;
}

export const backupCodesInfoQueryKey = 'settings/backup-codes';

export function useBackupCodesInfo(enabled: boolean) {
  const api = useApiClient();
  return useQuery({ queryKey: backupCodesInfoQueryKey, queryFn: () => getBackupCodesInfo(api), enabled });
}
