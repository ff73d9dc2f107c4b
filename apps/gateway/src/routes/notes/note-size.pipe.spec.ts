import { ErrorCode, NOTE_MAX_BYTES, sealedNoteBytes, VaultError } from '@vault/contracts';
import { NoteSizePipe } from './note-size.pipe';

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
