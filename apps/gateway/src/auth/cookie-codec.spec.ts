import { parseCookieHeader, serializeCookie } from './cookie-codec';

describe('parseCookieHeader', () => {
  it('reads name=value pairs, trimming spaces and decoding values', () => {
    expect(parseCookieHeader('a=1; vault_refresh=abc%2Fdef ; b="q"')).toEqual({
      a: '1',
      vault_refresh: 'abc/def',
      b: 'q',
    });
  });

  it('keeps the first of duplicate names and skips malformed parts', () => {
    expect(parseCookieHeader('x=1; x=2; junk; =v; bad name=3')).toEqual({ x: '1' });
  });

  it('survives bad percent-encoding and an absent header', () => {
    expect(parseCookieHeader('x=%E0%A4%A')).toEqual({ x: '%E0%A4%A' });
    expect(parseCookieHeader(undefined)).toEqual({});
  });

  it('does not let a cookie named __proto__ touch the prototype', () => {
    const parsed = parseCookieHeader('__proto__=1; constructor=2');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });
});

describe('serializeCookie', () => {
  it('writes every attribute of the refresh cookie', () => {
    expect(
      serializeCookie('vault_refresh', 'tok/en', {
        path: '/api/auth',
        httpOnly: true,
        sameSite: 'strict',
        secure: true,
        maxAge: 600.9,
      }),
    ).toBe('vault_refresh=tok%2Fen; Path=/api/auth; Max-Age=600; HttpOnly; Secure; SameSite=Strict');
  });

  it('writes an expired cookie to clear it', () => {
    expect(
      serializeCookie('vault_refresh', '', {
        path: '/api/auth',
        httpOnly: true,
        sameSite: 'strict',
        secure: false,
        maxAge: 0,
        expires: new Date(0),
      }),
    ).toBe(
      'vault_refresh=; Path=/api/auth; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; HttpOnly; SameSite=Strict',
    );
  });

  it('refuses a name that would break the header', () => {
    expect(() =>
      serializeCookie('a;b', 'v', { path: '/', httpOnly: true, sameSite: 'strict', secure: true }),
    ).toThrow(TypeError);
  });
});
