import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ByteLimit, ByteWindow } from './streams';

async function collect(source: Buffer[], transform: ByteLimit | ByteWindow): Promise<Buffer> {
  const out: Buffer[] = [];
  await pipeline(Readable.from(source), transform, async (stream: AsyncIterable<Buffer>) => {
    for await (const chunk of stream) out.push(chunk);
  });
  return Buffer.concat(out);
}

describe(ByteLimit.name, () => {
  it('passes up to maxBytes and counts them', async () => {
    const limit = new ByteLimit(6);
    expect((await collect([Buffer.from('abc'), Buffer.from('def')], limit)).toString()).toBe('abcdef');
    expect(limit.bytes).toBe(6);
  });

  it('fails with FILE_TOO_LARGE before passing the chunk that crosses, after telling onLimit', async () => {
    const onLimit = jest.fn();
    const limit = new ByteLimit(5, onLimit);
    const out: Buffer[] = [];
    await expect(
      pipeline(
        Readable.from([Buffer.from('abc'), Buffer.from('def')]),
        limit,
        async (s: AsyncIterable<Buffer>) => {
          for await (const chunk of s) out.push(chunk);
        },
      ),
    ).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(Buffer.concat(out).toString()).not.toContain('d'); // the crossing chunk never passes
    expect(onLimit).toHaveBeenCalledTimes(1);
    expect(limit.exceeded).toBe(true);
  });
});

describe(ByteWindow.name, () => {
  const chunks = ['0123', '4567', '89ab', 'cdef'].map((s) => Buffer.from(s));
  it.each([
    [0, 1, '0'],
    [3, 2, '34'],
    [2, 9, '23456789a'],
    [5, 100, '56789abcdef'],
    [15, 1, 'f'],
    [16, 4, ''],
  ])('skips %i and passes %i bytes', async (skip, length, expected) => {
    expect((await collect(chunks, new ByteWindow(skip, length))).toString()).toBe(expected);
  });
});
