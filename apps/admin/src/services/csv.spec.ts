import { csvCell, csvDocument } from './csv';

describe('CSV (RFC 4180, formula-safe)', () => {
  it('leaves plain cells as they are and writes empty cells for null', () => {
    expect(csvCell('login_success')).toBe('login_success');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes, CR and LF and doubles the quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('cr\rhere')).toBe('"cr\rhere"');
  });

  it.each(['=1+1', '+1', '-2', '@SUM(A1)', '\tcmd', '\rcmd'])(
    'neutralises the formula start of %j',
    (cell) => {
      const written = csvCell(cell);
      expect(written.replace(/^"/, '').startsWith(`'${cell[0]}`)).toBe(true);
    },
  );

  it('neutralises and quotes together (a formula with a comma)', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
  });

  it('writes a header row and CRLF after every record', () => {
    expect(
      csvDocument(
        ['a', 'b'],
        [
          ['1', 'x,y'],
          [null, '=2'],
        ],
      ),
    ).toBe(`a,b\r\n1,"x,y"\r\n,'=2\r\n`);
  });
});
