import type { PipeTransform } from '@nestjs/common';
import {
  ErrorCode,
  NOTE_BATCH_MAX_BYTES,
  NOTE_MAX_BYTES,
  NOTE_MESSAGES,
  sealedBatchBytes,
  sealedNoteBytes,
  VaultError,
  type CreateNoteBatchBody,
  type UpdateNoteBody,
} from '@vault/contracts';

/**
 * Runs after the contract schema: a sealed note over NOTE_MAX_BYTES in total answers 413 at
 * the edge (docs/api.md "Conventions"), before it travels over RPC. The notes service
 * checks it again; checking here as well means a body that the HTTP limit lets through meets
 * the contract's 413, never a transport's message limit (NATS max_payload).
 */
export class NoteSizePipe implements PipeTransform<UpdateNoteBody, UpdateNoteBody> {
  transform(body: UpdateNoteBody): UpdateNoteBody {
    if (sealedNoteBytes(body) > NOTE_MAX_BYTES) {
      throw new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, NOTE_MESSAGES.tooLarge, { maxBytes: NOTE_MAX_BYTES });
    }
    return body;
  }
}

export const noteSizePipe = (): NoteSizePipe => new NoteSizePipe();

/**
 * The same for `POST /api/notes/batch`: any one note over NOTE_MAX_BYTES answers the single
 * create's 413; then the notes together may hold at most NOTE_BATCH_MAX_BYTES, so that one
 * batch is never bigger on the transport than one note may be.
 */
export class NoteBatchSizePipe implements PipeTransform<CreateNoteBatchBody, CreateNoteBatchBody> {
  private readonly note = new NoteSizePipe();

  transform(body: CreateNoteBatchBody): CreateNoteBatchBody {
    for (const note of body.notes) this.note.transform(note);
    if (sealedBatchBytes(body.notes) > NOTE_BATCH_MAX_BYTES) {
      throw new VaultError(ErrorCode.PAYLOAD_TOO_LARGE, NOTE_MESSAGES.batchTooLarge, {
        maxBytes: NOTE_BATCH_MAX_BYTES,
      });
    }
    return body;
  }
}

export const noteBatchSizePipe = (): NoteBatchSizePipe => new NoteBatchSizePipe();
