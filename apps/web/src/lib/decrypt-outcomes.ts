/** An item of a batch the crypto worker could not decrypt. */
export interface FailedOutcome {
  id: string;
  ok: false;
  error: string;
}

/**
 * The worker's outcomes for `batch`; when the worker itself fails, every item of the batch is
 * failed with that message, and the items of other batches go on.
 */
export async function outcomesOrFailed<O>(
  batch: readonly { id: string }[],
  decrypt: () => Promise<O[]>,
): Promise<Array<O | FailedOutcome>> {
  try {
    return await decrypt();
  } catch (error) {
    const message = error instanceof Error ? error.message : 'Decryption failed';
    return batch.map((item) => ({ id: item.id, ok: false as const, error: message }));
  }
}
