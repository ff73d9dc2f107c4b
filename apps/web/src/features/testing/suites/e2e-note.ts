import { noteCountsResponseSchema, noteListResponseSchema, noteResponseSchema } from '@vault/contracts';
import { parseResponse } from '../../../lib/parse-response';
import type { TestingContext } from '../model/context';
import type { CheckOutcome } from '../model/suite';
import { passed, throwIfAborted } from './check-helpers';
import { StepFailed, canary, expectGone, getParsed, step, withTemporaryItem } from './e2e-steps';

/**
 * A temporary note sealed exactly as the notes screens seal it (the notes Worker), stored, read
 * back, checked for the plaintext marker, decrypted, deleted for good, and checked gone.
 */
export async function noteRoundTrip(ctx: TestingContext): Promise<CheckOutcome> {
  const { signal } = ctx;
  return withTemporaryItem(ctx, 'notes', async (key, made) => {
    const before = await getParsed(ctx, '/notes/counts', noteCountsResponseSchema);
    const marker = canary();
    const plain = { title: `Test note ${marker}`, content: `Testing dashboard ${marker}`, tags: [marker] };
    const sealed = await step('Sealing the note', () => ctx.notesCrypto.encrypt(key, undefined, plain));
    throwIfAborted(signal);
    made.id = sealed.id;
    const noteId = sealed.id;
    await step('POST /api/notes', async () =>
      parseResponse(noteResponseSchema, await ctx.api.post<unknown>('/notes', sealed, { signal })),
    );
    ctx.log(`created ${noteId}`);
    const listed = await getParsed(ctx, '/notes?limit=5', noteListResponseSchema);
    const stored = listed.notes.find((n) => n.id === noteId);
    if (!stored) throw new StepFailed('The new note is not in the newest notes the server lists');
    if (JSON.stringify(stored).includes(marker)) {
      throw new StepFailed('Zero-knowledge canary: the stored note contains the plaintext marker');
    }
    ctx.log('the stored copy holds none of the plaintext');
    const [outcome] = await step('Decrypting the stored note', () =>
      ctx.notesCrypto.decryptBatch(key, [stored]),
    );
    throwIfAborted(signal);
    if (!outcome?.ok)
      throw new StepFailed(`The stored note does not decrypt: ${outcome?.error ?? 'no answer'}`);
    const back = outcome.note;
    if (
      back.title !== plain.title ||
      back.content !== plain.content ||
      back.tags.join() !== plain.tags.join()
    ) {
      throw new StepFailed('The decrypted note differs from what was sealed');
    }
    ctx.log('decrypted back to the same title, content and tags');
    await step(`DELETE /api/notes/{id}`, () => ctx.api.delete(`/notes/${noteId}`, { signal }));
    await step(`DELETE /api/notes/{id}/permanent`, () =>
      ctx.api.delete(`/notes/${noteId}/permanent`, { signal }),
    );
    // PUT .../key answers 404 only when no note of this id exists, active or in the trash.
    await expectGone('PUT /api/notes/{id}/key', () =>
      ctx.api.put(`/notes/${noteId}/key`, { wrappedDEK: sealed.wrappedDEK }, { signal }),
    );
    made.gone = true;
    const after = await getParsed(ctx, '/notes/counts', noteCountsResponseSchema);
    if (after.active !== before.active || after.deleted !== before.deleted) {
      throw new StepFailed(
        `Counts did not come back: active ${before.active} → ${after.active}, trash ${before.deleted} → ${after.deleted}`,
      );
    }
    return passed('created, read back, decrypted and deleted for good; nothing left, no plaintext stored');
  });
}
