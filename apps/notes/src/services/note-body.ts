import {
  ErrorCode,
  NOTE_BATCH_MAX_BYTES,
  NOTE_MAX_BYTES,
  NOTE_MESSAGES,
  sealedBatchBytes,
  sealedNoteBytes,
  VaultError,
  type CreateNoteBody,
  type UpdateNoteBody,
} from '@vault/contracts';
import { createHash } from 'node:crypto';
import type { SealedNoteFields } from '../repositories/notes.repository';

type SealedBody = Pick<CreateNoteBody, 'title' | 'content' | 'tags' | 'wrappedDEK'>;

/** A create request as hashed: the sealed fields, and an import's dates when it has them. */
type CreateRequest = SealedBody & { createdAt?: string | undefined; updatedAt?: string | undefined };

/** A date as stored and answered (to the millisecond), so two spellings of one instant hash alike. */
const storedDate = (iso: string): string => new Date(iso).toISOString();

/** A sealed note over 1 MiB in total answers 413 (docs/api.md "Conventions"). */
export function assertNoteSize(body: SealedBody): void {
  if (sealedNoteBytes(body) > NOTE_MAX_BYTES) {
    throw new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, NOTE_MESSAGES.tooLarge, {
      maxBytes: NOTE_MAX_BYTES,
    });
  }
}

/**
 * A batch answers 413 when any one of its notes is over 1 MiB (the single create's error, first),
 * or when its notes add up to more than NOTE_BATCH_MAX_BYTES.
 */
export function assertBatchSize(notes: readonly SealedBody[]): void {
  for (const note of notes) assertNoteSize(note);
  if (sealedBatchBytes(notes) > NOTE_BATCH_MAX_BYTES) {
    throw new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, NOTE_MESSAGES.batchTooLarge, {
      maxBytes: NOTE_BATCH_MAX_BYTES,
    });
  }
}

/**
 * SHA-256 of a create request's sealed fields (and of a batch note's dates, when given), stored
 * beside the note. A retry of the same request (same id, same body) hashes the same; a different
 * body (or other dates) under the same id does not. A request without dates hashes as it always
 * did. Field boundaries are unambiguous (a JSON array), so moving text between fields changes it.
 */
export function noteBodyHash(body: CreateRequest): string {
  const fields: unknown[] = [body.title, body.content, body.tags, body.wrappedDEK];
  if (body.createdAt !== undefined && body.updatedAt !== undefined) {
    fields.push(storedDate(body.createdAt), storedDate(body.updatedAt));
  }
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** True when `body` is the create request whose hash was stored. */
export function isSameCreateRequest(storedHash: string, body: CreateRequest): boolean {
  return storedHash === noteBodyHash(body);
}

export function sealedFields(body: CreateNoteBody | UpdateNoteBody): SealedNoteFields {
  return { title: body.title, content: body.content, tags: body.tags, wrappedDek: body.wrappedDEK };
}
