import type { ListNotesQuery, NoteDto, NoteListResponse, RpcContext } from '@vault/contracts';
import type { RpcClient } from '../../proxy/rpc.client';

/** Page size the gateway asks for when a client wants the whole list (the largest the contract allows). */
export const LIST_ALL_PAGE_SIZE = 500;

/**
 * Every active note (`GET /api/notes` without `limit`), fetched page by page so that no
 * single RPC message grows with the vault (NATS caps a message at max_payload); the
 * service also caps each page's bytes. Pages follow the service's keyset cursor.
 */
export async function listAllNotes(
  rpc: RpcClient,
  ctx: RpcContext,
  cursor?: string,
): Promise<NoteListResponse> {
  const notes: NoteDto[] = [];
  let next: string | undefined = cursor;
  for (;;) {
    const query: ListNotesQuery =
      next === undefined ? { limit: LIST_ALL_PAGE_SIZE } : { limit: LIST_ALL_PAGE_SIZE, cursor: next };
    const page = await rpc.call('notes.list', ctx, query);
    notes.push(...page.notes);
    // A page that ends the list, or (defensively) one that did not advance it.
    if (page.nextCursor === null || page.notes.length === 0) return { notes, nextCursor: null };
    next = page.nextCursor;
  }
}
