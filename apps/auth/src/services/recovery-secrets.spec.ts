import {
  answerNotBefore,
  emailSubject,
  hashBypassToken,
  hashRecoveryCode,
  newBypassToken,
  newRecoveryCode,
  openMailJobSecret,
  sealForMailJob,
} from './recovery-secrets';

const SECRET = 'a'.repeat(64);

describe('recovery secrets', () => {
  it('draws 6-digit codes, zero-padded, spread over the whole range', () => {
    const codes = Array.from({ length: 2000 }, () => newRecoveryCode());
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    // 2000 draws from 10^6 values: a handful of collisions at most, and both halves are hit.
    expect(new Set(codes).size).toBeGreaterThan(1990);
    expect(codes.some((c) => c < '500000')).toBe(true);
    expect(codes.some((c) => c >= '500000')).toBe(true);
  });

  it('hashes a code per account and per server secret, never as the code itself', () => {
    const h = hashRecoveryCode(SECRET, 'user-1', '123456');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain('123456');
    expect(hashRecoveryCode(SECRET, 'user-1', '123456')).toBe(h);
    expect(hashRecoveryCode(SECRET, 'user-2', '123456')).not.toBe(h);
    expect(hashRecoveryCode('b'.repeat(64), 'user-1', '123456')).not.toBe(h);
    expect(hashRecoveryCode(SECRET, 'user-1', '123457')).not.toBe(h);
  });

  it('makes 256-bit url-safe bypass tokens and keys them by SHA-256', () => {
    const a = newBypassToken();
    const b = newBypassToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(hashBypassToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashBypassToken(a)).toBe(hashBypassToken(a));
    expect(hashBypassToken(a)).not.toBe(hashBypassToken(b));
  });

  it('names an address by an HMAC that ignores case and surrounding spaces', () => {
    const s = emailSubject(SECRET, 'Alice@Example.com ');
    expect(s).toBe(emailSubject(SECRET, 'alice@example.com'));
    expect(s).toMatch(/^[0-9a-f]{32}$/);
    expect(s).not.toBe(emailSubject('b'.repeat(64), 'alice@example.com'));
  });

  it('seals a mail job secret so that only the same server secret opens it', () => {
    const sealed = sealForMailJob(SECRET, '042917');
    expect(sealed).toMatch(/^[0-9a-f]+:[0-9a-f]{24}$/);
    expect(sealed).not.toContain('042917');
    expect(sealForMailJob(SECRET, '042917')).not.toBe(sealed);
    expect(openMailJobSecret(SECRET, sealed)).toBe('042917');
    expect(() => openMailJobSecret('b'.repeat(64), sealed)).toThrow();
    const [body, iv] = sealed.split(':');
    const flipped = `${body!.slice(0, -1)}${body!.endsWith('0') ? '1' : '0'}:${iv}`;
    expect(() => openMailJobSecret(SECRET, flipped)).toThrow();
    expect(() => openMailJobSecret(SECRET, 'nonsense')).toThrow('Malformed sealed value');
  });

  it('waits until the floor, and not at all once past it', async () => {
    const t0 = Date.now();
    await answerNotBefore(t0, 60);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(58);
    const t1 = Date.now();
    await answerNotBefore(t1 - 1000, 60);
    expect(Date.now() - t1).toBeLessThan(30);
  });
});
