import { TEST_RUNNER_LIMITS } from '@vault/contracts';
import { cleanLine, LineSplitter } from './output-lines';

describe('test run output lines', () => {
  it('strips colours, cursor moves, OSC links and other control characters, keeping tabs', () => {
    expect(cleanLine('\u001b[1m\u001b[32mPASS\u001b[39m\u001b[22m unit a.spec.ts')).toBe(
      'PASS unit a.spec.ts',
    );
    expect(cleanLine('\u001b[2K\u001b[1Gdone\r')).toBe('done');
    expect(cleanLine('\u001b]8;;https://example.org\u0007link\u001b]8;;\u0007')).toBe('link');
    expect(cleanLine('a\tb\u0000c\u0007d\u007f')).toBe('a\tbcd');
  });

  it('cuts a line at lineCharsMax characters, never inside a surrogate pair', () => {
    const long = 'x'.repeat(TEST_RUNNER_LIMITS.lineCharsMax + 50);
    expect(cleanLine(long)).toHaveLength(TEST_RUNNER_LIMITS.lineCharsMax);
    expect(cleanLine(`abc😀`, 4)).toBe('abc');
    expect(cleanLine(`ab😀`, 4)).toBe('ab😀');
    // Escapes do not count toward the limit.
    expect(cleanLine(`\u001b[31m${'y'.repeat(10)}\u001b[0m`, 10)).toBe('y'.repeat(10));
  });

  it('splits chunks into lines across chunk boundaries and ends with the unterminated last line', () => {
    const splitter = new LineSplitter();
    expect(splitter.push('one\ntw')).toEqual(['one']);
    expect(splitter.push('o\r\nthree\n\n')).toEqual(['two', 'three', '']);
    expect(splitter.push('\u001b[31mfour')).toEqual([]);
    expect(splitter.end()).toEqual(['four']);
    expect(splitter.end()).toEqual([]);
  });

  it('does not keep an endless line in memory: the rest is skipped until its newline', () => {
    const splitter = new LineSplitter(10);
    for (let i = 0; i < 1_000; i += 1) expect(splitter.push('z'.repeat(100))).toEqual([]);
    expect((splitter as unknown as { partial: string }).partial.length).toBeLessThanOrEqual(40);
    expect(splitter.push('zzz\nnext\n')).toEqual(['z'.repeat(10), 'next']);
  });
});
