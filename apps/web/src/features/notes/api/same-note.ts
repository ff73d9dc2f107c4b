import type { NoteDto } from '@vault/contracts';
import { ApiError } from '../../../lib/api-error';
import type { SealedNoteFields } from '../../../workers/notes-messages';

/** A create's or an update's answer that is not the note sent (docs/threat-model.md, a hostile server). */
export const NOTE_ANSWER_MISMATCH =
  'The server answered with another note than the one sent, so its answer was refused.';

/**
 * The server's answer to a create or an update, checked to be the note that was sent: the same id
 * and the same sealed fields. The vault shows the plaintext typed here under the answer's id, so an
 * answer naming another note would put this text on that note's card (and the next edit would seal
 * it under that note's key); it is refused instead, as a 502.
 */
export function requireSameNote(sent: SealedNoteFields, saved: NoteDto): NoteDto {
  const same =
    saved.id === sent.id &&
    saved.title === sent.title &&
    saved.content === sent.content &&
    saved.wrappedDEK === sent.wrappedDEK &&
    saved.tags.length === sent.tags.length &&
    saved.tags.every((tag, i) => tag === sent.tags[i]);
  if (!same) throw new ApiError(502, NOTE_ANSWER_MISMATCH);
  return saved;
}
