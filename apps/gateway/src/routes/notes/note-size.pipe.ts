import type { PipeTransform } from '@nestjs/common';
import {
  ErrorCode,
  NOTE_MAX_BYTES,
  NOTE_MESSAGES,
  sealedNoteBytes,
  VaultError,
  type UpdateNoteBody,
} from '@vault/contracts';

/**
 * Runs after the contract schema: a sealed note over NOTE_MAX_BYTES in total answers 413 at
 * the edge (api-contract.md "Notes service"), before it travels over RPC. The notes service
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
