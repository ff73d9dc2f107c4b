/**
 * Notes as a real client handles them: sealed on the "device" with `@vault/crypto` under the account's vault
 * key (the server only ever sees ciphertext), sent through the gateway, and opened again from the answers.
 */
import type { CreateNoteBody, NoteDto, NoteListResponse, NoteResponse } from '@vault/contracts';
import {
  decryptNote,
  encryptNote,
  newItemId,
  updateNote,
  type EncryptedNote,
  type NotePlaintext,
} from '@vault/crypto';
import type { TestAccount } from './accounts';
import { assertStatus, type ApiClient, type ApiResponse } from './http';

export type { NotePlaintext };

/** The body of `POST /api/notes` for a sealed note. */
export function createBody(sealed: EncryptedNote): CreateNoteBody {
  return {
    id: sealed.id,
    title: sealed.title,
    content: sealed.content,
    tags: [...sealed.tags],
    wrappedDEK: sealed.wrappedDEK,
  };
}

/** The body of `PUT /api/notes/{id}` (the id travels in the path). */
export function updateBody(sealed: EncryptedNote): Omit<CreateNoteBody, 'id'> {
  const { id: _id, ...fields } = createBody(sealed);
  return fields;
}

/** Seals a new note on the device (fresh client-made id unless one is given). */
export function sealNote(
  account: TestAccount,
  plaintext: NotePlaintext,
  id: string = newItemId(),
): Promise<EncryptedNote> {
  return encryptNote(account.keys.vaultKey, id, plaintext);
}

/** Seals a note and creates it through the gateway; throws unless the answer is 201. */
export async function createNote(
  account: TestAccount,
  plaintext: NotePlaintext,
  client: ApiClient = account.client,
): Promise<{ note: NoteDto; sealed: EncryptedNote }> {
  const sealed = await sealNote(account, plaintext);
  const res = assertStatus(
    await client.post<NoteResponse>('/api/notes', createBody(sealed)),
    201,
    'create note',
  );
  return { note: res.body.note, sealed };
}

/** Re-seals every field of a note under its own key (what the web app's editor does on save). */
export function resealNote(
  account: TestAccount,
  note: NoteDto,
  plaintext: NotePlaintext,
): Promise<EncryptedNote> {
  return updateNote(account.keys.vaultKey, note, plaintext);
}

/** Opens a note from an answer; fails if the server changed, swapped or re-labelled anything. */
export function openNote(account: TestAccount, note: NoteDto): Promise<NotePlaintext> {
  return decryptNote(account.keys.vaultKey, note);
}

export function listNotes(client: ApiClient, query = ''): Promise<ApiResponse<NoteListResponse>> {
  return client.get<NoteListResponse>(`/api/notes${query}`);
}

/** A plaintext with a marker in every field, so that a test can look for it where it must not be. */
export function markedPlaintext(marker: string, n = 0): NotePlaintext {
  return {
    title: `Title ${marker} #${n} — café ✓`,
    content: `Content ${marker} #${n}\nSecond line with emoji 🗝️ and "quotes".`,
    tags: [`tag-${marker}`, `work-${n}`],
  };
}
