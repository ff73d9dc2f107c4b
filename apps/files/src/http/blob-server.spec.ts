import { ErrorCode, VaultError } from '@vault/contracts';
import { parseContentRange } from './blob-server';

function refusal(header: string): VaultError {
  try {
    parseContentRange(header);
  } catch (error) {
    if (error instanceof VaultError) return error;
    throw error;
  }
  throw new Error(`${header} was accepted`);
}

describe(parseContentRange.name, () => {
  it('reads an inclusive part range with its total', () => {
    expect(parseContentRange('bytes 0-99/1000')).toEqual({ first: 0, last: 99, total: 1000 });
    expect(parseContentRange('bytes 999-999/1000')).toEqual({ first: 999, last: 999, total: 1000 });
    expect(parseContentRange(' bytes 5-9/10 ')).toEqual({ first: 5, last: 9, total: 10 });
  });

  it.each([
    'bytes 0-99',
    'bytes */1000',
    'bytes 0-99/*',
    'bytes=0-99/1000',
    'bytes -1-99/1000',
    'items 0-99/1000',
    'bytes 0-99/1000, bytes 100-199/1000',
    `bytes 0-1/${'9'.repeat(16)}`,
  ])('refuses %s as malformed', (header) => {
    expect(refusal(header)).toMatchObject({ code: ErrorCode.VALIDATION_FAILED });
    expect(refusal(header).message).toContain('Content-Range');
  });

  it('refuses first after last, and last at or past the total', () => {
    expect(refusal('bytes 10-9/100').code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(refusal('bytes 0-100/100').code).toBe(ErrorCode.VALIDATION_FAILED);
    expect(refusal('bytes 0-0/0').code).toBe(ErrorCode.VALIDATION_FAILED);
  });
});
