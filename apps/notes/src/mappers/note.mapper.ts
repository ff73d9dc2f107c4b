import type { NoteDto } from '@vault/contracts';
import type { NoteEntity } from '../entities/note.entity';

/** `note` in answers (docs/api.md "Notes"): never the owner or the body hash. */
export function toNoteDto(note: NoteEntity): NoteDto {
  return {
    id: note.id,
    title: note.title,
    content: note.content,
    tags: [...note.tags],
    wrappedDEK: note.wrappedDek,
    isEncrypted: note.isEncrypted,
    isDeleted: note.isDeleted,
    createdAt: note.createdAt.toISOString(),
    updatedAt: note.updatedAt.toISOString(),
    deletedAt: note.deletedAt ? note.deletedAt.toISOString() : null,
  };
}
