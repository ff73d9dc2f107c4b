/**
 * @vault/crypto: the Vault crypto protocol, version 1 (docs/crypto-protocol.md), on WebCrypto + hash-wasm.
 * Runs unchanged in browsers, Web Workers and Node 20+. Named exports only.
 */
export type { Argon2idParams, BytesOrHex, Hex, ItemId, KdfParams, Pbkdf2Params, Sealed } from './types';
export { VaultCryptoError, isVaultCryptoError } from './errors';
export type { VaultCryptoErrorCode } from './errors';
export {
  base32Decode,
  base32Encode,
  bytesToHex,
  bytesToUtf8,
  concatBytes,
  hexToBytes,
  isHex,
  utf8ToBytes,
} from './encoding';
export { randomBytes } from './primitives/random';
export { isItemId, newItemId } from './ids';
export { AAD } from './aad';
export { DEFAULT_KDF_PARAMS, HKDF_INFO, KDF_LIMITS, derivePasswordKey, hkdf, validateKdfParams } from './kdf';
export { SEALED_PATTERN, importVaultKey, isSealed, open, seal } from './seal';
export { deriveAccountKeys, deriveAuthKey, rewrapVaultKey, unwrapVaultKeyRaw } from './account-keys';
export type { AccountKeys, PasswordMaterial, WrappedVaultKey } from './account-keys';
export { changePassword, createAccount, unlockVault } from './account';
export type {
  ChangePasswordInput,
  ChangedPassword,
  CreateAccountOptions,
  CreatedAccount,
  RecoveryKit,
  UnlockedVault,
} from './account';
export { decryptNote, encryptNote, rewrapNoteKey, unwrapNoteKey, updateNote } from './notes';
export type {
  EncryptNoteOptions,
  EncryptedNote,
  EncryptedNoteInput,
  NoteFieldIvs,
  NotePlaintext,
} from './notes';
export {
  decryptFileMetadata,
  encryptFileMetadata,
  rewrapFileKey,
  unwrapFileKey,
  updateFileMetadata,
} from './file-metadata';
export type {
  EncryptFileMetadataOptions,
  EncryptedFileFields,
  EncryptedFileMetadata,
  EncryptedFileMetadataInput,
  FileFieldIvs,
  FileMetadataPlaintext,
} from './file-metadata';
export { decryptThumbnail, encryptThumbnail } from './file-thumbnail';
export {
  FILE_CHUNK_SIZE,
  MAX_FILE_CHUNK_SIZE,
  chunkAad,
  chunkCount,
  chunkIv,
  createDecryptStream,
  createEncryptStream,
  decryptFileBytes,
  encryptFileBytes,
  encryptedSizeFor,
  plaintextSizeFor,
} from './file-stream';
export type { FileStreamParams, FileStreamStats } from './file-stream';
export {
  createRecoveryMaterial,
  deriveRecoveryAuth,
  generateRecoveryKey,
  openRecoveryVaultKey,
  recoveryKeyFromText,
  recoveryKeyToText,
} from './recovery';
export type { RecoveryMaterial, VaultKeySource } from './recovery';
export { deriveAnswersAuth, normalizeAnswer } from './answers';
