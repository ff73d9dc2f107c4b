import { noteCountsResponseSchema, type NoteCountsResponse } from '@vault/contracts';
import { defineGetQuery } from './get-query';

export type NoteCounts = NoteCountsResponse;

/**
 * GET /api/notes/counts → {active, deleted}: the server's count of notes in the vault and in the
 * trash, shared by the notes feature (useNoteTotals, which every notes count on the screen uses)
 * and Settings' Account tab ('Total notes'). A failed call is an error, not an empty answer: the
 * query stays failed and stale, so Retry, the next successful load of the notes or the next page
 * asks again (the shell, app/layouts/vault-layout.tsx).
 */
const noteCounts = defineGetQuery('/notes/counts', noteCountsResponseSchema, 'notes/counts');

export const noteCountsQueryKey = noteCounts.queryKey;
export const useNoteCounts = noteCounts.use;
