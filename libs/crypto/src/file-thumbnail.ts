/**
 * Extension of protocol v1, "Files": an optional sealed thumbnail for image files.
 *
 *   encryptedThumbnail = seal(fileKey, thumbnailBytes, "vault:v1:file:" + fileId + ":thumbnail")
 *
 * The thumbnail (a small WebP or JPEG the client draws from the image before upload) is sealed
 * under the file's own key, bound to the file id and to its slot, like the name, MIME type and
 * tags. The server stores it beside the file record and serves it back unchanged
 * (GET /api/files/{id}/optimized); it never sees the picture.
 */
import { badInput } from './errors';
import { AAD } from './aad';
import type { AesKeyInput } from './primitives';
import { open, requireSealed, seal } from './seal';
import { requireItemId } from './ids';
import type { Sealed } from './types';
import { IV_BYTES, requireBytes } from './validate';

/** Seals thumbnail bytes under the file key (a CryptoKey from encryptFileMetadata / unwrapFileKey, or 32 raw bytes). */
export async function encryptThumbnail(
  fileKey: AesKeyInput,
  fileId: string,
  bytes: Uint8Array,
  iv?: Uint8Array,
): Promise<Sealed> {
  const id = requireItemId(fileId, 'file id');
  const data = requireBytes(bytes, 'thumbnail');
  if (data.length === 0) throw badInput('thumbnail must not be empty');
  return seal(
    fileKey,
    data,
    AAD.fileThumbnail(id),
    iv === undefined ? undefined : requireBytes(iv, 'thumbnail iv', IV_BYTES),
  );
}

/** Opens a sealed thumbnail; DECRYPT_FAILED for another file's thumbnail, another slot or another key. */
export async function decryptThumbnail(
  fileKey: AesKeyInput,
  fileId: string,
  encryptedThumbnail: Sealed | string,
): Promise<Uint8Array> {
  const id = requireItemId(fileId, 'file id');
  return open(fileKey, requireSealed(encryptedThumbnail, 'encryptedThumbnail'), AAD.fileThumbnail(id));
}
