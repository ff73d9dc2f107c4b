import { sealedNoteBytes } from '@vault/contracts';

/**
 * A page carries at most this much (sealed fields plus NOTE_JSON_OVERHEAD per note), except
 * a page of one note larger than that, so an RPC answer stays inside a transport's message
 * limit (NATS max_payload, 1 MiB by default) whatever `limit` asks for. Clients follow
 * `nextCursor` until it is null.
 */
export const LIST_PAGE_MAX_BYTES = 768 * 1024;
/** JSON around a note's sealed fields in an answer (ids, flags, dates, keys). */
export const NOTE_JSON_OVERHEAD = 300;

type Sealed = Parameters<typeof sealedNoteBytes>[0];

/**
 * Cuts the page out of `rows` (fetched with `limit + 1`, so one more row than the page can
 * hold says that more exist): at most `limit` notes and at most `maxBytes`, never empty
 * when a row exists. `hasMore` is true when notes follow the page.
 */
export function takePage<T extends Sealed>(
  rows: T[],
  limit: number,
  maxBytes = LIST_PAGE_MAX_BYTES,
): { page: T[]; hasMore: boolean } {
  const page: T[] = [];
  let bytes = 0;
  for (const row of rows) {
    if (page.length >= limit) break;
    const size = sealedNoteBytes(row) + NOTE_JSON_OVERHEAD;
    if (page.length > 0 && bytes + size > maxBytes) break;
    page.push(row);
    bytes += size;
  }
  return { page, hasMore: page.length < rows.length };
}
