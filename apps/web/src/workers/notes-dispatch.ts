import { cryptoErrorCode } from './crypto-service';
import type { NotesWorkerRequest, NotesWorkerResponse, NotesWorkerResult } from './notes-messages';
import { decryptBatch, encryptNewNote, openBackup, reencryptNote, sealBackup } from './notes-ops';

/** Runs one request and turns any failure into `{code, message}` (errors do not clone well). */
export async function handleNotesRequest(req: NotesWorkerRequest): Promise<NotesWorkerResponse> {
  try {
    let result: NotesWorkerResult;
    switch (req.op) {
      case 'decrypt':
        result = await decryptBatch(req.key, req.notes);
        break;
      case 'encrypt':
        result = await encryptNewNote(req.key, req.noteId, req.plain);
        break;
      case 'update':
        result = await reencryptNote(req.key, req.note, req.plain);
        break;
      case 'sealBackup':
        result = await sealBackup(req.password, req.json, req.kdfParams);
        break;
      case 'openBackup':
        result = await openBackup(req.password, req.envelope);
        break;
      default:
        throw new Error('Unknown notes operation');
    }
    return { id: req.id, ok: true, result };
  } catch (error) {
    return {
      id: req.id,
      ok: false,
      error: {
        code: cryptoErrorCode(error) ?? 'INTERNAL',
        message: error instanceof Error ? error.message : 'Notes crypto operation failed',
      },
    };
  }
}
