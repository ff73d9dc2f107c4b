import { safeLine } from './safe-text';

describe(safeLine.name, () => {
  const opts = { max: 60, fallback: 'Scan failed' };

  it('keeps the first line of a plain failure text', () => {
    expect(safeLine('Stored object not found\n    at read (x.js:1)', opts)).toBe('Stored object not found');
  });

  it('elides fingerprints, base64 runs and URL queries, and masks the given secrets', () => {
    const text = `GET http://s3/b/k?X-Amz-Signature=abc fp ${'ab'.repeat(32)} tok ${'Zm9v'.repeat(12)} key s3cr3t-key`;
    expect(safeLine(text, { ...opts, max: 200, secrets: ['s3cr3t-key'] })).toBe(
      'GET http://s3/b/k?… fp … tok … key ****',
    );
  });

  it('keeps object keys (owner/file ids) and cuts the line at max', () => {
    const key = '1b4e28ba-2fa1-41d2-883f-0016d3cca427/6c84fb90-12c4-41d2-883f-0016d3cca427';
    expect(safeLine(`Object ${key} failed`, { ...opts, max: 200 })).toBe(`Object ${key} failed`);
    expect(safeLine('word '.repeat(30), opts)).toHaveLength(60);
  });

  it('answers the fallback for an empty text', () => {
    expect(safeLine(null, opts)).toBe('Scan failed');
    expect(safeLine('  \nsecond line', opts)).toBe('Scan failed');
  });
});
