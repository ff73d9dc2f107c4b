import type { ListNotesQuery, NoteListPage, RpcContext } from '@vault/contracts';
import type { RpcClient } from '../../proxy/rpc.client';

/** Page size the gateway asks for when a client wants the whole list (the largest the contract allows). */
export const LIST_ALL_PAGE_SIZE = 500;

/**
 * `NoteListResponse` as JSON text, from pages whose notes are JSON text already (`notes.list`
 * answers each page's NoteDto array as written by Postgres): the arrays are spliced, never
 * parsed, so a 1,000-note answer costs no object per note here (bench/README.md "Load").
 */
export function listResponseText(pages: readonly NoteListPage[], nextCursor: string | null): string {
  const arrays = pages.filter((page) => page.count > 0).map((page) => page.notesJson.slice(1, -1));
  return `{"notes":[${arrays.join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;
}

/**
 * Every active note (`GET /api/notes` without `limit`), fetched page by page so that no
 * single RPC message grows with the vault (NATS caps a message at max_payload); the
 * service also caps each page's bytes. Pages follow the service's keyset cursor. The answer is
 * `NoteListResponse` as JSON text (listResponseText).
 */
export async function listAllNotes(rpc: RpcClient, ctx: RpcContext, cursor?: string): Promise<string> {
  const pages: NoteListPage[] = [];
  let next: string | undefined = cursor;
  for (;;) {
    const query: ListNotesQuery =
      next === undefined ? { limit: LIST_ALL_PAGE_SIZE } : { limit: LIST_ALL_PAGE_SIZE, cursor: next };
    const page = await rpc.call('notes.list', ctx, query);
    pages.push(page);
    // A page that ends the list, or (defensively) one that did not advance it.
    if (page.nextCursor === null || page.count === 0) return listResponseText(pages, null);
    next = page.nextCursor;
  }
}
