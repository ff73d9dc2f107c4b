import { thumbnailResponseSchema } from '@vault/contracts';
import { isApiError, type ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/**
 * GET /api/files/{id}/optimized → {encryptedThumbnail}: the sealed thumbnail of an image file,
 * or null when it has none (404).
 */
export async function getThumbnail(api: ApiClient, id: string, signal?: AbortSignal): Promise<string | null> {
  try {
    const data = await api.get<unknown>(
      `/files/${encodeURIComponent(id)}/optimized`,
      signal ? { signal } : {},
    );
    return parseResponse(thumbnailResponseSchema, data).encryptedThumbnail;
  } catch (error) {
    if (isApiError(error, 404)) return null;
    throw error;
  }
}
