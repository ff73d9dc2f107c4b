import { fileCountsResponseSchema, type FileCountsResponse } from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { defineGetQuery } from '../../../lib/get-query';

/**
 * GET /api/files/counts → {active, deleted, bytes}: the sidebar's Trash count includes the
 * deleted files. A failed call is an error (the query stays failed and stale, and is asked again by
 * Retry, the next successful load or the next page), never an answer of nothing: the Trash count
 * then leaves the files out until it answers.
 */
const fileCounts = defineGetQuery('/files/counts', fileCountsResponseSchema, 'files/counts');

export const getFileCounts: (api: ApiClient) => Promise<FileCountsResponse> = fileCounts.get;
export const fileCountsQueryKey = fileCounts.queryKey;
export const useFileCounts = fileCounts.use;
