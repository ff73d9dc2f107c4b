import { identifierKey, normalizePhone, toIdentifierLookup } from './identifier';

describe('sign-in identifiers', () => {
  it.each([
    ['+1 (555) 0100', '+15550100'],
    ['555-0100', '5550100'],
    ['  +44 20 7946 0958 ', '+442079460958'],
  ])('normalises the phone %p to %p', (input, normalized) => {
    expect(normalizePhone(input)).toBe(normalized);
  });

  it('reads an identifier with @ as an e-mail address, lowercased and trimmed', () => {
    expect(toIdentifierLookup('  Alice@Example.COM ')).toEqual({ kind: 'email', value: 'alice@example.com' });
  });

  it('reads digits and phone punctuation as a phone number in its normal form, never as a username', () => {
    expect(toIdentifierLookup('+1 555 0100')).toEqual({ kind: 'phone', value: '+15550100' });
    expect(toIdentifierLookup('5558168859')).toEqual({ kind: 'phone', value: '5558168859' });
    expect(toIdentifierLookup('555-816-8859')).toEqual({ kind: 'phone', value: '5558168859' });
    expect(toIdentifierLookup('(555) 816 8859')).toEqual({ kind: 'phone', value: '5558168859' });
  });

  it('reads anything else as a username, lowercased', () => {
    expect(toIdentifierLookup(' Alice ')).toEqual({ kind: 'username', value: 'alice' });
    expect(toIdentifierLookup('bob.555')).toEqual({ kind: 'username', value: 'bob.555' });
    // No digit: not a phone number.
    expect(toIdentifierLookup('()')).toEqual({ kind: 'username', value: '()' });
  });

  it('gives two spellings of one phone number one key, and keeps phones apart from usernames', () => {
    const a = identifierKey(toIdentifierLookup('555-816-8859'));
    expect(identifierKey(toIdentifierLookup('5558168859'))).toBe(a);
    expect(identifierKey(toIdentifierLookup('(555) 816 8859'))).toBe(a);
    expect(identifierKey(toIdentifierLookup('Alice'))).toBe('alice');
    expect(a).not.toBe('5558168859');
  });
});
