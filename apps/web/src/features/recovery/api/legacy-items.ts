import {
  deletedNoteListResponseSchema,
  fileListResponseSchema,
  noteListResponseSchema,
  type FileDto,
  type NoteDto,
} from '@vault/contracts';
import type { ApiClient } from '../../../lib/api-client';
import { parseResponse } from '../../../lib/parse-response';

/** Every note of the account, sealed: the active ones (GET /notes without a limit) and the trash. */
export async function listAllNotes(api: ApiClient): Promise<{ active: NoteDto[]; deleted: NoteDto[] }> {
  const [active, deleted] = await Promise.all([
    api.get<unknown>('/notes').then((d) => parseResponse(noteListResponseSchema, d).notes),
    api.get<unknown>('/notes/deleted').then((d) => parseResponse(deletedNoteListResponseSchema, d).notes),
  ]);
  return { active, deleted };
}

/** Every file of the account, sealed: active and in the trash. */
export async function listAllFiles(api: ApiClient): Promise<FileDto[]> {
  const [active, deleted] = await Promise.all([
    api.get<unknown>('/files').then((d) => parseResponse(fileListResponseSchema, d).files),
    api.get<unknown>('/files/deleted').then((d) => parseResponse(fileListResponseSchema, d).files),
  ]);
  return [...active, ...deleted];
}

/**
 * PUT /api/notes/{id}/key → 204: only the note's wrapped key changes (active or in the trash), its
 * sealed fields and updatedAt stay. The fields' AAD binds them to the note id, not to the wrapped
 * key, so they stay valid under the re-wrapped key.
 */
export async function putNoteKey(api: ApiClient, id: string, wrappedDEK: string): Promise<void> {
  await api.put(`/notes/${encodeURIComponent(id)}/key`, { wrappedDEK });
}

/** PUT /api/files/{id}/key → 204: only the file's wrapped key changes (active or in the trash). */
export async function putFileKey(api: ApiClient, id: string, wrappedKey: string): Promise<void> {
  await api.put(`/files/${encodeURIComponent(id)}/key`, { wrappedKey });
}
