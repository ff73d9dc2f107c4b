import {
  RawJson,
  type ListNotesQuery,
  type NoteListPage,
  type NoteListResponse,
  type RpcContext,
} from '@vault/contracts';
import type { RpcClient } from '../../proxy/rpc.client';

/** Page size the gateway asks for when a client wants the whole list (the largest the contract allows). */
export const LIST_ALL_PAGE_SIZE = 500;

/**
 * A page of the notes service as the answer's JSON, its notes' text used as it came (RawJson over
 * TCP: never parsed here, nor written again; bench/README.md "Load").
 */
export function pageBody(page: NoteListPage): RawJson<NoteListResponse> {
  return new RawJson(
    '{"notes":',
    RawJson.textOf(page.notes),
    `,"nextCursor":${JSON.stringify(page.nextCursor)}}`,
  );
}

/**
 * Every active note (`GET /api/notes` without `limit`), fetched page by page so that no
 * single RPC message grows with the vault (NATS caps a message at max_payload); the
 * service also caps each page's bytes. Pages follow the service's keyset cursor; the answer is
 * their notes' texts in a row (RawJson parts), not parsed and not joined into one string.
 */
export async function listAllNotes(
  rpc: RpcClient,
  ctx: RpcContext,
  cursor?: string,
): Promise<RawJson<NoteListResponse>> {
  const parts = ['{"notes":['];
  let next: string | undefined = cursor;
  for (;;) {
    const query: ListNotesQuery =
      next === undefined ? { limit: LIST_ALL_PAGE_SIZE } : { limit: LIST_ALL_PAGE_SIZE, cursor: next };
    const page = await rpc.call('notes.list', ctx, query);
    // The page's array without its brackets: `{…},{…}`, or blank for an empty page.
    const items = RawJson.textOf(page.notes).slice(1, -1);
    const empty = !/\S/.test(items);
    if (!empty) parts.push(...(parts.length > 1 ? [',', items] : [items]));
    // A page that ends the list, or (defensively) one that did not advance it.
    if (page.nextCursor === null || empty) return new RawJson(...parts, '],"nextCursor":null}');
    next = page.nextCursor;
  }
}
