import type { AccountCryptoService, CryptoService, RecoveryCryptoService } from './crypto-service';
import { cryptoErrorCode } from './crypto-service';
import type { CryptoRequest, CryptoResponse, CryptoResult } from './crypto-messages';

/** Runs one request and turns any failure into `{code, message}` (errors do not clone well). */
export async function handleCryptoRequest(
  ops: CryptoService & AccountCryptoService & RecoveryCryptoService,
  req: CryptoRequest,
): Promise<CryptoResponse> {
  try {
    let result: CryptoResult;
    switch (req.op) {
      case 'prepareLogin':
        result = await ops.prepareLogin(req.password, req.material);
        break;
      case 'openVaultKey':
        result = await ops.openVaultKey(req.handle, req.wrappedVaultKey);
        break;
      case 'discard':
        ops.discard(req.handle);
        result = null;
        break;
      case 'createAccount':
        result = await ops.createAccount(req.password);
        break;
      case 'unlockVault':
        result = await ops.unlockVault(req.password, req.material);
        break;
      case 'changePassword':
        result = await ops.changePassword(req.currentPassword, req.newPassword, req.material);
        break;
      case 'createRecoveryKey':
        result = await ops.createRecoveryKey(req.password, req.material);
        break;
      case 'verifyPassword':
        result = await ops.verifyPassword(req.password, req.material);
        break;
      case 'createAccountWithRecovery':
        result = await ops.createAccountWithRecovery(req.password);
        break;
      case 'deriveRecoveryAnswersAuth':
        result = await ops.deriveRecoveryAnswersAuth(req.answers, req.questionsSalt, req.kdfParams);
        break;
      case 'prepareRecoveryKey':
        result = await ops.prepareRecoveryKey(req.recoveryKeyText);
        break;
      case 'createResetMaterial':
        result = await ops.createResetMaterial(req.password, req.recovery);
        break;
      case 'rewrapLegacyItems':
        result = await ops.rewrapLegacyItems(req.password, req.legacy, req.currentVaultKey, req.items);
        break;
      default:
        throw new Error('Unknown crypto operation');
    }
    return { id: req.id, ok: true, result };
  } catch (error) {
    return {
      id: req.id,
      ok: false,
      error: {
        code: cryptoErrorCode(error) ?? 'INTERNAL',
        message: error instanceof Error ? error.message : 'Crypto operation failed',
      },
    };
  }
}
