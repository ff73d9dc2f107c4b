/** Spec section 5, "Notes": the note dialog's rules. */
export const NOTE_MESSAGES = {
  titleRequired: 'Title is required',
  unsavedChanges: 'You have unsaved changes. Are you sure you want to close?',
  confirmDelete: 'Are you sure you want to delete this note?',
  saveFailed: 'Failed to save note',
  encryptFailed: 'Failed to encrypt note',
  deleteFailed: 'Failed to delete note',
  decryptFailed: 'Failed to decrypt note',
  /** A version older than one already shown (a rollback), refused: not in the spec. */
  olderVersion: 'Older version refused',
} as const;

export interface NoteDraft {
  title: string;
  content: string;
  tags: string[];
}

export type AddTagResult =
  { ok: true; tags: string[] } | { ok: false; tags: string[]; reason: 'empty' | 'duplicate' };

/** A tag is trimmed, non-empty and not a duplicate. */
export function addTag(tags: readonly string[], input: string): AddTagResult {
  const tag = input.trim();
  if (!tag) return { ok: false, tags: [...tags], reason: 'empty' };
  if (tags.includes(tag)) return { ok: false, tags: [...tags], reason: 'duplicate' };
  return { ok: true, tags: [...tags, tag] };
}

export function removeTag(tags: readonly string[], tag: string): string[] {
  return tags.filter((t) => t !== tag);
}

export type ValidatedNote = { ok: true; note: NoteDraft } | { ok: false; error: string };

/** Title required after trimming; title and content are saved trimmed. */
export function validateNote(draft: NoteDraft): ValidatedNote {
  const title = draft.title.trim();
  if (!title) return { ok: false, error: NOTE_MESSAGES.titleRequired };
  return { ok: true, note: { title, content: draft.content.trim(), tags: [...draft.tags] } };
}

/** Unsaved changes: the title, content or tags differ from what the dialog opened with. */
export function isDirty(initial: NoteDraft, current: NoteDraft): boolean {
  return (
    initial.title !== current.title ||
    initial.content !== current.content ||
    initial.tags.length !== current.tags.length ||
    initial.tags.some((t, i) => t !== current.tags[i])
  );
}
