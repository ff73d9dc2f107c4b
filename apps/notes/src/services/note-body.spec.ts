import { ErrorCode, NOTE_BATCH_MAX_BYTES, NOTE_MAX_BYTES, NOTE_MESSAGES, VaultError } from '@vault/contracts';
import { createHash } from 'node:crypto';
import { assertBatchSize, assertNoteSize, isSameCreateRequest, noteBodyHash } from './note-body';

const sealed = (hexChars: number) => `${'ab'.repeat(hexChars / 2)}:${'0'.repeat(24)}`;
const body = {
  title: sealed(40),
  content: sealed(200),
  tags: [sealed(40)],
  wrappedDEK: `${'1'.repeat(96)}:${'2'.repeat(24)}`,
};
/** A body whose sealed fields add up to exactly `total` characters. */
const bodyOf = (total: number) => {
  const fixed = body.title.length + body.tags[0]!.length + body.wrappedDEK.length;
  const contentHex = total - fixed - 25;
  return { ...body, content: `${'c'.repeat(contentHex)}:${'0'.repeat(24)}` };
};

describe('note size check', () => {
  it('accepts a sealed note of exactly 1 MiB', () => {
    expect(() => assertNoteSize(bodyOf(NOTE_MAX_BYTES))).not.toThrow();
  });

  it('answers 413 PAYLOAD_TOO_LARGE one byte over 1 MiB', () => {
    let error: unknown;
    try {
      assertNoteSize(bodyOf(NOTE_MAX_BYTES + 1));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VaultError);
    expect((error as VaultError).code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    expect((error as VaultError).status).toBe(413);
  });
});

describe('batch size check', () => {
  const thrown = (run: () => void): VaultError | undefined => {
    try {
      run();
    } catch (e) {
      return e as VaultError;
    }
    return undefined;
  };

  it('accepts notes that add up to exactly the batch limit', () => {
    const half = NOTE_BATCH_MAX_BYTES / 2;
    expect(() => assertBatchSize([bodyOf(half), bodyOf(half)])).not.toThrow();
  });

  it('answers the single create’s 413 when one note is over 1 MiB', () => {
    const error = thrown(() => assertBatchSize([body, bodyOf(NOTE_MAX_BYTES + 1)]));
    expect({ code: error?.code, message: error?.message, extra: error?.extra }).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: NOTE_MESSAGES.tooLarge,
      extra: { maxBytes: NOTE_MAX_BYTES },
    });
  });

  it('answers 413 with the batch limit when the notes add up to more', () => {
    const half = NOTE_BATCH_MAX_BYTES / 2;
    const error = thrown(() => assertBatchSize([bodyOf(half), bodyOf(half + 1)]));
    expect({ code: error?.code, message: error?.message, extra: error?.extra }).toEqual({
      code: ErrorCode.PAYLOAD_TOO_LARGE,
      message: NOTE_MESSAGES.batchTooLarge,
      extra: { maxBytes: NOTE_BATCH_MAX_BYTES },
    });
  });
});

describe('idempotent create comparison', () => {
  it('matches a retry of the same request', () => {
    expect(isSameCreateRequest(noteBodyHash(body), { ...body, tags: [...body.tags] })).toBe(true);
  });

  it.each([
    ['title', { title: sealed(42) }],
    ['content', { content: sealed(202) }],
    ['tags', { tags: [] }],
    ['wrappedDEK', { wrappedDEK: `${'3'.repeat(96)}:${'2'.repeat(24)}` }],
  ])('tells a different %s apart', (_field, change) => {
    expect(isSameCreateRequest(noteBodyHash(body), { ...body, ...change })).toBe(false);
  });

  it('tells text moved from one field to the next apart', () => {
    const a = { ...body, title: 'aa:' + '0'.repeat(24), content: 'bbbb:' + '0'.repeat(24) };
    const b = { ...body, title: 'aabb:' + '0'.repeat(24), content: 'bb:' + '0'.repeat(24) };
    expect(noteBodyHash(a)).not.toBe(noteBodyHash(b));
  });

  it('tells other dates of an import apart, and one instant spelled two ways alike', () => {
    const dated = { ...body, createdAt: '2021-01-01T09:00:00.000Z', updatedAt: '2021-02-01T09:00:00.000Z' };
    expect(isSameCreateRequest(noteBodyHash(dated), { ...dated })).toBe(true);
    expect(
      isSameCreateRequest(noteBodyHash(dated), {
        ...dated,
        createdAt: '2021-01-01T10:00:00+01:00',
        updatedAt: '2021-02-01T09:00:00Z',
      }),
    ).toBe(true);
    expect(
      isSameCreateRequest(noteBodyHash(dated), { ...dated, updatedAt: '2021-02-01T09:00:00.001Z' }),
    ).toBe(false);
    expect(isSameCreateRequest(noteBodyHash(dated), body)).toBe(false);
  });

  it('hashes a request without dates as before the dates existed', () => {
    expect(noteBodyHash(body)).toBe(
      createHash('sha256')
        .update(JSON.stringify([body.title, body.content, body.tags, body.wrappedDEK]))
        .digest('hex'),
    );
  });

  it('is a SHA-256 in hex', () => {
    expect(noteBodyHash(body)).toMatch(/^[0-9a-f]{64}$/);
  });
});
