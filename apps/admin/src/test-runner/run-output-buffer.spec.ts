import { TEST_RUNNER_LIMITS } from '@vault/contracts';
import { RunOutputBuffer } from './run-output-buffer';

describe('a run output buffer', () => {
  it('writes batches in order, keeps outputLinesMax lines and counts the rest as dropped', async () => {
    const batches: Array<{ lines: readonly string[]; dropped: number }> = [];
    const buffer = new RunOutputBuffer(
      async (lines, dropped) => {
        // A slow first write must not let the next batch overtake it.
        if (batches.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
        batches.push({ lines, dropped });
      },
      (error) => {
        throw error;
      },
      1_000,
    );
    const total = TEST_RUNNER_LIMITS.outputLinesMax + 7;
    for (let i = 0; i < total; i += 1) buffer.add(`line ${i}`);
    await buffer.drain();
    const lines = batches.flatMap((b) => b.lines);
    expect(lines).toEqual(Array.from({ length: TEST_RUNNER_LIMITS.outputLinesMax }, (_, i) => `line ${i}`));
    expect(batches.reduce((sum, b) => sum + b.dropped, 0)).toBe(7);
    expect(batches.every((b) => b.lines.length <= 1_000)).toBe(true);
    // Nothing new: nothing written.
    const count = batches.length;
    buffer.flush();
    await buffer.drain();
    expect(batches).toHaveLength(count);
  });

  it('reports a failed write and goes on with the next batch', async () => {
    const errors: unknown[] = [];
    const written: string[] = [];
    let fail = true;
    const buffer = new RunOutputBuffer(
      async (lines) => {
        if (fail) {
          fail = false;
          throw new Error('Redis down');
        }
        written.push(...lines);
      },
      (error) => errors.push(error),
    );
    buffer.add('lost');
    buffer.flush();
    buffer.add('kept');
    await buffer.drain();
    expect(written).toEqual(['kept']);
    expect(errors).toHaveLength(1);
  });
});
