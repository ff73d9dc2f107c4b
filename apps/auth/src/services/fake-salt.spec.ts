import { createHmac } from 'node:crypto';
import { fakeSalt, unknownIdentifierSubject } from './fake-salt';

const SECRET = 's'.repeat(40);

describe('prelogin fake salt', () => {
  it('is the first 16 bytes of HMAC-SHA256(server secret, lowercased identifier), hex', () => {
    const expected = createHmac('sha256', SECRET).update('nobody@example.com').digest().subarray(0, 16);
    expect(fakeSalt(SECRET, 'Nobody@Example.com')).toBe(expected.toString('hex'));
  });

  it('looks like a real salt: 32 lowercase hex characters', () => {
    expect(fakeSalt(SECRET, 'ghost')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is stable across calls and ignores case and surrounding spaces', () => {
    expect(fakeSalt(SECRET, 'Ghost')).toBe(fakeSalt(SECRET, 'ghost'));
    expect(fakeSalt(SECRET, ' ghost ')).toBe(fakeSalt(SECRET, 'ghost'));
  });

  it('differs per identifier and per server secret', () => {
    expect(fakeSalt(SECRET, 'ghost')).not.toBe(fakeSalt(SECRET, 'ghost2'));
    expect(fakeSalt(SECRET, 'ghost')).not.toBe(fakeSalt('t'.repeat(40), 'ghost'));
  });

  it('derives a lockout subject for unknown identifiers that is unrelated to the fake salt', () => {
    const subject = unknownIdentifierSubject(SECRET, 'Ghost');
    expect(subject).toMatch(/^x:[0-9a-f]{32}$/);
    expect(subject).toBe(unknownIdentifierSubject(SECRET, 'ghost'));
    expect(subject).not.toContain(fakeSalt(SECRET, 'ghost'));
    expect(subject).not.toContain('ghost');
  });
});
