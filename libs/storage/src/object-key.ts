import { ErrorCode, VaultError } from '@vault/contracts';

/**
 * Object keys are made by the files service as `${ownerId}/${fileId}` (a thumbnail:
 * `${ownerId}/${fileId}.thumb`). Every driver checks every key with `parseObjectKey`
 * before it touches a path, a bucket or a public id, so no key can climb out of its
 * folder (`..`), name a third level, or smuggle characters a store treats specially.
 */
const SEGMENT = '[0-9a-z-]{1,64}';
const KEY_PATTERN = new RegExp(`^(${SEGMENT})/(${SEGMENT})(\\.thumb)?$`);

export const OBJECT_KEY_INVALID = 'Invalid storage object key';

export interface ObjectKeyParts {
  ownerId: string;
  fileId: string;
  /** The `.thumb` variant (a sealed thumbnail stored beside the file). */
  thumb: boolean;
}

/** The parts of a valid key; throws `VaultError(VALIDATION_FAILED)` for anything else. */
export function parseObjectKey(key: unknown): ObjectKeyParts {
  const match = typeof key === 'string' ? KEY_PATTERN.exec(key) : null;
  if (!match) throw new VaultError(ErrorCode.VALIDATION_FAILED, OBJECT_KEY_INVALID);
  return { ownerId: match[1] as string, fileId: match[2] as string, thumb: match[3] !== undefined };
}

/** Returns the key when valid, throws otherwise (the check every driver method starts with). */
export function assertObjectKey(key: unknown): string {
  parseObjectKey(key);
  return key as string;
}

export function isValidObjectKey(key: unknown): key is string {
  return typeof key === 'string' && KEY_PATTERN.test(key);
}

/** `${ownerId}/${fileId}` (or the `.thumb` variant), validated. Ids are lowercase UUIDs in practice. */
export function objectKey(ownerId: string, fileId: string, variant: 'file' | 'thumb' = 'file'): string {
  return assertObjectKey(`${ownerId}/${fileId}${variant === 'thumb' ? '.thumb' : ''}`);
}
