import { hostnameOf, isSecureCookie, refreshCookieOptions } from './refresh-cookie';

describe('refresh cookie options', () => {
  it('are HttpOnly, SameSite=Strict and scoped to /api/auth, with Max-Age from the grant', () => {
    expect(refreshCookieOptions('auto', 'vault.example.com', 2_592_000)).toEqual({
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'strict',
      secure: true,
      maxAge: 2_592_000,
    });
  });

  it.each([
    'localhost',
    'localhost:8080',
    '127.0.0.1',
    '127.0.0.1:8080',
    '[::1]',
    '[::1]:8080',
    'LOCALHOST:3000',
  ])('are not Secure on the local host %s in auto mode', (host) => {
    expect(refreshCookieOptions('auto', host).secure).toBe(false);
  });

  it.each([
    'vault.example.com',
    'vault.example.com:443',
    '10.0.0.5:8080',
    'localhost.evil.com',
    '[2001:db8::1]:8080',
  ])('are Secure on %s in auto mode', (host) => {
    expect(isSecureCookie('auto', host)).toBe(true);
  });

  it('are Secure when the Host header is missing in auto mode', () => {
    expect(isSecureCookie('auto', undefined)).toBe(true);
  });

  it('follow COOKIE_SECURE=always and never whatever the host', () => {
    expect(isSecureCookie('always', 'localhost:8080')).toBe(true);
    expect(isSecureCookie('never', 'vault.example.com')).toBe(false);
  });

  it('omit Max-Age when no grant says how long', () => {
    expect(refreshCookieOptions('auto', 'localhost')).not.toHaveProperty('maxAge');
  });
});

describe('hostnameOf', () => {
  it('strips the port and keeps IPv6 brackets', () => {
    expect(hostnameOf('Example.com:8080')).toBe('example.com');
    expect(hostnameOf('[::1]:8080')).toBe('[::1]');
    expect(hostnameOf('')).toBe('');
  });
});
