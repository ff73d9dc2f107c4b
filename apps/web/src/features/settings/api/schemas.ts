/**
 * The answers of the Settings calls, checked on arrival against the contract's schemas
 * (libs/contracts, api-contract.md "Auth service"); a mismatch is 'Unexpected response from server'.
 */
export {
  accountSettingsSchema,
  backupCodesInfoResponseSchema as backupCodesInfoSchema,
  backupCodesResponseSchema as backupCodesSchema,
  securityQuestionsResponseSchema as securityQuestionsSchema,
  twoFactorEnableResponseSchema as otpauthResponseSchema,
  type AccountSettings,
  type BackupCodesInfoResponse as BackupCodesInfo,
} from '@vault/contracts';
