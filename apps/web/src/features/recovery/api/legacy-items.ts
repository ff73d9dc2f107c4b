import {
  deletedNoteListResponseSchema,
  fileListResponseSchema,
  noteListResponseSchema,
  noteResponseSchema,
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
 * PUT /api/notes/{id} with the note's sealed fields as they are and its key re-wrapped under the
 * current vault key. The fields' AAD binds them to the note id, not to the wrapped key, so they stay
 * valid; the notes API has no call that updates the wrapped key alone.
 */
export async function putRewrappedNote(api: ApiClient, note: NoteDto, wrappedDEK: string): Promise<NoteDto> {
  const data = await api.put<unknown>(`/notes/${encodeURIComponent(note.id)}`, {
    title: note.title,
    content: note.content,
    tags: note.tags,
    wrappedDEK,
  });
  return parseResponse(noteResponseSchema, data).note;
}
