import {
  ErrorCode,
  NOTE_BATCH_MAX_BYTES,
  NOTE_MAX_BYTES,
  NOTE_MESSAGES,
  sealedNoteBytes,
  VaultError,
} from '@vault/contracts';
import { NoteBatchSizePipe, NoteSizePipe } from './note-size.pipe';

const tail = `:${'0'.repeat(24)}`;
const fields = { title: `ab${tail}`, tags: [`cd${tail}`], wrappedDEK: `${'1'.repeat(96)}:${'2'.repeat(24)}` };
const withTotal = (total: number) => {
  const fixed = sealedNoteBytes({ ...fields, content: '' });
  return { ...fields, content: `${'a'.repeat(total - fixed - tail.length)}${tail}` };
};

describe(NoteSizePipe.name, () => {
  const pipe = new NoteSizePipe();

  it('passes a sealed note of exactly 1 MiB through unchanged', () => {
    const body = withTotal(NOTE_MAX_BYTES);
    expect(sealedNoteBytes(body)).toBe(NOTE_MAX_BYTES);
    expect(pipe.transform(body)).toBe(body);
  });

  it('answers 413 PAYLOAD_TOO_LARGE one byte over, with the limit', () => {
    const body = withTotal(NOTE_MAX_BYTES + 1);
    let error: unknown;
    try {
      pipe.transform(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VaultError);
    expect({ code: (error as VaultError).code, status: (error as VaultError).status }).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      status: 413,
    });
    expect((error as VaultError).extra).toEqual({ maxBytes: NOTE_MAX_BYTES });
  });
});

describe(NoteBatchSizePipe.name, () => {
  const pipe = new NoteBatchSizePipe();
  const ids = ['3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7b', '3f2b8c1e-9d4a-4e6f-8a1b-2c3d4e5f6a7c'];
  const batch = (...totals: number[]) => ({
    notes: totals.map((total, i) => ({ id: ids[i]!, ...withTotal(total) })),
  });
  const failure = (body: ReturnType<typeof batch>) => {
    try {
      pipe.transform(body);
    } catch (e) {
      const error = e as VaultError;
      return { code: error.code, status: error.status, message: error.message, extra: error.extra };
    }
    return undefined;
  };

  it('passes notes that add up to exactly the batch limit through unchanged', () => {
    const body = batch(NOTE_BATCH_MAX_BYTES / 2, NOTE_BATCH_MAX_BYTES / 2);
    expect(pipe.transform(body)).toBe(body);
  });

  it('answers the single create’s 413 when one note is over 1 MiB', () => {
    expect(failure(batch(1000, NOTE_MAX_BYTES + 1))).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      status: 413,
      message: NOTE_MESSAGES.tooLarge,
      extra: { maxBytes: NOTE_MAX_BYTES },
    });
  });

  it('answers 413 with the batch limit one byte over it', () => {
    expect(failure(batch(NOTE_BATCH_MAX_BYTES / 2, NOTE_BATCH_MAX_BYTES / 2 + 1))).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      status: 413,
      message: NOTE_MESSAGES.batchTooLarge,
      extra: { maxBytes: NOTE_BATCH_MAX_BYTES },
    });
  });
});
