/**
 * Protocol v1, "Files" (metadata).
 *
 *   fileKey           = 32 random bytes per file
 *   wrappedKey        = seal(vaultKey, fileKey, "vault:v1:file-key:" + fileId)
 *   encryptedName     = seal(fileKey, utf8(name), "vault:v1:file:" + fileId + ":name")
 *   encryptedMimeType = seal(fileKey, utf8(mime), "vault:v1:file:" + fileId + ":mime")
 *   encryptedTags     = seal(fileKey, utf8(JSON.stringify(tags)), "vault:v1:file:" + fileId + ":tags")
 */
import { utf8ToBytes } from './encoding';
import { AAD } from './aad';
import { decodeTags, decodeText, encodeTags } from './json-field';
import type { AesKeyInput } from './primitives';
import { open, openAesKey, requireSealed, seal } from './seal';
import { optionalIv, resealItemKey, sealNewItemKey } from './item-key';
import { requireItemId } from './ids';
import type { ItemId, Sealed } from './types';
import { requireObject, requireString, requireStringArray } from './validate';

export interface FileMetadataPlaintext {
  name: string;
  mimeType: string;
  tags: string[];
}

export interface EncryptedFileFields {
  readonly encryptedName: Sealed;
  readonly encryptedMimeType: Sealed;
  readonly encryptedTags: Sealed;
}

export interface EncryptedFileMetadata extends EncryptedFileFields {
  readonly wrappedKey: Sealed;
}

/** What decryptFileMetadata accepts: the server's JSON as is (every field is checked at run time). */
export interface EncryptedFileMetadataInput {
  readonly wrappedKey: string;
  readonly encryptedName: string;
  readonly encryptedMimeType: string;
  readonly encryptedTags: string;
}

export interface FileFieldIvs {
  name?: Uint8Array;
  mime?: Uint8Array;
  tags?: Uint8Array;
}

/** Tests only: fixed fileKey and IVs. */
export interface EncryptFileMetadataOptions {
  fileKey?: Uint8Array;
  ivs?: FileFieldIvs & { key?: Uint8Array };
}

function checkPlaintext(p: unknown): FileMetadataPlaintext {
  const o = requireObject(p, 'file metadata');
  return {
    name: requireString(o['name'], 'file name'),
    mimeType: requireString(o['mimeType'], 'file MIME type'),
    tags: requireStringArray(o['tags'], 'file tags'),
  };
}

async function sealFields(
  fileKey: CryptoKey,
  fileId: ItemId,
  p: FileMetadataPlaintext,
  ivs: FileFieldIvs = {},
): Promise<EncryptedFileFields> {
  return {
    encryptedName: await seal(
      fileKey,
      utf8ToBytes(p.name, 'file name'),
      AAD.fileField(fileId, 'name'),
      optionalIv(ivs.name, 'name iv'),
    ),
    encryptedMimeType: await seal(
      fileKey,
      utf8ToBytes(p.mimeType, 'file MIME type'),
      AAD.fileField(fileId, 'mime'),
      optionalIv(ivs.mime, 'mime iv'),
    ),
    encryptedTags: await seal(
      fileKey,
      encodeTags(p.tags, 'file tags'),
      AAD.fileField(fileId, 'tags'),
      optionalIv(ivs.tags, 'tags iv'),
    ),
  };
}

/** A fresh file key (returned as a non-extractable CryptoKey for the content stream) and the sealed metadata. */
export async function encryptFileMetadata(
  vaultKey: AesKeyInput,
  fileId: string,
  metadata: FileMetadataPlaintext,
  opts: EncryptFileMetadataOptions = {},
): Promise<EncryptedFileMetadata & { fileKey: CryptoKey }> {
  const id = requireItemId(fileId, 'file id');
  const p = checkPlaintext(metadata);
  const { key: fileKey, wrapped: wrappedKey } = await sealNewItemKey(
    vaultKey,
    AAD.fileKey(id),
    'file key',
    opts.fileKey,
    opts.ivs?.key,
  );
  const fields = await sealFields(fileKey, id, p, opts.ivs);
  return { fileKey, wrappedKey, ...fields };
}

/** The file key as a non-extractable CryptoKey. DECRYPT_FAILED if wrappedKey belongs to another file or key. */
export async function unwrapFileKey(
  vaultKey: AesKeyInput,
  fileId: string,
  wrappedKey: Sealed | string,
): Promise<CryptoKey> {
  const id = requireItemId(fileId, 'file id');
  return openAesKey(vaultKey, wrappedKey, AAD.fileKey(id));
}

export async function decryptFileMetadata(
  vaultKey: AesKeyInput,
  fileId: string,
  meta: EncryptedFileMetadataInput,
): Promise<FileMetadataPlaintext> {
  const id = requireItemId(fileId, 'file id');
  const m = requireObject(meta, 'encrypted file metadata');
  const fileKey = await unwrapFileKey(vaultKey, id, requireSealed(m['wrappedKey'], 'wrappedKey'));
  const name = await open(
    fileKey,
    requireSealed(m['encryptedName'], 'encryptedName'),
    AAD.fileField(id, 'name'),
  );
  const mime = await open(
    fileKey,
    requireSealed(m['encryptedMimeType'], 'encryptedMimeType'),
    AAD.fileField(id, 'mime'),
  );
  const tags = await open(
    fileKey,
    requireSealed(m['encryptedTags'], 'encryptedTags'),
    AAD.fileField(id, 'tags'),
  );
  return {
    name: decodeText(name, 'file name'),
    mimeType: decodeText(mime, 'file MIME type'),
    tags: decodeTags(tags, 'file tags'),
  };
}

/** Re-seals name, MIME type and tags (e.g. a rename) with fresh IVs under the file's existing key. */
export async function updateFileMetadata(
  vaultKey: AesKeyInput,
  fileId: string,
  wrappedKey: Sealed | string,
  metadata: FileMetadataPlaintext,
  opts: { ivs?: FileFieldIvs } = {},
): Promise<EncryptedFileFields> {
  const id = requireItemId(fileId, 'file id');
  const p = checkPlaintext(metadata);
  const fileKey = await unwrapFileKey(vaultKey, id, wrappedKey);
  return sealFields(fileKey, id, p, opts.ivs);
}

/** Moves a file key from one vault key to another (after an access reset). Content is not touched. */
export async function rewrapFileKey(
  oldVaultKey: AesKeyInput,
  newVaultKey: AesKeyInput,
  fileId: string,
  wrappedKey: Sealed | string,
  iv?: Uint8Array,
): Promise<Sealed> {
  const id = requireItemId(fileId, 'file id');
  return resealItemKey(oldVaultKey, newVaultKey, wrappedKey, AAD.fileKey(id), iv);
}
