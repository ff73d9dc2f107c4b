/**
 * A page carries at most this much (sealed fields plus NOTE_JSON_OVERHEAD per note), except
 * a page of one note larger than that, so an RPC answer stays inside a transport's message
 * limit (NATS max_payload, 1 MiB by default) whatever `limit` asks for. Clients follow
 * `nextCursor` until it is null.
 */
export const LIST_PAGE_MAX_BYTES = 768 * 1024;
/** JSON around a note's sealed fields in an answer (ids, flags, dates): counted per note with its sealed fields (sealedNoteBytes). */
export const NOTE_JSON_OVERHEAD = 300;
