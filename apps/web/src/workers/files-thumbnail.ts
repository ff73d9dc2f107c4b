/**
 * The small picture shown on an image file's card: drawn on this device before the upload (in
 * the files worker), at most 256 px on the longer side, WebP (JPEG where the engine cannot
 * encode WebP), then sealed under the file key (encryptThumbnail of @vault/crypto).
 */

export const THUMBNAIL_MAX_PX = 256;
export const THUMBNAIL_SOURCE_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
];
/**
 * Images larger than this are not decoded for a thumbnail: decoding costs width × height × 4
 * bytes whatever the file size, and a huge picture could exhaust the worker's memory.
 */
export const THUMBNAIL_SOURCE_MAX_BYTES = 40 * 1024 * 1024;
/** Sealed it must stay under the contract's FILE_THUMBNAIL_MAX_CHARS (512 Ki hex characters). */
export const THUMBNAIL_MAX_BYTES = 200 * 1024;

/** The thumbnail's size: the picture scaled to fit THUMBNAIL_MAX_PX, never enlarged, at least 1 px. */
export function thumbnailSize(
  width: number,
  height: number,
  max = THUMBNAIL_MAX_PX,
): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

export function canHaveThumbnail(mimeType: string, size: number): boolean {
  return THUMBNAIL_SOURCE_TYPES.includes(mimeType) && size > 0 && size <= THUMBNAIL_SOURCE_MAX_BYTES;
}

/**
 * Draws the thumbnail of an image, or null where it cannot be made (no OffscreenCanvas or
 * createImageBitmap in this engine, a picture the browser cannot decode, a result too large).
 * A thumbnail is optional: nothing here ever fails an upload.
 */
export async function makeThumbnail(file: Blob, mimeType: string): Promise<Uint8Array | null> {
  if (!canHaveThumbnail(mimeType, file.size)) return null;
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return null;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return null;
  }
  try {
    const { width, height } = thumbnailSize(bitmap.width, bitmap.height);
    const draw = (background?: string): OffscreenCanvas | null => {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) return null;
      if (background) {
        ctx.fillStyle = background;
        ctx.fillRect(0, 0, width, height);
      }
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(bitmap, 0, 0, width, height);
      return canvas;
    };
    const canvas = draw();
    if (!canvas) return null;
    let out = await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
    if (out.type !== 'image/webp') {
      // JPEG has no transparency: a transparent PNG is drawn on white rather than on black.
      const flat = draw('#ffffff');
      if (!flat) return null;
      out = await flat.convertToBlob({ type: 'image/jpeg', quality: 0.82 });
    }
    const bytes = new Uint8Array(await out.arrayBuffer());
    return bytes.length > 0 && bytes.length <= THUMBNAIL_MAX_BYTES ? bytes : null;
  } catch {
    return null;
  } finally {
    bitmap.close();
  }
}

/** The picture type of thumbnail bytes, from their signature (for the object URL's Blob). */
export function thumbnailMimeType(bytes: Uint8Array): string {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(1, 4) === 'PNG') return 'image/png';
  if (bytes.length >= 6 && ascii(0, 4) === 'GIF8') return 'image/gif';
  return 'application/octet-stream';
}
