import { formatRefreshToken, hashRefreshToken, newRefreshToken, parseRefreshToken } from './refresh-token';

const SID = '3f2b8c1e-9d4a-4b6f-8e2d-1a2b3c4d5e6f';
const SECRET = 'A'.repeat(42) + 'g'; // 43 base64url characters = 32 bytes

describe('refresh tokens', () => {
  it('formats a token as "<sessionId>.<secret>" and parses it back', () => {
    const token = formatRefreshToken(SID, SECRET);
    expect(token).toBe(`${SID}.${SECRET}`);
    expect(parseRefreshToken(token)).toEqual({ sessionId: SID, secret: SECRET });
  });

  it('makes fresh tokens of 32 random bytes that parse and never repeat', () => {
    const a = newRefreshToken(SID);
    const b = newRefreshToken(SID);
    expect(a).not.toBe(b);
    expect(parseRefreshToken(a)?.sessionId).toBe(SID);
    expect(Buffer.from(parseRefreshToken(a)!.secret, 'base64url')).toHaveLength(32);
  });

  it.each([
    ['no dot', `${SID}${SECRET}`],
    ['an empty secret', `${SID}.`],
    ['a short secret', `${SID}.${SECRET.slice(1)}`],
    ['a long secret', `${SID}.${SECRET}A`],
    ['padding in the secret', `${SID}.${SECRET.slice(1)}=`],
    ['a second dot', `${SID}.${SECRET.slice(1)}.`],
    ['an uppercase session id', `${SID.toUpperCase()}.${SECRET}`],
    ['a session id that is not a v4 uuid', `3f2b8c1e-9d4a-1b6f-8e2d-1a2b3c4d5e6f.${SECRET}`],
    ['an empty string', ''],
    ['a huge string', 'x'.repeat(10_000)],
  ])('refuses a token with %s', (_label, token) => {
    expect(parseRefreshToken(token)).toBeNull();
  });

  it.each([undefined, null, 42, {}, ['a']])('refuses a non-string token (%p)', (value) => {
    expect(parseRefreshToken(value)).toBeNull();
  });

  it('stores only a SHA-256 hex digest of the whole token', () => {
    const token = formatRefreshToken(SID, SECRET);
    const hash = hashRefreshToken(token);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain(SECRET);
    expect(hashRefreshToken(token)).toBe(hash);
  });
});
