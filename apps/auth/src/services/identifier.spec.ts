import {
  normalizePhone,
  pickIdentifierMatch,
  toIdentifierLookup,
  type IdentifierCandidate,
} from './identifier';

const alice: IdentifierCandidate & { id: string } = {
  id: 'alice',
  usernameLower: 'alice',
  email: 'alice@example.com',
  phoneNormalized: '+15550100',
};
const bob: IdentifierCandidate & { id: string } = {
  id: 'bob',
  usernameLower: '15550100',
  email: 'bob@example.com',
  phoneNormalized: '5550199',
};

describe('sign-in identifiers', () => {
  it.each([
    ['+1 (555) 0100', '+15550100'],
    ['555-0100', '5550100'],
    ['  +44 20 7946 0958 ', '+442079460958'],
  ])('normalises the phone %p to %p', (input, normalized) => {
    expect(normalizePhone(input)).toBe(normalized);
  });

  it('lowercases and trims the identifier', () => {
    expect(toIdentifierLookup('  Alice@Example.COM ')).toEqual({ lower: 'alice@example.com', phone: null });
  });

  it('reads a phone-shaped identifier as a phone too', () => {
    expect(toIdentifierLookup('+1 555 0100')).toEqual({ lower: '+1 555 0100', phone: '+15550100' });
    expect(toIdentifierLookup('alice').phone).toBeNull();
    expect(toIdentifierLookup('()').phone).toBeNull();
  });

  it('finds an account by username or e-mail, whatever the case', () => {
    expect(pickIdentifierMatch([alice, bob], toIdentifierLookup('ALICE'))?.id).toBe('alice');
    expect(pickIdentifierMatch([alice, bob], toIdentifierLookup('Bob@Example.com'))?.id).toBe('bob');
  });

  it('prefers a username match over a phone match', () => {
    const lookup = toIdentifierLookup('15550100');
    expect(pickIdentifierMatch([alice, bob], lookup)?.id).toBe('bob');
  });

  it('finds an account by phone only when exactly one account has that number', () => {
    expect(pickIdentifierMatch([alice], toIdentifierLookup('+1 555-0100'))?.id).toBe('alice');
    const twin = { ...alice, id: 'twin', usernameLower: 'twin', email: 'twin@example.com' };
    expect(pickIdentifierMatch([alice, twin], toIdentifierLookup('+1 555-0100'))).toBeUndefined();
  });

  it('finds nothing for an identifier no candidate carries', () => {
    expect(pickIdentifierMatch([alice, bob], toIdentifierLookup('carol'))).toBeUndefined();
  });
});
