import type { QueryCache } from '../../../lib/query';
import { fileCountsQueryKey } from './get-file-counts';

/** The trash's query key for deleted files (get-deleted-files.ts). */
export const deletedFilesQueryKey = 'files/deleted';

/**
 * After any change to files: the sidebar's Trash count (GET /api/files/counts) and the trash's
 * deleted files are refetched where shown, and marked stale elsewhere.
 */
export function filesChanged(cache: QueryCache, { trash = true }: { trash?: boolean } = {}): void {
  cache.invalidate(fileCountsQueryKey);
  if (trash) cache.invalidate(deletedFilesQueryKey);
}
